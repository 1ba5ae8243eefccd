import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planBackup, planRestore, runBackup, runRestore } from '../../src/admin/backup.js';
import { AdminError } from '../../src/admin/errors.js';
import { initFirstTenant } from '../../src/local/init.js';
import { atOnce, openLocalSync } from '../at-once.js';
import { SCHEMA_VERSION } from '../../src/store/index.js';
import { seedDemo } from '../../src/admin/seed/index.js';

const NOW = new Date('2026-01-31T09:30:00.000Z');
const fails = (fn: () => unknown): AdminError => {
  try {
    fn();
  } catch (err) {
    return err as AdminError;
  }
  throw new Error('did not fail');
};

describe('admin backup and restore', () => {
  let root: string;
  let data: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'confctl-backup-'));
    data = join(root, 'data');
    const local = openLocalSync(data, {});
    atOnce(seedDemo(local.store, atOnce(initFirstTenant(local.store))!.tenant.id, { mediaDir: local.layout.mediaDir }));
    local.store.close();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('copies the database, instance.json and every media file into one new owner-only directory', () => {
    const to = join(root, 'backup');
    const plan = planBackup(data, to, { force: false });
    expect(plan).toMatchObject({ from: data, to, media_files: 2, replaces: false });
    const manifest = runBackup(plan, NOW);
    expect(manifest).toEqual({ format: 'confctl-backup', schema_version: SCHEMA_VERSION, created_at: NOW.toISOString(), media_files: 2 });
    expect(JSON.parse(readFileSync(join(to, 'backup.json'), 'utf8'))).toEqual(manifest);
    expect(readFileSync(join(to, 'instance.json'), 'utf8')).toBe(readFileSync(join(data, 'instance.json'), 'utf8'));
    for (const f of readdirSync(join(data, 'media', 'recordings'))) {
      expect(readFileSync(join(to, 'media', 'recordings', f))).toEqual(readFileSync(join(data, 'media', 'recordings', f)));
      expect(statSync(join(to, 'media', 'recordings', f)).mode & 0o777).toBe(0o600);
    }
    expect(statSync(to).mode & 0o777).toBe(0o700);
    expect(statSync(join(to, 'confctl.db')).mode & 0o777).toBe(0o600);
    expect(readdirSync(root).sort()).toEqual(['backup', 'data']); // no temporary directory left
  });

  it('refuses an existing PATH unless forced, a missing instance, and a PATH inside the data directory', () => {
    const to = join(root, 'taken');
    mkdirSync(to);
    writeFileSync(join(to, 'keep.txt'), 'x');
    expect(fails(() => planBackup(data, to, { force: false }))).toMatchObject({ kind: 'conflict', message: `${to} already exists; pass --force to replace it.` });
    expect(readFileSync(join(to, 'keep.txt'), 'utf8')).toBe('x');
    runBackup(planBackup(data, to, { force: true }), NOW);
    expect(existsSync(join(to, 'keep.txt'))).toBe(false);
    expect(existsSync(join(to, 'backup.json'))).toBe(true);
    expect(fails(() => planBackup(join(root, 'nothing'), join(root, 'b2'), { force: false }))).toMatchObject({ kind: 'not_found' });
    expect(fails(() => planBackup(data, join(data, 'media', 'b'), { force: false }))).toMatchObject({ kind: 'invalid' });
    expect(fails(() => planBackup(data, root, { force: true }))).toMatchObject({ kind: 'invalid' });
  });

  it('leaves nothing half-written when a backup or a restore fails, and keeps the PATH --force would replace', () => {
    const kept = join(root, 'kept');
    runBackup(planBackup(data, kept, { force: false }), NOW);
    const before = readFileSync(join(kept, 'backup.json'), 'utf8');
    // A file that cannot be copied (here a directory where instance.json belongs) fails the copy.
    rmSync(join(data, 'instance.json'));
    mkdirSync(join(data, 'instance.json'));
    expect(() => runBackup(planBackup(data, kept, { force: true }), new Date('2026-02-01T00:00:00Z'))).toThrow();
    expect(() => runBackup(planBackup(data, join(root, 'fresh'), { force: false }), NOW)).toThrow();
    expect(readdirSync(root).sort()).toEqual(['data', 'kept']);
    expect(readFileSync(join(kept, 'backup.json'), 'utf8')).toBe(before);

    rmSync(join(kept, 'instance.json'));
    mkdirSync(join(kept, 'instance.json'));
    expect(() => runRestore(planRestore(kept, join(root, 'restored')))).toThrow();
    expect(readdirSync(root).sort()).toEqual(['data', 'kept']);
  });

  it('restores into a new or empty directory only; the restored instance opens with the same data', () => {
    const backup = join(root, 'backup');
    runBackup(planBackup(data, backup, { force: false }), NOW);

    const busy = join(root, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'x'), '');
    expect(fails(() => planRestore(backup, busy))).toMatchObject({ kind: 'conflict', message: `${busy} is not empty; restore into a new or empty directory.` });
    expect(readdirSync(busy)).toEqual(['x']);

    const empty = join(root, 'empty');
    mkdirSync(empty);
    runRestore(planRestore(backup, empty));
    const restored = openLocalSync(empty, {});
    const original = openLocalSync(data, {});
    try {
      expect(restored.signingSecret).toBe(original.signingSecret);
      const q = { page_size: 100, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc' as const, filter: null };
      expect(restored.store.customers.list(1, q)).toEqual(original.store.customers.list(1, q));
      expect(readdirSync(join(empty, 'media', 'recordings')).sort()).toEqual(readdirSync(join(data, 'media', 'recordings')).sort());
    } finally {
      restored.store.close();
      original.store.close();
    }
  });

  it('refuses a backup of a newer schema, a directory that is no backup, and a damaged one', () => {
    const backup = join(root, 'backup');
    runBackup(planBackup(data, backup, { force: false }), NOW);
    const db = new Database(join(backup, 'confctl.db'));
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const target = join(root, 'restored');
    expect(fails(() => planRestore(backup, target))).toMatchObject({
      kind: 'conflict',
      message: `The backup has schema version ${SCHEMA_VERSION + 1}, newer than this confctl's ${SCHEMA_VERSION}; restore it with a newer confctl.`,
    });
    expect(fails(() => planRestore(data, target))).toMatchObject({ kind: 'not_found' });
    writeFileSync(join(backup, 'confctl.db'), 'not a database, and long enough to be read as a header of one.'.repeat(100));
    expect(fails(() => planRestore(backup, target))).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^The backup's database cannot be read: /) });
    expect(existsSync(target)).toBe(false);
  });
});
