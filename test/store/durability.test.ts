import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../src/server/index.js';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { openStore } from '../../src/store/sqlite/index.js';

/** The durability mode and lock waits docs/local-server.md states for the local server. */
describe('database settings', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('WAL with synchronous=NORMAL; admin connections wait 5 s for another writer', () => {
    dir = mkdtempSync(join(tmpdir(), 'confctl-pragmas-'));
    const db = openDatabase(join(dir, 'confctl.db'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    } finally {
      db.close();
    }
  });

  it('a served store waits at most 20 ms at a time (the server retries asynchronously)', () => {
    dir = mkdtempSync(join(tmpdir(), 'confctl-pragmas-'));
    const store = openStore(join(dir, 'confctl.db'));
    const set: number[] = [];
    createServer({ store: { ...store, setBusyTimeout: (ms) => void set.push(ms) }, signingSecret: 's', mediaDir: dir });
    store.close();
    expect(set).toEqual([20]);
  });
});
