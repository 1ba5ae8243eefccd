/** A store on a database of the rows a test file loads, and what the tests of counts from the smaller side ask of a plan. */
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js';
import { createMigratedDatabase, type TestDatabase } from '../../pg/database.js';
import { spanRows, type SpanRow } from '../span-fixture.js';
import { connect } from './databases.js';

/**
 * For the file's tests: a fresh migrated database holding the rows `load` writes (then vacuumed
 * and analyzed, as `admin copy` leaves a copy), a client on it, its URL and a store opened on it;
 * closed and dropped after them.
 */
export function loadedStore(load: (client: pg.Client) => Promise<void>): { readonly client: pg.Client; readonly store: PostgresStore; readonly url: string } {
  let db: TestDatabase;
  let client: pg.Client;
  let store: PostgresStore;
  beforeAll(async () => {
    db = await createMigratedDatabase();
    client = await connect(db.url);
    await load(client);
    await client.query('VACUUM (ANALYZE)');
    store = await openPostgresStore(db.url);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await client?.end();
    await db?.drop();
  });
  return {
    get client() {
      return client;
    },
    get store() {
      return store;
    },
    get url() {
      return db.url;
    },
  };
}

/** Which sides of a count from the smaller side (range-count.ts) ran: its `direct` and `other` scans. */
export async function sidesRun(client: pg.Client, statement: { text: string; values: unknown[] }): Promise<{ direct: boolean; other: boolean }> {
  const { rows } = await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN (ANALYZE, COSTS OFF) ${statement.text}`, values: statement.values });
  const lines = rows.map((r) => r['QUERY PLAN']);
  const ran = (name: string) => !lines[lines.findIndex((l) => l.trim() === `CTE ${name}`) + 1].includes('never executed');
  return { direct: ran('direct'), other: ran('other') };
}

/** Loads the span fixture's tenants and rows (test/store/span-fixture.ts). */
export async function loadSpanRows(client: pg.Client): Promise<void> {
  const { tenants, users, customers } = spanRows();
  await client.query(`INSERT INTO tenants (id, created_at) SELECT unnest($1::bigint[]), '2020-01-01T00:00:00.000Z'`, [Object.values(tenants)]);
  for (const [table, rows] of [['users', users], ['customers', customers]] as const) {
    const column = (key: keyof SpanRow) => rows.map((r) => r[key]);
    await client.query(
      `INSERT INTO ${table} (id, tenant_id, first_name, last_name, email, created_at, updated_at, deleted_at)
       SELECT id, tenant_id, 'F', 'L', '${table}' || id || '@x.example', created_at, updated_at, deleted_at
       FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[]) AS r(id, tenant_id, created_at, updated_at, deleted_at)`,
      [column('id'), column('tenant_id'), column('created_at'), column('updated_at'), column('deleted_at')],
    );
  }
}
