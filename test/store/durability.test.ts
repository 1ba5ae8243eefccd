import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../src/server/index.js';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { openStore } from '../../src/store/sqlite/index.js';
import { TRIGRAM_PENDING_MAX } from '../../src/store/sqlite/trigram.js';

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

  it('a commit group of customer inserts keeps its statement journal in memory (temp_store=MEMORY): no temporary file', () => {
    dir = mkdtempSync(join(tmpdir(), 'confctl-pragmas-'));
    const db = openDatabase(join(dir, 'confctl.db'));
    // SQLite's temporary files are unlinked as they are opened: seen only among the open descriptors.
    const tempFiles = () => readdirSync('/proc/self/fd').filter((fd) => /etilqs_/.test(safeReadlink(`/proc/self/fd/${fd}`))).length;
    try {
      expect(db.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
      const tenant = db.prepare("INSERT INTO tenants (created_at) VALUES ('2026-01-01T00:00:00.000Z')").run().lastInsertRowid;
      const insert = db.prepare(
        "INSERT INTO customers (tenant_id, first_name, last_name, email, line_1, city, country, created_at, updated_at) VALUES (?, 'Ada', 'Lovelace', ?, '12 Long Road', 'Springfield', 'US', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
      );
      const before = tempFiles();
      db.exec('BEGIN IMMEDIATE');
      // Each insert is a statement of its own, with a savepoint; every TRIGRAM_PENDING_MAX-th writes
      // the pending trigram texts, rewriting pages the earlier inserts dirtied, which the statement journal keeps.
      const rows = 2 * TRIGRAM_PENDING_MAX + 88;
      for (let i = 0; i < rows; i++) insert.run(tenant, `ada${i}@example.com`);
      expect(tempFiles()).toBe(before);
      db.exec('COMMIT');
      expect(db.prepare("SELECT COUNT(*) FROM customers_city_country_text WHERE customers_city_country_text MATCH '{city_country} : \"ingfield, u\"'").pluck().get()).toBe(2 * TRIGRAM_PENDING_MAX);
      expect(db.prepare('SELECT COUNT(*) FROM customers_text_pending').pluck().get()).toBe(88);
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
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

/** The target of a descriptor's link, or '' for one closed meanwhile. */
function safeReadlink(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}
