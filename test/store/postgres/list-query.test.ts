import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS, type ListFilter, type ListQuery } from '../../../src/contract/index.js';
import { openDatabase, type Db } from '../../../src/store/sqlite/db.js';
import { compileList as compileSqlite, TENANT } from '../../../src/store/sqlite/list-query.js';
import { compileList, scattered, type PgListDef } from '../../../src/store/postgres/list-query.js';
import { PG_CUSTOMER_LIST_DEF } from '../../../src/store/postgres/people.js';
import { ensureTrigramIndexes } from '../../../src/store/postgres/trigram.js';
import { CONFERENCE_LIST_DEF } from '../../../src/store/rows/conferences.js';
import { SQLITE_CUSTOMER_LIST_DEF } from '../../../src/store/sqlite/repos/customers.js';
import { SQLITE_USER_LIST_DEF } from '../../../src/store/sqlite/repos/users.js';
import { f, q } from '../contract/fixtures.js';
import { migratedDatabase } from './databases.js';
import { fillPostgres, fillSqlite } from './list-fixture.js';

/**
 * The compiler against the real schema, in an en-US database: ICU's order there puts 'é' between
 * 'e' and 'f' and ignores punctuation at first, so any comparison left to the locale shows.
 * The list definitions are the SQLite store's own.
 */
let env: Awaited<ReturnType<typeof migratedDatabase>>;
let client: pg.Client;
beforeAll(async () => {
  env = await migratedDatabase('en-US');
  client = env.client;
  await fillPostgres(client);
});
afterAll(() => env.close());

/** Pages that a walk in id order answered (`PgCompiledList.walk`), each checked against the page found among all the matches. */
let walked = 0;

/**
 * A page and its total; with `total` (the count's answer) the page is compiled knowing it, as the
 * store does, and a walk that finds the whole page must find the page read among all the matches.
 */
async function list(def: PgListDef, query: ListQuery, tenant = 1, total?: number): Promise<{ ids: number[]; total: number }> {
  const c = compileList(def, tenant, query, total);
  const [page, count] = [await client.query<{ id: string }>(c.page), await client.query<{ n: string }>(c.count)];
  const ids = page.rows.map((r) => Number(r.id));
  if (c.walk) {
    const walk = await client.query<{ id: string }>(c.walk.page);
    if (walk.rows.length === c.walk.rows) {
      walked++;
      expect({ query, walk: walk.rows.map((r) => Number(r.id)) }).toEqual({ query, walk: ids });
    }
  }
  return { ids, total: Number(count.rows[0].n) };
}
const ids = async (def: PgListDef, query: ListQuery) => (await list(def, query)).ids;
const users = (filter: ListFilter, over: Partial<ListQuery> = {}) => ids(SQLITE_USER_LIST_DEF, q({ filter, ...over }));

