import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../../src/contract/index.js';
import { migrate } from '../../../src/store/postgres/migrate.js';
import { recountListCounts } from '../../../src/store/postgres/list-counts.js';
import { compileList } from '../../../src/store/postgres/list-query.js';
import { PG_CUSTOMER_LIST_DEF } from '../../../src/store/postgres/people.js';
import { PG_MIGRATIONS } from '../../../src/store/postgres/schema.js';
import { USER_LIST_DEF } from '../../../src/store/rows/users.js';
import { createTestDatabase } from '../../pg/database.js';
import { BOUND_WRITES, boundsOff, choiceSql, expectPlainRanges, type BoundsStore } from '../stamp-bounds-fixture.js';
import { connect } from './databases.js';
import { loadedStore, loadSpanRows } from './loaded-store.js';

/** SQL of `client` for the oracle: ids and counts as numbers. */
const sqlOf = (client: pg.Client) => async (text: string) =>
  (await client.query(text)).rows.map((r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'id' || k === 'tenant_id' || k === 'bucket' ? Number(v) : v])));

describe('PostgreSQL date range totals from the counters\u2019 stamp bounds', () => {
  const fx = loadedStore(loadSpanRows);
  const side = (): BoundsStore => ({
    sql: sqlOf(fx.client),
    list: async (table, tenant, query: ListQuery) => (table === 'users' ? fx.store.users.list(tenant, query) : fx.store.customers.list(tenant, query)),
    zoned: async (table, tenant, query) => {
      const { count } = compileList(table === 'users' ? USER_LIST_DEF : PG_CUSTOMER_LIST_DEF, tenant, query);
      return (await fx.client.query<{ zoned: number }>({ text: choiceSql(count.text), values: count.values })).rows[0].zoned === 1;
    },
  });

  it('counts exactly before and after writes that widen the bounds (statement triggers), both from the bounds and by the fallback', async () => {
    const before = await expectPlainRanges(side());
    for (const sql of BOUND_WRITES) await fx.client.query(sql);
    for (const table of ['users', 'customers']) {
      const off = await boundsOff(side(), table);
      expect(off.loose).toEqual([]);
      expect(off.inexact.length).toBeGreaterThan(0);
    }
    const after = await expectPlainRanges(side());
    for (const ways of [before, after]) {
      expect(ways.zoned).toBeGreaterThan(0);
      expect(ways.fallback).toBeGreaterThan(0);
    }
  }, 240_000);

  it('recounts the bounds exactly', async () => {
    await fx.client.query('BEGIN');
    await recountListCounts(fx.client);
    await fx.client.query('COMMIT');
    for (const table of ['users', 'customers']) expect(await boundsOff(side(), table)).toEqual({ loose: [], inexact: [] });
  });
});

describe('PostgreSQL migration 10', () => {
  const made: { drop(): Promise<void> }[] = [];
  const clients: pg.Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end()));
    await Promise.all(made.map((d) => d.drop()));
  });

  it('fills the bounds of the rows already there exactly, and the triggers keep them', async () => {
    const db = await createTestDatabase();
    made.push(db);
    const c = await connect(db.url);
    clients.push(c);
    await migrate(c, PG_MIGRATIONS.filter((m) => m.version < 10));
    await loadSpanRows(c);
    expect((await c.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'list_counts' AND column_name LIKE 'min\\_%'")).rows).toEqual([]);
    await migrate(c);
    const store: BoundsStore = { sql: sqlOf(c), list: () => Promise.reject(new Error('unused')), zoned: () => Promise.reject(new Error('unused')) };
    for (const table of ['users', 'customers']) expect(await boundsOff(store, table)).toEqual({ loose: [], inexact: [] });
    for (const sql of BOUND_WRITES) await c.query(sql);
    for (const table of ['users', 'customers']) expect((await boundsOff(store, table)).loose).toEqual([]);
  });
});
