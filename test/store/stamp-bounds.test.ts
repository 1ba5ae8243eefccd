import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/contract/index.js';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { recountListCounts } from '../../src/store/sqlite/list-counts.js';
import { compileList, ListRunner } from '../../src/store/sqlite/list-query.js';
import { MIGRATIONS, migrate } from '../../src/store/sqlite/migrations.js';
import { SQLITE_CUSTOMER_LIST_DEF } from '../../src/store/sqlite/repos/customers.js';
import { SQLITE_USER_LIST_DEF } from '../../src/store/sqlite/repos/users.js';
import { BOUND_WRITES, boundsOff, choiceSql, expectPlainRanges, type BoundedTable, type BoundsStore } from './stamp-bounds-fixture.js';
import { spanRows } from './span-fixture.js';

/** Loads the span fixture's tenants and rows into `db`. */
function load(db: Database.Database): void {
  const { tenants, users, customers } = spanRows();
  db.transaction(() => {
    for (const id of Object.values(tenants)) db.prepare(`INSERT INTO tenants (id, created_at) VALUES (?, '2020-01-01T00:00:00.000Z')`).run(id);
    for (const [table, rows] of [['users', users], ['customers', customers]] as const) {
      const stmt = db.prepare(`INSERT INTO ${table} (id, tenant_id, first_name, last_name, email, created_at, updated_at, deleted_at) VALUES (?, ?, 'F', 'L', ?, ?, ?, ?)`);
      for (const r of rows) stmt.run(r.id, r.tenant_id, `${table}${r.id}@x.example`, r.created_at, r.updated_at, r.deleted_at);
    }
  })();
}

/** The oracle's side of a SQLite database. */
function sqliteSide(db: Database.Database): BoundsStore {
  const defs = { users: SQLITE_USER_LIST_DEF, customers: SQLITE_CUSTOMER_LIST_DEF };
  const runners = { users: new ListRunner(db, defs.users), customers: new ListRunner(db, defs.customers) };
  return {
    sql: async (text) => db.prepare(text).all() as Record<string, unknown>[],
    list: async (table: BoundedTable, tenant: number, query: ListQuery) => runners[table].run(tenant, query) as { rows: { id: number }[]; total: number },
    zoned: async (table, tenant, query) => {
      const c = compileList(defs[table], query, runners[table].tenantAccess(tenant));
      return (db.prepare(choiceSql(c.countSql)).pluck().get(tenant, query.filter!.value) as number) === 1;
    },
  };
}

describe('SQLite date range totals from the counters\u2019 stamp bounds', () => {
  const db = openDatabase(':memory:');
  afterAll(() => db.close());
  load(db);
  db.exec('ANALYZE');
  const side = sqliteSide(db);

  it('counts exactly before and after writes that widen the bounds, both from the bounds and by the fallback', async () => {
    const before = await expectPlainRanges(side);
    for (const sql of BOUND_WRITES) db.exec(sql);
    for (const table of ['users', 'customers']) {
      const off = await boundsOff(side, table);
      expect(off.loose).toEqual([]);
      // the writes left bounds wider than the rows (updated rows moved back, trashed and deleted ones)
      expect(off.inexact.length).toBeGreaterThan(0);
    }
    const after = await expectPlainRanges(side);
    // Stamps in id order are counted from the bounds; shuffled ones (and, after the writes, wide bounds) by the store's count.
    for (const ways of [before, after]) {
      expect(ways.zoned).toBeGreaterThan(0);
      expect(ways.fallback).toBeGreaterThan(0);
    }
  }, 240_000);

  it('recounts the bounds exactly', async () => {
    db.transaction(() => recountListCounts(db))();
    for (const table of ['users', 'customers']) expect(await boundsOff(side, table)).toEqual({ loose: [], inexact: [] });
  });
});

describe('SQLite migration 19', () => {
  it('fills the bounds of the rows already there exactly, and its triggers keep them', async () => {
    const db = new Database(':memory:');
    try {
      for (const m of MIGRATIONS.filter((m) => m.version <= 18)) db.exec(m.sql);
      db.pragma('user_version = 18');
      load(db);
      expect(db.prepare("SELECT count(*) FROM pragma_table_info('list_counts') WHERE name LIKE 'm__\\_%' ESCAPE '\\'").pluck().get()).toBe(0);
      migrate(db);
      const side = sqliteSide(db);
      for (const table of ['users', 'customers']) expect(await boundsOff(side, table)).toEqual({ loose: [], inexact: [] });
      for (const sql of BOUND_WRITES) db.exec(sql);
      for (const table of ['users', 'customers']) expect((await boundsOff(side, table)).loose).toEqual([]);
    } finally {
      db.close();
    }
  });
});
