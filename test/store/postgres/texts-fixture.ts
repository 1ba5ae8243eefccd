/** The database of the oracles of PostgreSQL's tables of folded texts (customer-texts, folded-texts). */
import type pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ListQuery } from '../../../src/contract/index.js';
import { compileList, type PgListDef } from '../../../src/store/postgres/list-query.js';
import { PG_CUSTOMER_LIST_DEF } from '../../../src/store/postgres/people.js';
import { ensureTrigramIndexes } from '../../../src/store/postgres/trigram.js';
import { migratedDatabase } from './databases.js';

export const AT = '2026-01-01T00:00:00.000Z';

/** The customers' list with `address` and `city_country` matched on the customers' own rows, as before migration 9: the oracle. */
export const ON_CUSTOMERS: PgListDef = {
  ...PG_CUSTOMER_LIST_DEF,
  columns: Object.fromEntries(Object.entries(PG_CUSTOMER_LIST_DEF.columns).map(([name, col]) => [name, { sql: col.sql, type: col.type }])),
};

/**
 * Registers a migrated database with the trigram indexes and tenants 1 and 2 for the enclosing
 * describe block (dropped after it). `client()` is its client; `list` answers a list's total and
 * its page's ids as `runList` reads them: the page compiled with the total, a page walked for
 * (`walk`) taken when the walk holds it.
 */
export function textsDatabase() {
  let env: Awaited<ReturnType<typeof migratedDatabase>>;
  beforeAll(async () => {
    env = await migratedDatabase();
    expect(await ensureTrigramIndexes(env.client)).toBe(true);
    await env.client.query(`INSERT INTO tenants (id, created_at) VALUES (1, '${AT}'), (2, '${AT}')`);
  });
  afterAll(() => env.close());
  const client = (): pg.Client => env.client;
  const list = async (def: PgListDef, tenant: number, query: ListQuery) => {
    const compiled = compileList(def, tenant, query);
    const total = Number((await client().query<{ n: string }>(compiled.count)).rows[0].n);
    const { page, walk } = compileList(def, tenant, query, total);
    const walked = walk && (await client().query<{ id: string }>(walk.page)).rows;
    const rows = walked && walked.length === walk.rows ? walked : (await client().query<{ id: string }>(page)).rows;
    return { total, ids: rows.map((r) => Number(r.id)) };
  };
  return { client, list };
}
