import { afterAll, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/contract/index.js';
import { changeSignal, openDatabase } from '../../src/store/sqlite/db.js';
import { compileList, ListMode, ListRunner, TENANT } from '../../src/store/sqlite/list-query.js';
import { SQLITE_CUSTOMER_LIST_DEF } from '../../src/store/sqlite/repos/customers.js';
import { SQLITE_USER_LIST_DEF } from '../../src/store/sqlite/repos/users.js';
import { f, q } from './contract/fixtures.js';
import { SPAN_RANGES, spanProbes, spanRows, type SpanRange } from './span-fixture.js';

/**
 * A date range's id-ordered page of a large tenant is looked for first within the matches' id
 * span, which the count answers from the same scan (list-query.ts, `windowSql`): every match lies
 * in the span, so the rows, order and total are those of the plain query, whether the stamps
 * follow the ids or not (a shuffled tenant, imported and updated rows), with another tenant's rows
 * interleaved, in both directions, with trashed rows, on pages past the first.
 */
describe('date ranges within the id span of their matches', () => {
  const db = openDatabase(':memory:');
  afterAll(() => db.close());
  const { tenants, users, customers } = spanRows();
  db.transaction(() => {
    for (const id of Object.values(tenants)) db.prepare(`INSERT INTO tenants (id, created_at) VALUES (?, '2020-01-01T00:00:00.000Z')`).run(id);
    const insert = (table: string) =>
      db.prepare(`INSERT INTO ${table} (id, tenant_id, first_name, last_name, email, created_at, updated_at, deleted_at) VALUES (?, ?, 'F', 'L', ?, ?, ?, ?)`);
    for (const [table, rows] of [['users', users], ['customers', customers]] as const) {
      const stmt = insert(table);
      for (const r of rows) stmt.run(r.id, r.tenant_id, `${table}${r.id}@x.example`, r.created_at, r.updated_at, r.deleted_at);
    }
  })();
  db.exec('ANALYZE');

  const ids = (rows: unknown[]) => (rows as { id: number }[]).map((r) => r.id);

  /** The matching ids of the plain query, in id order. */
  const matching = (table: string, tenant: number, attribute: string, operator: SpanRange, value: string, trashed: boolean) =>
    db
      .prepare(`SELECT id FROM ${table} WHERE tenant_id = ? ${trashed ? '' : 'AND deleted_at IS NULL'} AND ${attribute} ${SPAN_RANGES[operator]} ? ORDER BY id`)
      .pluck()
      .all(tenant, value) as number[];

  for (const [table, def, rows] of [
    ['users', SQLITE_USER_LIST_DEF, users],
    ['customers', SQLITE_CUSTOMER_LIST_DEF, customers],
  ] as const) {
    it(`answers the plain query's rows, order and total for ${table}`, () => {
      const runner = new ListRunner(db, def);
      for (const tenant of Object.values(tenants)) {
        expect(runner.tenantAccess(tenant)).toBe('scan');
        for (const attribute of ['created_at', 'updated_at'] as const) {
          for (const value of spanProbes(rows, tenant, attribute)) {
            for (const operator of Object.keys(SPAN_RANGES) as SpanRange[]) {
              for (const with_trashed of [false, true]) {
                const all = matching(table, tenant, attribute, operator, value, with_trashed);
                for (const order_direction of ['asc', 'desc'] as const) {
                  const expected = order_direction === 'asc' ? all : [...all].reverse();
                  const last = Math.max(1, Math.ceil(all.length / 15));
                  for (const page_number of [1, 2, Math.ceil(last / 2), last]) {
                    const query = q({ filter: f(attribute, 'date', operator, value), with_trashed, order_direction, page_size: 15, page_number });
                    const got = runner.run(tenant, query);
                    expect({ query, total: got.total, ids: ids(got.rows) }).toEqual({ query, total: all.length, ids: expected.slice((page_number - 1) * 15, page_number * 15) });
                  }
                }
              }
            }
          }
        }
      }
      // Over a thousand lists and plain queries: a loaded machine may take longer than the default.
    }, 60_000);

    it(`answers them too for ${table} when a read worker counted the total (no span known: every id)`, () => {
      const mode = new ListMode();
      const runner = new ListRunner(db, def, mode);
      const token = changeSignal(db);
      for (const tenant of Object.values(tenants)) {
        for (const value of spanProbes(rows, tenant, 'created_at')) {
          for (const order_direction of ['asc', 'desc'] as const) {
            const all = matching(table, tenant, 'created_at', 'GreaterThan', value, false);
            const query = q({ filter: f('created_at', 'date', 'GreaterThan', value), order_direction, page_size: 15, page_number: 2 });
            mode.adoptTotal(all.length, token(), (t, query) => runner.run(t, query), tenant, query);
            const got = runner.run(tenant, query);
            const expected = order_direction === 'asc' ? all : [...all].reverse();
            expect({ query, total: got.total, ids: ids(got.rows) }).toEqual({ query, total: all.length, ids: expected.slice(15, 30) });
          }
        }
      }
    });
  }

  it("finds a late range's first page in the window from the first match on, where the tenant's first rows hold none of it", () => {
    const tenant = tenants.interleaved;
    const value = spanProbes(users, tenant, 'created_at')[2];
    const all = matching('users', tenant, 'created_at', 'GreaterThan', value, false);
    for (const [order_direction, end, expected] of [
      ['asc', 'lo', all],
      ['desc', 'hi', [...all].reverse()],
    ] as const) {
      const query = q({ filter: f('created_at', 'date', 'GreaterThan', value), page_size: 15, order_direction });
      const c = compileList(SQLITE_USER_LIST_DEF, query);
      const params = [tenant, ...c.params];
      const countParams = [tenant, ...(c.countParams ?? c.params).map((p) => (p === TENANT ? tenant : p))];
      expect(c.span?.end).toBe(end);
      expect(db.prepare(c.span!.sql).get(...countParams)).toMatchObject({ n: all.length, [end]: expected[0] });
      const window = (start: number) => ids(db.prepare(c.windowSql!).all(...params, c.limit, c.offset, { start }));
      expect(window(expected[0])).toEqual(expected.slice(0, 15));
      // from the tenant's first row in the order, the window (WINDOW_ROWS, 5,000 rows) holds none of the matches ascending
      expect(window(c.span!.unbounded)).toEqual(order_direction === 'asc' ? [] : expected.slice(0, 15));
    }
  });

  it("counts a late range with its first match's id and walks from there; an early range's window answers before a plain count", () => {
    const tenant = tenants.interleaved;
    const [early, , late] = spanProbes(users, tenant, 'created_at');
    const prepared: string[] = [];
    const spy = Object.create(db) as typeof db;
    spy.prepare = (sql: string) => (prepared.push(sql), db.prepare(sql));
    const runner = new ListRunner(spy, SQLITE_USER_LIST_DEF);
    const listed = (operator: 'GreaterThan' | 'LessThan', value: string, order_direction: 'asc' | 'desc') => {
      const query = q({ filter: f('created_at', 'date', operator, value), page_size: 15, order_direction });
      const c = compileList(SQLITE_USER_LIST_DEF, query);
      prepared.length = 0;
      const got = runner.run(tenant, query);
      const all = matching('users', tenant, 'created_at', operator, value, false);
      expect({ total: got.total, ids: ids(got.rows) }).toEqual({ total: all.length, ids: (order_direction === 'asc' ? all : [...all].reverse()).slice(0, 15) });
      return { span: prepared.includes(c.span!.sql), count: prepared.includes(c.countSql), sorted: prepared.includes(c.pageSql) };
    };
    expect(listed('GreaterThan', late, 'asc')).toEqual({ span: true, count: false, sorted: false });
    expect(listed('LessThan', early, 'asc')).toEqual({ span: false, count: true, sorted: false });
    expect(listed('GreaterThan', early, 'desc')).toEqual({ span: false, count: true, sorted: false });
    // the same total descending: counted, without the greatest id, the window walks from the tenant's last row, where the matches are
    expect(listed('GreaterThan', late, 'desc')).toEqual({ span: false, count: false, sorted: false });
    // counted already (the statements prepared), the window walks from the first match at once
    expect(listed('GreaterThan', late, 'asc')).toEqual({ span: false, count: false, sorted: false });
  });

  it('counts from the counters and, in the stamp index, the straddling rows or (the fallback) every match, and walks the window by id in the tenant index', () => {
    const runner = new ListRunner(db, SQLITE_USER_LIST_DEF);
    const customers = new ListRunner(db, SQLITE_CUSTOMER_LIST_DEF);
    const range = (over: Partial<ListQuery> = {}) => q({ filter: f('created_at', 'date', 'GreaterThan', '2024-01-01T00:00:00.000Z'), page_size: 15, ...over });
    const plan = (r: ListRunner<unknown>, query: ListQuery) => {
      const p = r.explain(tenants.interleaved, query);
      return { count: p.count, span: p.span ?? [], window: (p.window ?? []).join(' | ') };
    };
    const counters = 'SEARCH list_counts USING INDEX sqlite_autoindex_list_counts_1 (tenant_id=? AND list=?)';
    const users = plan(runner, range());
    for (const steps of [users.count, users.span]) {
      // The straddling rows between the instant and their farthest bound, or every match; never a scan of the table.
      expect(steps).toEqual(expect.arrayContaining([counters, 'SEARCH u USING COVERING INDEX users_created_at_count (created_at>? AND created_at<?)', 'SEARCH u USING COVERING INDEX users_created_at_count (created_at>?)']));
      expect(steps.filter((s) => /^SCAN (u|list_counts)\b/.test(s))).toEqual([]);
    }
    // The first id of the first bucket wholly after the instant, and the last of the last, from the tenant index.
    expect(users.span).toEqual(expect.arrayContaining(['SEARCH u USING COVERING INDEX users_tenant (tenant_id=? AND deleted_at=? AND rowid>?)', 'SEARCH u USING COVERING INDEX users_tenant (tenant_id=? AND deleted_at=? AND rowid<?)']));
    expect(users.window).toMatch(/^CO-ROUTINE page \| SEARCH u USING COVERING INDEX users_tenant \(tenant_id=\? AND deleted_at=\? AND rowid>\?\) \| SCAN page \| SEARCH u USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(plan(runner, range({ order_direction: 'desc', with_trashed: true })).window).toMatch(/SEARCH u USING COVERING INDEX users_tenant_ids \(tenant_id=\? AND rowid<\?\)/);
    const updated = plan(customers, range({ filter: f('updated_at', 'date', 'LessThan', '2024-01-01T00:00:00.000Z') }));
    expect(updated.count).toEqual(expect.arrayContaining([counters, 'SEARCH c USING COVERING INDEX customers_updated_at_count (updated_at>? AND updated_at<?)', 'SEARCH c USING COVERING INDEX customers_updated_at_count (updated_at<?)']));
    expect(updated.window).toMatch(/SEARCH c USING COVERING INDEX customers_tenant \(tenant_id=\? AND deleted_at=\? AND rowid>\?\)/);
    // no window, so no span, for anything else: an Equal, another order, a small tenant
    expect(compileList(SQLITE_USER_LIST_DEF, range({ filter: f('created_at', 'date', 'Equal', '2024-01-01T00:00:00.000Z') })).span).toBeUndefined();
    expect(compileList(SQLITE_USER_LIST_DEF, range({ order_by: 'created_at' })).span).toBeUndefined();
    expect(compileList(SQLITE_USER_LIST_DEF, range(), 'index').span).toBeUndefined();
  });
});
