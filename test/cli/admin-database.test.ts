import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/harness.js';
import { adminDatabaseFixture } from './admin-database-fixture.js';

/**
 * `admin tenants add|list` and `admin keys create|list|revoke` on a data directory and with
 * `--database` (or CONFCTL_DATABASE_URL) on PostgreSQL: the same output on both; `admin backup`
 * and `restore` refuse PostgreSQL (exit 2, pointing to pg_dump/pg_restore); `admin copy` as the CLI
 * runs it (exit codes, the URL's password never printed).
 */
const { database, admin, adminOn, schemaExists } = adminDatabaseFixture();
/** A table's column names (its second line); the lines of a plain-text answer without their values. */
const header = (out: string) => out.split('\n')[1].split('│').map((c) => c.trim()).filter(Boolean);
const shape = (out: string) => out.replace(/ak_[0-9A-Za-z]{24}/g, 'ak_ID').replace(/Secret: \S+/, 'Secret: S').replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, 'TIME');

describe.each(BACKENDS)('admin tenants and keys (%s)', (backend) => {
  it('on a store without confctl data: lists are empty, --dry-run plans; a database is left without its schema, and no data directory is made for it', async () => {
    const f = await adminOn(backend, {}, 'flag');
    expect(await f.json(['admin', 'tenants', 'list', ...f.flags])).toEqual([]);
    expect(await f.json(['admin', 'keys', 'list', ...f.flags])).toEqual([]);
    expect(await f.run(['--dry-run', 'admin', 'tenants', 'add', 'acme.test', ...f.flags])).toBe(0);
    expect(f.stdout()).toContain('would create tenant acme.test with roles Admin, Manager, Member');
    expect(await f.run(['--dry-run', 'admin', 'keys', 'create', '--name', 'ci', '--permissions', '*', ...f.flags])).toBe(4);
    expect(f.stderr()).toContain('has no tenant yet');
    expect(f.stderr()).not.toContain('hunter2');
    if (f.url) {
      expect(await schemaExists(f.url)).toBe(false);
      expect(existsSync(f.dataDir)).toBe(false);
    }
  });

  it('adds tenants with the default roles, creates, lists and revokes keys: the JSON of the SQLite path', async () => {
    const pgf = await adminOn(backend, {}, 'flag');
    const local = admin();
    await local.json(['admin', 'init', '--no-profile']);
    const tenant = await pgf.json(['admin', 'tenants', 'add', 'localhost', '--alias', '127.0.0.1', ...pgf.flags]);
    const localTenant = await local.json(['admin', 'tenants', 'add', 'acme.test', '--alias', 'www.acme.test']);
    expect(Object.keys(tenant)).toEqual(Object.keys(localTenant));
    expect(tenant).toMatchObject({ id: 1, primary_domain: 'localhost', aliases: ['127.0.0.1'] });
    expect(await pgf.store((store) => store.roles.list(tenant.id))).toEqual(['Admin', 'Manager', 'Member']);
    expect(await pgf.run(['admin', 'tenants', 'add', 'www.localhost', '--alias', '127.0.0.1', ...pgf.flags])).toBe(5);
    expect(pgf.stderr()).toContain('domain already in use: 127.0.0.1');

    const key = await pgf.json(['admin', 'keys', 'create', '--name', 'ci', '--permissions', 'users.read.*', '--expires', '2099-01-01', ...pgf.flags]);
    const localKey = await local.json(['admin', 'keys', 'create', '--name', 'ci', '--permissions', 'users.read.*', '--expires', '2099-01-01']);
    expect(Object.keys(key)).toEqual(Object.keys(localKey));
    expect(key).toMatchObject({ tenant: 'localhost', name: 'ci', permissions: ['users.read.*'], expires_at: '2099-01-01T00:00:00.000Z' });

    const keys = await pgf.json(['admin', 'keys', 'list', '--tenant', '127.0.0.1', ...pgf.flags]);
    const localKeys = await local.json(['admin', 'keys', 'list']);
    expect(keys.map((k: object) => Object.keys(k))).toEqual([Object.keys(localKeys[0])]);
    expect(keys).toEqual([expect.objectContaining({ id: key.id, tenant: 'localhost', revoked_at: null })]);

    const revoked = await pgf.json(['admin', 'keys', 'revoke', key.id, ...pgf.flags]);
    const localRevoked = await local.json(['admin', 'keys', 'revoke', localKey.id]);
    expect(Object.keys(revoked)).toEqual(Object.keys(localRevoked));
    expect(revoked.revoked_at).toEqual(expect.any(String));
    expect(await pgf.run(['admin', 'keys', 'revoke', 'ak_000000000000000000000000', ...pgf.flags])).toBe(4);

    const tenants = await pgf.json(['admin', 'tenants', 'list', ...pgf.flags]);
    expect(tenants.map((t: { primary_domain: string }) => t.primary_domain)).toEqual(['localhost']);
    expect(JSON.stringify([pgf.stdout(), pgf.stderr()])).not.toContain('hunter2');
  });

  it('prints the same tables and plain text as the SQLite path', async () => {
    const pgf = await adminOn(backend, {}, 'flag');
    // A tenant with a revoked key, as the case above leaves it.
    await pgf.json(['admin', 'tenants', 'add', 'localhost', '--alias', '127.0.0.1', ...pgf.flags]);
    const ci = await pgf.json(['admin', 'keys', 'create', '--name', 'ci', '--permissions', 'users.read.*', '--expires', '2099-01-01', ...pgf.flags]);
    await pgf.json(['admin', 'keys', 'revoke', ci.id, ...pgf.flags]);
    const local = admin();
    await local.json(['admin', 'init', '--no-profile']);
    for (const [args, localArgs] of [
      [['admin', 'tenants', 'list'], ['admin', 'tenants', 'list']],
      [['admin', 'keys', 'list'], ['admin', 'keys', 'list']],
    ]) {
      const before = [pgf.stdout().length, local.stdout().length];
      expect(await pgf.run([...args, ...pgf.flags, '-o', 'table'])).toBe(0);
      expect(await local.run([...localArgs, '-o', 'table'])).toBe(0);
      expect(header(pgf.stdout().slice(before[0]))).toEqual(header(local.stdout().slice(before[1])));
      expect(header(pgf.stdout().slice(before[0]))).toContain('id');
    }
    const before = [pgf.stdout().length, local.stdout().length];
    await pgf.run(['admin', 'keys', 'create', '--name', 'plain', '--permissions', '*', '--expires', '2099-01-01', ...pgf.flags, '-o', 'table']);
    await local.run(['admin', 'keys', 'create', '--name', 'plain', '--permissions', '*', '--expires', '2099-01-01', '-o', 'table']);
    expect(shape(pgf.stdout().slice(before[0]))).toBe(shape(local.stdout().slice(before[1])));
    expect(shape(pgf.stdout().slice(before[0]))).toMatch(/^Created key ak_ID for localhost\nSecret: S {3}\(shown only now\)\nPermissions: \*\nExpires: 2099-01-01T00:00:00.000Z\n$/);
  });
});