describe('PostgreSQL list compiler', () => {
  it('binds the tenant first, then the filter, then the limit and offset: never user text in SQL', () => {
    const evil = "x' OR 1=1 --";
    for (const operator of ['Equal', 'NotEqual', 'Contains', 'GreaterThan', 'LessThanOrEqual'] as const) {
      const c = compileList(SQLITE_USER_LIST_DEF, 7, q({ filter: f('email', 'text', operator, evil), page_size: 10, page_number: 3 }));
      expect(c.page.text).not.toContain(evil);
      expect(c.count.text).not.toContain(evil);
      const value = operator === 'Contains' ? `%${evil}%` : evil;
      expect(c.count.values).toEqual([7, value]);
      expect(c.page.values).toEqual([7, value, 10, 20]);
      expect(c.page.text).toMatch(/u\.tenant_id = \$1 .*\$2.* LIMIT \$3 OFFSET \$4\) ORDER BY [^$]*$/);
    }
    expect(() => compileList(SQLITE_USER_LIST_DEF, 1, q({ filter: f('secret_hash', 'text', 'Equal', 'x') }))).toThrow();
    expect(() => compileList(SQLITE_USER_LIST_DEF, 1, q({ order_by: 'u.id; DROP TABLE users' }))).toThrow();
  });

  it('compares text with ASCII case folded, other letters as they are', async () => {
    expect(await users(f('email', 'text', 'Equal', 'bob@A.EXAMPLE'))).toEqual([2]);
    expect(await users(f('last_name', 'text', 'Equal', 'ZED'))).toEqual([1, 9]);
    expect(await users(f('last_name', 'text', 'Equal', 'ZED'), { with_trashed: true })).toEqual([1, 8, 9]);
    expect(await users(f('last_name', 'text', 'Equal', 'éclair'))).toEqual([6]);
    expect(await users(f('department', 'text', 'Equal', 'ENGINEERING'))).toEqual([1, 4]);
  });

  it('orders text by code point after folding: é after z, _ before b, space before %', async () => {
    expect(await users(f('last_name', 'text', 'GreaterThan', 'young'))).toEqual([1, 5, 6, 9]);
    expect(await users(f('last_name', 'text', 'LessThanOrEqual', 'A_B'))).toEqual([3, 4, 10]);
    expect(await ids(SQLITE_USER_LIST_DEF, q({ order_by: 'last_name' }))).toEqual([4, 3, 10, 11, 7, 2, 1, 9, 5, 6]);
    expect(await ids(SQLITE_USER_LIST_DEF, q({ order_by: 'last_name', order_direction: 'desc' }))).toEqual([6, 5, 9, 1, 2, 7, 11, 10, 3, 4]);
  });

  it('matches Contains as a folded substring with %, _ and \\ literal, integers and dates by their text', async () => {
    expect(await users(f('last_name', 'text', 'Contains', '50%'))).toEqual([3]);
    expect(await users(f('email', 'text', 'Contains', 'I_X'))).toEqual([4]);
    expect(await users(f('last_name', 'text', 'Contains', '\\'))).toEqual([7]);
    expect(await users(f('first_name', 'text', 'Contains', 'AN'))).toEqual([1, 10]);
    expect(await users(f('department', 'text', 'Contains', 'é'), { with_trashed: true })).toEqual([]);
    expect(await users(f('department', 'text', 'Contains', 'É'))).toEqual([5]);
    expect(await users(f('id', 'integer', 'Contains', '1'))).toEqual([1, 10, 11]);
    expect(await users(f('created_at', 'date', 'Contains', 't10'))).toEqual([2, 6]);
    expect(await ids(PG_CUSTOMER_LIST_DEF, q({ filter: f('address', 'text', 'Contains', '50%') }))).toEqual([5]);
  });

  it('compares integers as numbers and dates as instants', async () => {
    expect(await users(f('status', 'integer', 'GreaterThanOrEqual', 2))).toEqual([3, 6, 9]);
    expect(await users(f('status', 'integer', 'LessThan', 1))).toEqual([2]);
    expect(await users(f('status', 'integer', 'LessThan', 2 ** 40))).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10, 11]);
    expect(await users(f('created_at', 'date', 'LessThanOrEqual', '2025-03-01T00:00:00Z'))).toEqual([1, 2, 3, 4, 5, 7, 9, 10, 11]);
    expect(await users(f('created_at', 'date', 'GreaterThan', '2025-03-01T00:00:00.000Z'))).toEqual([6]);
  });

  it('never matches NULL with NotEqual or an ordering operator; IsNull and NotNull find them', async () => {
    expect(await users(f('timezone', 'text', 'NotEqual', 'UTC'))).toEqual([1, 6, 9, 10, 11]);
    expect(await users(f('timezone', 'text', 'LessThan', 'zzz'))).toEqual([1, 3, 5, 6, 9, 10]);
    expect(await users(f('timezone', 'text', 'IsNull'))).toEqual([2, 4, 7]);
    expect(await users(f('timezone', 'text', 'NotNull'))).toEqual([1, 3, 5, 6, 9, 10, 11]);
    expect(await users(f('department', 'text', 'IsNull'))).toEqual([3, 6, 10, 11]);
    expect(await ids(PG_CUSTOMER_LIST_DEF, q({ filter: f('address', 'text', 'IsNull') }))).toEqual([2]);
  });

  it('compares booleans, stored or derived, as 1/0', async () => {
    const conferences = (filter: ListFilter, with_trashed = false) => ids(CONFERENCE_LIST_DEF, q({ filter, with_trashed }));
    expect(await conferences(f('is_public', 'boolean', 'Equal', 1))).toEqual([1]);
    expect(await conferences(f('is_public', 'boolean', 'Equal', 1), true)).toEqual([1, 3]);
    expect(await conferences(f('is_public', 'boolean', 'NotEqual', 1))).toEqual([2, 4]);
    expect(await conferences(f('is_public', 'boolean', 'Contains', 0))).toEqual([2, 4]);
    expect(await conferences(f('is_occurred', 'boolean', 'Equal', 1), true)).toEqual([2, 3]);
    expect(await conferences(f('is_occurred', 'boolean', 'LessThan', 1))).toEqual([1, 4]);
    expect(await ids(CONFERENCE_LIST_DEF, q({ order_by: 'is_occurred', order_direction: 'desc' }))).toEqual([2, 4, 1]);
  });

  it('sorts nulls first ascending and last descending, ties by id in the same direction', async () => {
    expect(await ids(SQLITE_USER_LIST_DEF, q({ order_by: 'timezone' }))).toEqual([2, 4, 7, 6, 1, 10, 3, 5, 9, 11]);
    expect(await ids(SQLITE_USER_LIST_DEF, q({ order_by: 'timezone', order_direction: 'desc' }))).toEqual([11, 9, 5, 3, 10, 1, 6, 7, 4, 2]);
    expect(await ids(SQLITE_USER_LIST_DEF, q({ order_by: 'deleted_at', with_trashed: true }))).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 8]);
    expect(await ids(SQLITE_USER_LIST_DEF, q({ order_by: 'deleted_at', order_direction: 'desc', with_trashed: true }))).toEqual([8, 11, 10, 9, 7, 6, 5, 4, 3, 2, 1]);
    expect(await ids(SQLITE_USER_LIST_DEF, q({ order_by: 'department', order_direction: 'desc' }))).toEqual([5, 9, 7, 2, 4, 1, 11, 10, 6, 3]);
    expect(await ids(PG_CUSTOMER_LIST_DEF, q({ order_by: 'address' }))).toEqual([2, 1, 5, 3]);
  });

  it('pages with limit and offset and counts the whole list', async () => {
    expect(await list(SQLITE_USER_LIST_DEF, q({ page_size: 3, page_number: 2 }))).toEqual({ ids: [4, 5, 6], total: 10 });
    expect(await list(SQLITE_USER_LIST_DEF, q({ page_size: 3, page_number: 4 }))).toEqual({ ids: [11], total: 10 });
    expect(await list(SQLITE_USER_LIST_DEF, q({ page_size: 3, page_number: 5 }))).toEqual({ ids: [], total: 10 });
    expect(await list(SQLITE_USER_LIST_DEF, q({ page_size: 2, order_by: 'last_name', order_direction: 'desc', page_number: 2 }))).toEqual({ ids: [9, 1], total: 10 });
    expect(await list(SQLITE_USER_LIST_DEF, q({ filter: f('department', 'text', 'Equal', 'sales'), page_size: 1 }))).toEqual({ ids: [2], total: 3 });
    expect(await list(SQLITE_USER_LIST_DEF, q({}), 2)).toEqual({ ids: [12], total: 1 });
  });

  it('filters a joined attribute by a semi-join on its key: neither the count nor the ids join; the total reads both tables', () => {
    const semi = compileList(SQLITE_USER_LIST_DEF, 1, q({ filter: f('department', 'text', 'Equal', 'x') }));
    const plain = compileList(SQLITE_USER_LIST_DEF, 1, q({ filter: f('email', 'text', 'Equal', 'x') }));
    expect(semi.count.text).not.toContain('JOIN');
    expect(semi.count.text).toContain(`u.department_id IN (SELECT id FROM departments WHERE tenant_id = $1 AND ${'lower((name) COLLATE "C")'} = lower(($2) COLLATE "C"))`);
    expect(semi.tables).toEqual(['users', 'departments']);
    expect(plain.count.text).not.toContain('JOIN');
    expect(plain.tables).toEqual(['users']);
    expect(plain.page.text).toContain('LEFT JOIN departments');
    expect(compileList(SQLITE_USER_LIST_DEF, 1, q({ filter: f('department', 'text', 'IsNull') })).count.text).toContain('u.department_id IS NULL');
  });

  it('matches Contains of 1 or 2 characters with strpos, which no trigram index serves, and longer values with LIKE', () => {
    expect(compileList(SQLITE_USER_LIST_DEF, 1, q({ filter: f('email', 'text', 'Contains', 'Q%') })).count.text).toContain('strpos(lower((u.email) COLLATE "C"), lower(($2) COLLATE "C")) > 0');
    expect(compileList(SQLITE_USER_LIST_DEF, 1, q({ filter: f('email', 'text', 'Contains', 'é%') })).count.values).toEqual([1, 'é%']);
    expect(compileList(SQLITE_USER_LIST_DEF, 1, q({ filter: f('email', 'text', 'Contains', 'q%_') })).count.values).toEqual([1, '%q\\%\\_%']);
  });

  it('finds an id-ordered page among all the matches of a date range or a short Contains, and walks id order otherwise', () => {
    const fenced = (query: ListQuery) => compileList(SQLITE_USER_LIST_DEF, 1, query).page.text.includes('OFFSET 0) AS matched ORDER BY id');
    expect(fenced(q({ filter: f('created_at', 'date', 'GreaterThan', '2025-01-01T00:00:00Z') }))).toBe(true);
    expect(fenced(q({ filter: f('email', 'text', 'Contains', 'q'), order_direction: 'desc' }))).toBe(true);
    expect(fenced(q({ filter: f('email', 'text', 'Contains', 'zq9') }))).toBe(false);
    expect(fenced(q({ filter: f('email', 'text', 'Equal', 'q') }))).toBe(false);
    expect(fenced(q({ filter: f('id', 'integer', 'GreaterThan', 5) }))).toBe(false);
    expect(fenced(q({ filter: f('created_at', 'date', 'GreaterThan', '2025-01-01T00:00:00Z'), order_by: 'email' }))).toBe(false);
  });

  it("writes exactly the schema's indexed expressions", async () => {
    const plan = async (query: ListQuery) => {
      const c = compileList(SQLITE_USER_LIST_DEF, 1, query);
      await client.query('BEGIN');
      try {
        await client.query('SET LOCAL enable_seqscan = off');
        await client.query('SET LOCAL enable_sort = off');
        const { rows } = await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${c.page.text}`, values: c.page.values });
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await client.query('ROLLBACK');
      }
    };
    expect(await plan(q({ filter: f('email', 'text', 'Equal', 'A@B') }))).toMatch(/Index (Only )?Scan using users_email/);
    expect(await plan(q({ order_by: 'last_name' }))).toMatch(/Index (Only )?Scan using users_last_name/);
    expect(await plan(q({ order_by: 'last_name', order_direction: 'desc' }))).toMatch(/Index (Only )?Scan Backward using users_last_name/);
    expect(await plan(q({ order_by: 'created_at', order_direction: 'desc' }))).toMatch(/Index (Only )?Scan Backward using users_created/);
    expect(await plan(q({ order_by: 'deleted_at', with_trashed: true }))).toMatch(/Index (Only )?Scan using users_deleted/);
    expect(await plan(q({ filter: f('department', 'text', 'Equal', 'Sales') }))).not.toMatch(/Seq Scan on users/);
  });
});

describe('PostgreSQL list compiler, beside the SQLite one', () => {
  // Every attribute, operator and probe value, and every order, on the same rows: same pages.
  // PostgreSQL reads them through its indexes, trigram ones included, wherever an index applies.
  let sqlite: Db;
  beforeAll(async () => {
    sqlite = openDatabase(':memory:');
    fillSqlite(sqlite);
    expect(await ensureTrigramIndexes(client)).toBe(true);
    await client.query('SET enable_seqscan = off');
  });
  afterAll(async () => {
    sqlite.close();
    await client.query('RESET enable_seqscan');
  });

  function listSqlite(def: typeof SQLITE_USER_LIST_DEF, query: ListQuery): { ids: number[]; total: number } {
    const c = compileSqlite(def, query, 'scan');
    const bind = (list: unknown[]) => [1, ...list.map((p) => (p === TENANT ? 1 : p))];
    const params = bind(c.params);
    const rows = sqlite.prepare(c.pageSql).all(...params, c.limit, c.offset) as { id: number }[];
    return { ids: rows.map((r) => r.id), total: (sqlite.prepare(c.countSql).get(...bind(c.countParams ?? c.params)) as { n: number }).n };
  }

  /** Values found in the column, variants of them, and values made to catch a wrong rule. */
  function probes(def: typeof SQLITE_USER_LIST_DEF, attribute: string, contains: boolean): (string | number)[] {
    const col = def.columns[attribute];
    const found = (sqlite.prepare(`SELECT DISTINCT ${col.sql} AS v FROM ${def.from} ${def.joins ?? ''}`).all() as { v: string | number | null }[])
      .map((r) => r.v)
      .filter((v) => v !== null);
    if (col.type === 'boolean') return [0, 1];
    if (col.type === 'integer') return contains ? [...found.map(String), '1', '0', '-'] : [...found, -1, 0, 5, 2 ** 40];
    if (col.type === 'date') {
      const texts = found.map(String);
      return contains ? ['t10', ':10.', '2025-0', 'Z', ...texts.map((t) => t.slice(5, 10))] : [...texts, '2025-03-01T00:00:00.000Z'];
    }
    const texts = found.map(String);
    const parts = contains ? texts.map((t) => t.slice(1, 3)) : [];
    return [...texts, ...texts.map((t) => t.toUpperCase()), ...parts, '%', '_', '\\', 'a', 'A', 'É', 'é', 'z', '', ' ', '50%', 'a_b', 'i_x', 'zzz'];
  }

  for (const [name, def, pgDef] of [
    ['users', SQLITE_USER_LIST_DEF, SQLITE_USER_LIST_DEF],
    ['customers', SQLITE_CUSTOMER_LIST_DEF, PG_CUSTOMER_LIST_DEF],
    ['conferences', CONFERENCE_LIST_DEF, CONFERENCE_LIST_DEF],
  ] as const) {
    it(`gives the same pages and totals for ${name}`, async () => {
      walked = 0;
      for (const [attribute, col] of Object.entries(def.columns)) {
        for (const operator of OPERATORS) {
          const values = operator === 'IsNull' || operator === 'NotNull' ? [null] : probes(def, attribute, operator === 'Contains');
          for (const [at, value] of values.entries()) {
            const query = q({ filter: f(attribute, col.type, operator, value), with_trashed: true });
            const expected = listSqlite(def, query);
            expect({ query, ...(await list(pgDef, query)) }).toEqual({ query, ...expected });
            // Its first and last pages of 2 (the last read from the end) and the page after it: for
            // every other value of a filter a page may be walked for (a short Contains, a date
            // range), and every tenth of the others (reading from the end does not depend on the filter).
            if (at % (query.filter && scattered(query.filter) ? 2 : 10) !== 0) continue;
            const last = Math.max(1, Math.ceil(expected.total / 2));
            for (const page_number of [1, last, last + 1]) {
              const page = { ...query, page_size: 2, page_number };
              expect({ page, ...(await list(pgDef, page, 1, expected.total)) }).toEqual({ page, ...listSqlite(def, page) });
            }
          }
        }
        for (const order_direction of ['asc', 'desc'] as const) {
          for (const with_trashed of [false, true]) {
            const query = q({ order_by: attribute, order_direction, with_trashed });
            const expected = listSqlite(def, query);
            expect({ query, ...(await list(pgDef, query)) }).toEqual({ query, ...expected });
            // Every page of 3 and the one after the last, those past the middle read from the end.
            for (let page_number = 1; page_number <= Math.ceil(expected.total / 3) + 1; page_number++) {
              const page = { ...query, page_size: 3, page_number };
              expect({ page, ...(await list(pgDef, page, 1, expected.total)) }).toEqual({ page, ...listSqlite(def, page) });
            }
          }
        }
      }
      if (name !== 'conferences') expect(walked).toBeGreaterThan(0);
      // Thousands of statements on each store: a loaded machine may take longer than the default.
    }, 60_000);
  }
});
