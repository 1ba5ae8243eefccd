import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../../src/contract/index.js';
import { BUCKET_BITS, counterTotalSql } from '../../../src/store/list-counts.js';
import { compileList } from '../../../src/store/postgres/list-query.js';
import { PG_CUSTOMER_LIST_DEF } from '../../../src/store/postgres/people.js';
import { createMigratedDatabase, type TestDatabase } from '../../pg/database.js';

const BUCKET = 1 << BUCKET_BITS;

/** A plan node of EXPLAIN (ANALYZE, FORMAT JSON), as far as read here. */
interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** The rows every scan of `table` in the plan read: those it answered and those its filter removed. */
function rowsRead(node: PlanNode, table: string): number {
  const own = node['Relation Name'] === table ? node['Actual Rows'] * node['Actual Loops'] + (node['Rows Removed by Filter'] ?? 0) : 0;
  return own + (node.Plans ?? []).reduce((n, child) => n + rowsRead(child, table), 0);
}

/**
 * A deep unfiltered page in id order on PostgreSQL walks from its counter bucket
 * (store/list-counts.ts): EXPLAIN ANALYZE shows the scans of the table reading about a bucket's rows
 * (the OFFSET it replaces reads every row before the page), and the rows are the plain query's.
 */
describe('PostgreSQL: deep pages walk one counter bucket', () => {
  let db: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createMigratedDatabase();
    client = new pg.Client(db.url);
    await client.connect();
    // Tenant 1's 19,800 customers, 1 in 20 soft-deleted, with tenant 2's ids among them.
    await client.query(`INSERT INTO tenants (id, created_at) VALUES (1, 'x'), (2, 'x');
      INSERT INTO customers (id, tenant_id, first_name, last_name, email, created_at, updated_at, deleted_at)
      SELECT i, 1 + (i % 100 = 0)::int, 'F', 'L', 'c' || i || '@x.example', 'x', 'x', CASE WHEN i % 20 = 0 THEN 'x' END FROM generate_series(1, 20000) AS i;`);
    await client.query('VACUUM ANALYZE customers');
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  const explain = async (text: string, values: unknown[]) =>
    ((await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values)).rows[0]['QUERY PLAN'][0].Plan);

  it('reads about a bucket of rows for page 600 of 15, live or with trashed, in either order, where the OFFSET reads 9,000', async () => {
    for (const [with_trashed, order_direction] of [[false, 'asc'], [false, 'desc'], [true, 'asc'], [true, 'desc']] as const) {
      const query: ListQuery = { page_size: 15, page_number: 600, with_trashed, order_by: 'id', order_direction, filter: null };
      const total = Number((await client.query<{ n: string }>(counterTotalSql('customers', with_trashed, '$1'), [1])).rows[0].n);
      const { page } = compileList(PG_CUSTOMER_LIST_DEF, 1, query, total);
      expect(page.text).toContain('list_counts');
      const plainText = `SELECT id FROM customers WHERE tenant_id = 1${with_trashed ? '' : ' AND deleted_at IS NULL'} ORDER BY id ${order_direction} LIMIT 15 OFFSET ${599 * 15}`;
      const plain = (await client.query<{ id: number }>(plainText)).rows.map((r) => Number(r.id));
      expect((await client.query<{ id: number }>(page.text, page.values)).rows.map((r) => Number(r.id))).toEqual(plain);
      const read = rowsRead(await explain(page.text, page.values), 'customers');
      expect({ with_trashed, order_direction, read: read <= 1.2 * BUCKET }).toEqual({ with_trashed, order_direction, read: true });
      expect(rowsRead(await explain(plainText, []), 'customers')).toBeGreaterThan(599 * 15);
    }
  });
});