describe('admin tenants and keys: which store', () => {
  it('CONFCTL_DATABASE_URL selects the database unless --data is given; both flags, or a URL that is not PostgreSQL, are exit 2', async () => {
    const url = await database();
    await admin().json(['admin', 'tenants', 'add', 'localhost', '--database', url]);
    const f = admin({ CONFCTL_DATABASE_URL: url });
    expect((await f.json(['admin', 'tenants', 'list'])).map((t: { primary_domain: string }) => t.primary_domain)).toEqual(['localhost']);
    await f.json(['admin', 'init', '--no-profile', '--data', f.dataDir]);
    const local = await f.json(['admin', 'keys', 'list', '--data', f.dataDir]);
    expect(local.map((k: { name: string }) => k.name)).toEqual(['admin']);
    expect(await f.run(['admin', 'keys', 'list', '--data', f.dataDir, '--database', url])).toBe(2);
    expect(f.stderr()).toContain('give --data (a SQLite data directory) or --database (PostgreSQL), not both');
    expect(await f.run(['admin', 'keys', 'list', '--database', 'mysql://x:hunter2@h/db'])).toBe(2);
    expect(f.stderr()).toContain('--database must be a PostgreSQL URL');
    expect(f.stderr()).not.toContain('hunter2');
  });

  it('a database that does not answer is exit 8, the URL without its password', async () => {
    const f = admin();
    expect(await f.run(['admin', 'tenants', 'list', '--database', 'postgres://confctl:hunter2@127.0.0.1:1/confctl'])).toBe(8);
    expect(f.stderr()).toContain('error: cannot reach the database postgres://confctl:***@127.0.0.1:1/confctl');
    expect(f.stderr()).not.toContain('hunter2');
  });
});

