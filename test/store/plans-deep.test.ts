import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/contract/index.js';
import { seedBulk } from '../../src/admin/seed/index.js';
import { compileList, ListRunner } from '../../src/store/sqlite/list-query.js';
import type { ListDef } from '../../src/store/rows/list-def.js';
import { CONFERENCE_LIST_DEF } from '../../src/store/rows/conferences.js';
import { SQLITE_CUSTOMER_LIST_DEF } from '../../src/store/sqlite/repos/customers.js';
import { SQLITE_USER_LIST_DEF } from '../../src/store/sqlite/repos/users.js';
import { f, q } from './contract/fixtures.js';
import { openStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

/**
 * Deep pages of a tenant's live rows in id order (what `--all` walks) skip ids through the
 * covering tenant index (for a large tenant's Equal filter, the column's count index), then join
 * only the page's rows (a deferred join); every other page keeps its plain OFFSET query. Results
 * equal the plain query's for big and small tenants.
 */
describe('deep pages through a deferred join', () => {
  const dir = mkdtempSync(join(tmpdir(), 'confctl-plans-deep-'));
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const file = join(dir, 'db.sqlite');
  const store = openStore(file);
  const big = store.tenants.create('big.test').id;
  for (const n of ['Engineering', 'Sales', 'Support']) store.departments.create(big, n);
  atOnce(seedBulk(store, big, { users: 3_000, customers: 3_000 }));
  const small = store.tenants.create('small.test').id;
  store.departments.create(small, 'Engineering');
  atOnce(seedBulk(store, small, { users: 40, customers: 40 }));
  // More rows than a date range's first window (WINDOW_ROWS, 5,000): a late range's page lies beyond it.
  const wide = store.tenants.create('wide.test').id;
  atOnce(seedBulk(store, wide, { users: 6_000, customers: 0 }));
  store.optimize();
  store.close();
  const db = new Database(file);

  /** The page as the plain `LIMIT ? OFFSET ?` query answers it (the SQL of page 1 at the same offset). */
  const plain = (def: ListDef, tenant: number, query: ListQuery) => {
    const runner = new ListRunner(db, def);
    const c = compileList(def, { ...query, page_number: 1 }, runner.tenantAccess(tenant));
    const offset = (query.page_number - 1) * query.page_size;
    return db.prepare(c.pageSql).all(tenant, ...c.params, c.limit, offset);
  };
  const ids = (rows: unknown[]) => (rows as { id: number }[]).map((r) => r.id);

  it('walks the covering tenant index for the ids and looks up only the page rows', () => {
    const users = new ListRunner(db, SQLITE_USER_LIST_DEF);
    for (const tenant of [big, small]) {
      const { page } = users.explain(tenant, q({ page_size: 10, page_number: 3 }));
      expect(page.join(' | ')).toMatch(/SEARCH u USING COVERING INDEX users_tenant \(tenant_id=\? AND deleted_at=\?\)/);
      expect(page.join(' | ')).toMatch(/SEARCH u USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    }
    const customers = new ListRunner(db, SQLITE_CUSTOMER_LIST_DEF);
    expect(customers.explain(big, q({ page_number: 5, order_direction: 'desc' })).page.join(' | ')).toMatch(/COVERING INDEX customers_tenant/);
    // with trashed rows: the index of all the tenant's rows, in id order (migration 13)
    for (const tenant of [big, small]) {
      const { page } = users.explain(tenant, q({ page_size: 10, page_number: 3, with_trashed: true }));
      expect(page.join(' | ')).toMatch(/SEARCH u USING COVERING INDEX users_tenant_ids \(tenant_id=\?\)/);
      expect(page.join(' | ')).not.toMatch(/TEMP B-TREE FOR ORDER BY \| SEARCH u USING INTEGER/);
    }
  });

  it('keeps the plain query for page 1, other filters and other orders', () => {
    for (const query of [
      q({ page_size: 10 }),
      q({ page_size: 10, with_trashed: true }),
      q({ page_number: 3, filter: f('status', 'integer', 'NotEqual', 0) }),
      q({ page_number: 3, filter: f('last_name', 'text', 'Contains', 'son') }),
      q({ page_number: 3, order_by: 'last_name', filter: f('status', 'integer', 'NotEqual', 0) }),
    ]) {
      expect(compileList(SQLITE_USER_LIST_DEF, query).pageSql).not.toContain('page_id');
    }
  });

  it("skips a large tenant's unfiltered page in another order through the order's count index, a small tenant's not", () => {
    const query = q({ page_number: 1000, order_by: 'last_name', order_direction: 'desc' });
    expect(compileList(SQLITE_USER_LIST_DEF, query, 'scan').pageSql).toContain('page_id FROM users u INDEXED BY users_last_name_count WHERE');
    expect(compileList(SQLITE_USER_LIST_DEF, query, 'index').pageSql).not.toContain('page_id');
    expect(compileList(SQLITE_USER_LIST_DEF, { ...query, order_by: 'department' }, 'scan').pageSql).not.toContain('page_id');
  });

  it("an Equal filter of a large tenant skips ids through its column's count index, with the same rows as the plain query", () => {
    const users = new ListRunner(db, SQLITE_USER_LIST_DEF);
    const status0 = (over: Partial<ListQuery>) => q({ filter: f('status', 'integer', 'Equal', 0), ...over });
    expect(users.explain(big, status0({ page_size: 10, page_number: 3 })).page.join(' | ')).toMatch(
      /SEARCH u USING COVERING INDEX users_status_count \(status=\? AND tenant_id=\? AND deleted_at=\?\)/,
    );
    const expected = ids(db.prepare('SELECT id FROM users WHERE tenant_id = ? AND deleted_at IS NULL AND status = 0 ORDER BY id').all(big));
    expect(expected.length).toBeGreaterThan(100);
    for (const [size, direction] of [[15, 'asc'], [7, 'desc']] as const) {
      const walked: number[] = [];
      for (let p = 1; p <= Math.ceil(expected.length / size) + 1; p++) walked.push(...ids(users.run(big, status0({ page_size: size, page_number: p, order_direction: direction })).rows));
      expect(walked).toEqual(direction === 'asc' ? expected : [...expected].reverse());
    }
  });

  it('a text Equal of a large tenant through its count index folds ASCII case and leaves out deleted rows, as the plain query does', () => {
    // Every 7th of the big tenant's customers named in one of three cases, one of them deleted.
    const rename = db.prepare('UPDATE customers SET last_name = ? WHERE id = ?');
    const all = ids(db.prepare('SELECT id FROM customers WHERE tenant_id = ? ORDER BY id').all(big));
    const named = all.filter((_, i) => i % 7 === 0);
    named.forEach((id, i) => rename.run(['McTest', 'MCTEST', 'mctest'][i % 3], id));
    db.prepare("UPDATE customers SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = ?").run(named[4]);
    const customers = new ListRunner(db, SQLITE_CUSTOMER_LIST_DEF);
    const mctest = (over: Partial<ListQuery>) => q({ filter: f('last_name', 'text', 'Equal', 'mcTEST'), ...over });
    expect(customers.explain(big, mctest({ page_number: 2 })).page.join(' | ')).toMatch(/COVERING INDEX customers_last_name_count/);
    const expected = ids(db.prepare("SELECT id FROM customers WHERE tenant_id = ? AND deleted_at IS NULL AND last_name = 'mctest' COLLATE NOCASE ORDER BY id").all(big));
    expect(expected.length).toBeGreaterThan(named.length * 0.9);
    expect(expected).not.toContain(named[4]);
    for (const [size, direction] of [[9, 'asc'], [4, 'desc']] as const) {
      const walked: number[] = [];
      for (let p = 1; p <= Math.ceil(expected.length / size) + 1; p++) walked.push(...ids(customers.run(big, mctest({ page_size: size, page_number: p, order_direction: direction })).rows));
      expect(walked).toEqual(direction === 'asc' ? expected : [...expected].reverse());
      expect(customers.run(big, mctest({ page_size: size })).total).toBe(expected.length);
    }
  });

  it('answers the same rows, in the same order, as the plain OFFSET query', () => {
    const users = new ListRunner(db, SQLITE_USER_LIST_DEF);
    const customers = new ListRunner(db, SQLITE_CUSTOMER_LIST_DEF);
    for (const tenant of [big, small]) {
      for (const query of [
        q({ page_size: 100, page_number: 17 }),
        q({ page_size: 7, page_number: 5, order_direction: 'desc' }),
        q({ page_size: 100, page_number: 29 }),
        q({ page_size: 15, page_number: 1000 }),
        // past the middle, walked from the end: the last page, partial, and with trashed rows
        q({ page_size: 15, page_number: 190 }),
        q({ page_size: 100, page_number: 29, with_trashed: true }),
        q({ page_size: 7, page_number: 300, order_direction: 'desc', with_trashed: true }),
        q({ page_size: 7, page_number: 4, with_trashed: true }),
      ]) {
        const got = users.run(tenant, query).rows;
        expect(got).toEqual(plain(SQLITE_USER_LIST_DEF, tenant, query));
        expect(customers.run(tenant, query).rows).toEqual(plain(SQLITE_CUSTOMER_LIST_DEF, tenant, query));
        if (query.page_number < 1000 && tenant === big) expect(got.length).toBeGreaterThan(0);
      }
    }
    // Walking every page of 100 visits each live user once, in id order.
    const all: number[] = [];
    const total = users.run(big, q()).total;
    for (let p = 1; p <= Math.ceil(total / 100); p++) all.push(...ids(users.run(big, q({ page_number: p })).rows));
    expect(all).toEqual(ids(db.prepare('SELECT id FROM users WHERE tenant_id = ? AND deleted_at IS NULL ORDER BY id').all(big)));
    // Each page by its number alone (a fresh runner: no continuation), with trashed rows, backwards.
    const everyone = ids(db.prepare('SELECT id FROM customers WHERE tenant_id = ? ORDER BY id DESC').all(big));
    const pages: number[] = [];
    for (let p = 1; p <= Math.ceil(everyone.length / 100); p++) {
      pages.push(...ids(new ListRunner(db, SQLITE_CUSTOMER_LIST_DEF).run(big, q({ page_number: p, with_trashed: true, order_direction: 'desc' })).rows));
    }
    expect(pages).toEqual(everyone);
  });

  it("a large tenant's date range in id order, against the range, picks its page among the matching ids: the rows of the plain query", () => {
    const users = new ListRunner(db, SQLITE_USER_LIST_DEF);
    const stamps = db.prepare('SELECT created_at FROM users WHERE tenant_id = ? ORDER BY id').pluck().all(big) as string[];
    const [early, late] = [stamps[300], stamps[2700]];
    const range = (operator: 'GreaterThan' | 'LessThanOrEqual', value: string, over: Partial<ListQuery> = {}) => q({ filter: f('created_at', 'date', operator, value), ...over });
    // the page among all the matching ids, through the count index, sorted; first, the tenant's first rows in the order
    expect(users.explain(big, range('GreaterThan', early)).page.join(' | ')).toMatch(/^CO-ROUTINE page \| SEARCH u USING COVERING INDEX users_created_at_count \(created_at>\?\) \| USE TEMP B-TREE FOR ORDER BY/);
    expect(users.explain(big, range('LessThanOrEqual', late, { order_direction: 'desc' })).page.join(' | ')).toMatch(/USING COVERING INDEX users_created_at_count \(created_at<\?\)/);
    expect(compileList(SQLITE_USER_LIST_DEF, range('GreaterThan', early)).windowSql).toContain('INDEXED BY users_tenant WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND u.id >= @start ORDER BY u.id ASC LIMIT 5000)');
    expect(compileList(SQLITE_USER_LIST_DEF, range('GreaterThan', early), 'index').windowSql).toBeUndefined();
    const reference = db.prepare('SELECT id FROM users WHERE tenant_id = ? AND deleted_at IS NULL AND (created_at > ? OR ? = 0) AND (created_at <= ? OR ? = 0) ORDER BY id');
    // Beyond the window: the first page of the late rows (not among the tenant's first 5,000), a page across the window's end, the last page, both directions.
    const wideStamps = db.prepare('SELECT created_at FROM users WHERE tenant_id = ? AND deleted_at IS NULL ORDER BY id').pluck().all(wide) as string[];
    for (const [operator, value] of [['GreaterThan', wideStamps[5_500]], ['LessThanOrEqual', wideStamps[300]], ['LessThanOrEqual', wideStamps[5_500]]] as const) {
      const gt = operator === 'GreaterThan';
      const matching = ids(reference.all(wide, value, gt ? 1 : 0, value, gt ? 0 : 1));
      for (const order_direction of ['asc', 'desc'] as const) {
        const expected = order_direction === 'asc' ? matching : [...matching].reverse();
        // page 334 holds the window's last 5 rows and 10 beyond it
        for (const page_number of [1, 2, 334, Math.ceil(matching.length / 15)]) {
          const got = new ListRunner(db, SQLITE_USER_LIST_DEF).run(wide, range(operator, value, { page_size: 15, page_number, order_direction }));
          expect([got.total, ids(got.rows)]).toEqual([matching.length, expected.slice((page_number - 1) * 15, page_number * 15)]);
        }
      }
    }
    for (const [operator, value] of [['GreaterThan', early], ['GreaterThan', late], ['LessThanOrEqual', early], ['LessThanOrEqual', late]] as const) {
      const gt = operator === 'GreaterThan';
      const matching = ids(reference.all(big, value, gt ? 1 : 0, value, gt ? 0 : 1));
      for (const order_direction of ['asc', 'desc'] as const) {
        const expected = order_direction === 'asc' ? matching : [...matching].reverse();
        for (const [page_size, page_number] of [[15, 1], [100, 3], [7, 40]]) {
          const query = range(operator, value, { page_size, page_number, order_direction });
          const got = new ListRunner(db, SQLITE_USER_LIST_DEF).run(big, query);
          const page = expected.slice((page_number - 1) * page_size, page_number * page_size);
          expect(got.total).toBe(matching.length);
          expect(ids(got.rows)).toEqual(page);
          // the whole tenant fits in the window here: the page among all the matching ids, run alone
          const c = compileList(SQLITE_USER_LIST_DEF, query);
          expect(ids(db.prepare(c.pageSql).all(big, value, c.limit, c.offset))).toEqual(page);
        }
      }
    }
  });

  it('compiles conference pages too, with their unqualified columns', () => {
    const conferences = new ListRunner(db, CONFERENCE_LIST_DEF);
    expect(conferences.explain(big, q({ page_number: 2, page_size: 5 })).page.join(' | ')).toMatch(/COVERING INDEX conferences_tenant/);
    expect(compileList(CONFERENCE_LIST_DEF, q({ page_number: 2 })).pageSql).toContain('CROSS JOIN conferences ON id = page.page_id');
  });
});
