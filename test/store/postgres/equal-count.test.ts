import { describe, expect, it } from 'vitest';
import { compileList } from '../../../src/store/postgres/list-query.js';
import { USER_LIST_DEF } from '../../../src/store/rows/users.js';
import { f, q } from '../contract/fixtures.js';
import { loadedStore, sidesRun } from './loaded-store.js';

/**
 * An Equal on a number that most of the table's rows hold is counted from the other side, the
 * counters' total less the rows below and above the value and those without one
 * (range-count.ts, `equalCountSql`): the store's lists answer the plain query's rows, order and
 * total, with NULLs, trashed rows and with_trashed, for values held by most rows, by few and by none.
 */
const TENANT = 1;
const OTHER = 2;

const fx = loadedStore(async (client) => {
  await client.query(`INSERT INTO tenants (id, created_at) VALUES (${TENANT}, '2020-01-01T00:00:00.000Z'), (${OTHER}, '2020-01-01T00:00:00.000Z')`);
  await client.query(`INSERT INTO departments (id, tenant_id, name, created_at, updated_at) SELECT d, ${TENANT}, 'D' || d, '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z' FROM generate_series(1, 3) AS d`);
  // 3,500 users of the tenant beside 500 of another (no department): status 1 on four in five,
  // department 1 on 17 in 20 of the tenant's (three in four of the table's), 2 on 2 in 20, none
  // on 1 in 20; every 7th trashed.
  await client.query(
    `INSERT INTO users (id, tenant_id, department_id, first_name, last_name, email, status, created_at, updated_at, deleted_at)
     SELECT i, CASE WHEN i % 8 = 0 THEN ${OTHER} ELSE ${TENANT} END,
       CASE WHEN i % 8 = 0 THEN NULL WHEN i % 20 < 17 THEN 1 WHEN i % 20 < 19 THEN 2 END,
       'F', 'L', 'u' || i || '@x.example', CASE WHEN i % 5 = 0 THEN 0 ELSE 1 END,
       '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', CASE WHEN i % 7 = 0 THEN '2025-01-01T00:00:00.000Z' END
     FROM generate_series(1, 4000) AS i`,
  );
});

/** The matching ids of the plain query, in id order. */
async function matching(tenant: number, attribute: string, value: number, trashed: boolean): Promise<number[]> {
  const { rows } = await fx.client.query<{ id: string }>(
    `SELECT id FROM users WHERE tenant_id = $1 ${trashed ? '' : 'AND deleted_at IS NULL'} AND ${attribute} = $2 ORDER BY id`,
    [tenant, value],
  );
  return rows.map((r) => Number(r.id));
}

describe('PostgreSQL Equal on a number counted from the smaller side', () => {
  it("answers the plain query's rows, order and total", async () => {
    for (const tenant of [TENANT, OTHER]) {
      for (const [attribute, values] of [
        ['status', [0, 1, 2]],
        ['department_id', [1, 2, 3]],
      ] as const) {
        for (const value of values) {
          for (const with_trashed of [false, true]) {
            const all = await matching(tenant, attribute, value, with_trashed);
            for (const page_number of [1, 3]) {
              const query = q({ filter: f(attribute, 'integer', 'Equal', value), with_trashed, page_size: 15, page_number });
              const got = await fx.store.users.list(tenant, query);
              expect({ query, tenant, total: got.total, ids: got.rows.map((r) => r.id) }).toEqual({ query, tenant, total: all.length, ids: all.slice((page_number - 1) * 15, page_number * 15) });
            }
          }
        }
      }
    }
  });

  it('counts the other side of a value most rows hold, and the matches of any other', async () => {
    const ran = async (attribute: string, value: number) => {
      const { count } = compileList(USER_LIST_DEF, TENANT, q({ filter: f(attribute, 'integer', 'Equal', value) }));
      return { attribute, value, ...(await sidesRun(fx.client, count)) };
    };
    expect(await ran('status', 1)).toEqual({ attribute: 'status', value: 1, direct: false, other: true });
    expect(await ran('department_id', 1)).toEqual({ attribute: 'department_id', value: 1, direct: false, other: true });
    for (const [attribute, value] of [['status', 0], ['department_id', 2], ['department_id', 3]] as const) {
      expect(await ran(attribute, value)).toEqual({ attribute, value, direct: true, other: false });
    }
    // nothing in the statement keeps its scans off parallel workers (current_schema() would)
    await fx.client.query('BEGIN');
    try {
      for (const setting of ['parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size']) await fx.client.query(`SET LOCAL ${setting} = 0`);
      const { count } = compileList(USER_LIST_DEF, TENANT, q({ filter: f('status', 'integer', 'Equal', 0) }));
      const { rows } = await fx.client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${count.text}`, values: count.values });
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/CTE direct\n.*\n\s+->\s+Gather/);
    } finally {
      await fx.client.query('ROLLBACK');
    }
    // not for the id, whose counts no index of its own serves
    expect(compileList(USER_LIST_DEF, TENANT, q({ filter: f('id', 'integer', 'Equal', 1) })).count.text).toMatch(/^SELECT count\(\*\) AS n FROM/);
  });
});