describe('admin backup and restore on PostgreSQL', () => {
  it('refuse --database and CONFCTL_DATABASE_URL with exit 2, pointing to pg_dump and pg_restore', async () => {
    const url = 'postgres://confctl:hunter2@db.invalid/confctl';
    const f = admin();
    expect(await f.run(['admin', 'backup', '--to', join(f.dataDir, '..', 'b'), '--database', url])).toBe(2);
    expect(f.stderr()).toContain('error: admin backup works on a SQLite data directory, not on a PostgreSQL database');
    expect(f.stderr()).toContain('pg_dump');
    const e = admin({ CONFCTL_DATABASE_URL: url });
    expect(await e.run(['admin', 'backup', '--to', join(e.dataDir, '..', 'b')])).toBe(2);
    expect(await e.run(['admin', 'restore', '--from', join(e.dataDir, '..', 'b')])).toBe(2);
    expect(e.stderr()).toContain('error: admin restore works on a SQLite data directory, not on a PostgreSQL database');
    expect(e.stderr()).toContain('pg_restore');
    expect(await f.run(['admin', 'restore', '--from', join(f.dataDir, '..', 'b'), '--database', url])).toBe(2);
    expect(existsSync(join(f.dataDir, '..', 'b'))).toBe(false);
    expect(f.stderr() + e.stderr()).not.toContain('hunter2');

    // With --data the data directory is meant: CONFCTL_DATABASE_URL does not stand in the way.
    await e.json(['admin', 'init', '--no-profile', '--data', e.dataDir]);
    expect(await e.run(['admin', 'backup', '--data', e.dataDir, '--to', join(e.dataDir, '..', 'b')])).toBe(0);
  });
});

