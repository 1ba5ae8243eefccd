import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/contract/index.js';
import { seedBulk } from '../../src/admin/seed/index.js';
import { compileList, ListRunner, type ListDef } from '../../src/store/sqlite/list-query.js';
import { CONFERENCE_LIST_DEF } from '../../src/store/sqlite/repos/conferences.js';
import { CUSTOMER_LIST_DEF } from '../../src/store/sqlite/repos/customers.js';
import { USER_LIST_DEF } from '../../src/store/sqlite/repos/users.js';
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
    const users = new ListRunner(db, USER_LIST_DEF);
    for (const tenant of [big, small]) {
      const { page } = users.explain(tenant, q({ page_size: 10, page_number: 3 }));
      expect(page.join(' | ')).toMatch(/SEARCH u USING COVERING INDEX users_tenant \(tenant_id=\? AND deleted_at=\?\)/);
      expect(page.join(' | ')).toMatch(/SEARCH u USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    }
    const customers = new ListRunner(db, CUSTOMER_LIST_DEF);
    expect(customers.explain(big, q({ page_number: 5, order_direction: 'desc' })).page.join(' | ')).toMatch(/COVERING INDEX customers_tenant/);
  });

  it('keeps the plain query for page 1, trashed rows, other filters and other orders', () => {
    for (const query of [
      q({ page_size: 10 }),
      q({ page_number: 3, with_trashed: true }),
      q({ page_number: 3, filter: f('status', 'integer', 'NotEqual', 0) }),
      q({ page_number: 3, filter: f('last_name', 'text', 'Contains', 'son') }),
      q({ page_number: 3, order_by: 'last_name' }),
    ]) {
      expect(compileList(USER_LIST_DEF, query).pageSql).not.toContain('page_id');
    }
  });

  it("an Equal filter of a large tenant skips ids through its column's count index, with the same rows as the plain query", () => {
    const users = new ListRunner(db, USER_LIST_DEF);
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
    const customers = new ListRunner(db, CUSTOMER_LIST_DEF);
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
    const users = new ListRunner(db, USER_LIST_DEF);
    const customers = new ListRunner(db, CUSTOMER_LIST_DEF);
    for (const tenant of [big, small]) {
      for (const query of [
        q({ page_size: 100, page_number: 17 }),
        q({ page_size: 7, page_number: 5, order_direction: 'desc' }),
        q({ page_size: 100, page_number: 29 }),
        q({ page_size: 15, page_number: 1000 }),
      ]) {
        const got = users.run(tenant, query).rows;
        expect(got).toEqual(plain(USER_LIST_DEF, tenant, query));
        expect(customers.run(tenant, query).rows).toEqual(plain(CUSTOMER_LIST_DEF, tenant, query));
        if (query.page_number < 1000 && tenant === big) expect(got.length).toBeGreaterThan(0);
      }
    }
    // Walking every page of 100 visits each live user once, in id order.
    const all: number[] = [];
    const total = users.run(big, q()).total;
    for (let p = 1; p <= Math.ceil(total / 100); p++) all.push(...ids(users.run(big, q({ page_number: p })).rows));
    expect(all).toEqual(ids(db.prepare('SELECT id FROM users WHERE tenant_id = ? AND deleted_at IS NULL ORDER BY id').all(big)));
  });

  it('compiles conference pages too, with their unqualified columns', () => {
    const conferences = new ListRunner(db, CONFERENCE_LIST_DEF);
    expect(conferences.explain(big, q({ page_number: 2, page_size: 5 })).page.join(' | ')).toMatch(/COVERING INDEX conferences_tenant/);
    expect(compileList(CONFERENCE_LIST_DEF, q({ page_number: 2 })).pageSql).toContain('CROSS JOIN conferences ON id = page.page_id');
  });
});
