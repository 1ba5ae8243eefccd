import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { adminDatabaseFixture } from '../cli/admin-database-fixture.js';

/**
 * A new tenant with its roles, and the first tenant with its roles and key, are written all or
 * nothing on both stores: a failure injected by the database between the steps (a trigger that
 * refuses the roles, or the key) leaves no tenant, domain, role or key behind.
 */
const { database, admin, query } = adminDatabaseFixture();

interface Backend {
  name: string;
  /** Where the admin commands work (`--data DIR` or `--database URL`), schema made, the failure armed on `table`. */
  prepare(f: ReturnType<typeof admin>, table: 'roles' | 'access_keys'): Promise<string[]>;
  /** How many rows `table` holds. */
  count(f: ReturnType<typeof admin>, where: string[], table: string): Promise<number>;
}

const BACKENDS: Backend[] = [
  {
    name: 'SQLite',
    async prepare(f, table) {
      f.inspect(() => undefined);
      const db = new Database(join(f.dataDir, 'confctl.db'));
      db.exec(`CREATE TRIGGER injected BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
      db.close();
      return ['--data', f.dataDir];
    },
    async count(f, _where, table) {
      const db = new Database(join(f.dataDir, 'confctl.db'), { readonly: true });
      try {
        return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
  },
  {
    name: 'PostgreSQL',
    async prepare(_f, table) {
      const url = await database();
      await (await openPostgresStore(url)).close();
      await query(url, "CREATE FUNCTION injected() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$");
      await query(url, `CREATE TRIGGER injected BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION injected()`);
      return ['--database', url];
    },
    async count(_f, where, table) {
      return Number((await query(where[1], `SELECT count(*) AS n FROM ${table}`))[0].n);
    },
  },
];

describe.each(BACKENDS)('provisioning is atomic on $name', (backend) => {
  it('admin init: a key that cannot be written leaves no tenant, domain or role', async () => {
    const f = admin();
    const where = await backend.prepare(f, 'access_keys');
    expect(await f.run(['admin', 'init', '--no-profile', ...where])).not.toBe(0);
    for (const table of ['tenants', 'tenant_domains', 'roles', 'access_keys']) expect([table, await backend.count(f, where, table)]).toEqual([table, 0]);
  });

  it('admin tenants add: roles that cannot be written leave no tenant or domain', async () => {
    const f = admin();
    const where = await backend.prepare(f, 'roles');
    expect(await f.run(['admin', 'tenants', 'add', 'acme.test', '--alias', 'www.acme.test', ...where])).not.toBe(0);
    for (const table of ['tenants', 'tenant_domains', 'roles']) expect([table, await backend.count(f, where, table)]).toEqual([table, 0]);
  });
});