describe('admin copy', () => {
  it('copies into --to (or CONFCTL_DATABASE_URL), refuses a database with data (exit 5) unless --replace; never prints the password', async () => {
    const url = await database();
    const f = admin();
    await f.json(['admin', 'init', '--no-profile']);
    await f.json(['admin', 'seed', '--demo']);
    const mediaTo = join(f.dataDir, '..', 'shared-media');

    expect(await f.run(['--dry-run', 'admin', 'copy', '--from', f.dataDir, '--to', url, '--media-to', mediaTo, '-o', 'table'])).toBe(0);
    expect(f.stdout()).toMatch(/would copy \d+ rows of 24 tables from .* into postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/confctl_test_\w+, in one transaction\n/);
    expect(f.stdout()).toContain("would store the instance's signing secret as the database's");
    expect(f.stdout()).toMatch(/would copy 2 media files \(\d+ bytes\) from .*\/media to .*shared-media\n/);
    expect(await schemaExists(url)).toBe(false);
    expect(existsSync(mediaTo)).toBe(false);

    const copied = await f.json(['admin', 'copy', '--from', f.dataDir, '--to', url, '--media-to', mediaTo]);
    expect(copied).toMatchObject({ to: expect.stringContaining(':***@'), replaced: false, signing_secret: true, media: { files: 2, to: mediaTo, same: false } });
    expect(copied.tables.find((t: { table: string }) => t.table === 'users')).toEqual({ table: 'users', rows: 25 });

    const env = admin({ CONFCTL_DATABASE_URL: url });
    expect(await env.run(['admin', 'copy', '--from', f.dataDir, '--media-to', mediaTo])).toBe(5);
    expect(env.stderr()).toMatch(/error: postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/confctl_test_\w+ already holds confctl data \(1 tenant\); pass --replace to empty it first/);
    expect(await env.run(['admin', 'copy', '--from', f.dataDir, '--media-to', mediaTo, '--replace', '-o', 'table'])).toBe(0);
    expect(env.stdout()).toMatch(/│ users +│ 25 +│/);
    expect(env.stdout()).toMatch(/Copied \d+ rows from .* into postgres:\/\/postgres:\*\*\*@.* \(emptied first\), and the signing secret\nCopied 2 media files/);
    expect(f.stdout() + f.stderr() + env.stdout() + env.stderr()).not.toContain('hunter2');
  });

  it("--media-to defaults to where serve --database looks: CONFCTL_MEDIA_DIR, else CONFCTL_DATA's media/", async () => {
    const url = await database();
    const f = admin();
    await f.json(['admin', 'init', '--no-profile']);
    await f.json(['admin', 'seed', '--demo']);
    const own = join(f.dataDir, 'media');
    // CONFCTL_DATA is the instance copied: its media directory is already the target.
    expect((await f.json(['admin', 'copy', '--from', f.dataDir, '--to', url])).media).toEqual({ from: own, to: own, files: 2, bytes: expect.any(Number), same: true });

    const elsewhere = join(f.dataDir, '..', 'elsewhere');
    const other = admin({ CONFCTL_DATA: elsewhere });
    const moved = await other.json(['admin', 'copy', '--from', f.dataDir, '--to', url, '--replace']);
    expect(moved.media).toMatchObject({ from: own, to: join(elsewhere, 'media'), files: 2, same: false });
    expect(existsSync(join(elsewhere, 'media', 'recordings'))).toBe(true);

    const shared = join(f.dataDir, '..', 'volume');
    const volume = admin({ CONFCTL_MEDIA_DIR: shared });
    const onVolume = await volume.json(['admin', 'copy', '--from', f.dataDir, '--media', own, '--to', url, '--replace']);
    expect(onVolume.media).toMatchObject({ from: own, to: shared, files: 2, same: false });
  });

  it('needs a PostgreSQL URL (exit 2) and a data directory with a database (exit 4)', async () => {
    const f = admin();
    expect(await f.run(['admin', 'copy', '--from', f.dataDir])).toBe(2);
    expect(f.stderr()).toContain('say which database to copy into: --to postgres://… or CONFCTL_DATABASE_URL');
    expect(await f.run(['admin', 'copy', '--from', f.dataDir, '--to', 'sqlite:///x'])).toBe(2);
    expect(await f.run(['admin', 'copy', '--from', f.dataDir, '--to', await database()])).toBe(4);
    expect(f.stderr()).toContain('holds no confctl instance (no confctl.db)');
    expect(existsSync(f.dataDir)).toBe(false);

    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['admin', 'copy', '--from', f.dataDir, '--to', 'postgres://confctl:hunter2@127.0.0.1:1/confctl'])).toBe(8);
    expect(f.stderr()).toContain('error: cannot reach the database postgres://confctl:***@127.0.0.1:1/confctl');
    expect(f.stderr()).not.toContain('hunter2');
  });

  it('seed and import check their arguments before reaching the database (exit 2, not 8)', async () => {
    const f = admin();
    expect(await f.run(['admin', 'seed', '--database', 'postgres://confctl@db.invalid/confctl'])).toBe(2);
    expect(f.stderr()).toContain('say what to seed: --demo, or --users N and/or --customers N');
    expect(await f.run(['admin', 'seed', '--users', 'many', '--database', 'postgres://confctl@db.invalid/confctl'])).toBe(2);
    expect(await f.run(['admin', 'import', 'robots', 'x.ndjson', '--database', 'postgres://confctl@db.invalid/confctl'])).toBe(2);
    expect(await f.run(['admin', 'import', 'users', join(f.dataDir, 'missing.ndjson'), '--database', 'postgres://confctl@db.invalid/confctl'])).toBe(2);
    expect(f.stderr()).toContain('cannot read');
    expect(f.stderr()).not.toContain('cannot reach the database');
  });
});
