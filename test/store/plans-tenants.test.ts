import { describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/contract/index.js';
import { seedBulk } from '../../src/admin/seed/index.js';
import { compileList, ListRunner, SMALL_TENANT_ROWS, TENANT, type TenantAccess } from '../../src/store/sqlite/list-query.js';
import type { ListDef } from '../../src/store/rows/list-def.js';
import { SQLITE_CUSTOMER_LIST_DEF } from '../../src/store/sqlite/repos/customers.js';
import { SQLITE_USER_LIST_DEF } from '../../src/store/sqlite/repos/users.js';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { f, q } from './contract/fixtures.js';
import { openStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

/**
 * An unfiltered total's plan: the sum of the tenant's bucket counters (migration 16), whatever the
 * tenant's size; the planner may scan the counters' table when one tenant holds most of its rows.
 */
const COUNTER_PLAN = /^(SEARCH list_counts USING INDEX sqlite_autoindex_list_counts_1 \(tenant_id=\? AND list=\?\)|SCAN list_counts)$/;

/**
 * Plans for a big tenant beside a small one (ARCHITECTURE.md "Index trap"; measured with
 * test/store/tools/tenant-plans.ts at 100,000 users): the small tenant reads its rows through the
 * tenant index, the big tenant keeps the plans it had before that index existed (walk the order
 * index, stop after the page) except where an index holds exactly its rows in id order (its live
 * rows, unfiltered or an Equal filter: see `rangeIndex`), and a department filter uses the
 * department index.
 */

/**
 * A date range's count from the counters' stamp bounds (store/stamp-bounds.ts): the counters by their key, the straddling
 * rows in the stamp's count index between the instant and a bound, and the fallback's range of every match; no scan of the table.
 */
const boundedCount = (alias: string, index: string, column: string, op: '<' | '>') =>
  new RegExp(
    `^(?!.*SCAN ${alias} ).*SEARCH list_counts USING INDEX sqlite_autoindex_list_counts_1 \\(tenant_id=\\? AND list=\\?\\)` +
      `.* SEARCH ${alias} USING COVERING INDEX ${index} \\(${column}>\\? AND ${column}<\\?\\)` +
      `.* SEARCH ${alias} USING COVERING INDEX ${index} \\(${column}${op}\\?\\)`,
  );

describe('query plans with a big and a small tenant', () => {
  const dir = mkdtempSync(join(tmpdir(), 'confctl-plans-'));
  const file = join(dir, 'db.sqlite');
  const store = openStore(file);
  const big = store.tenants.create('big.test').id;
  for (const n of ['Engineering', 'Sales', 'Support', 'Finance', 'Legal', 'Marketing', 'Research', 'Operations']) store.departments.create(big, n);
  atOnce(seedBulk(store, big, { users: 12_000, customers: 12_000 }));
  const small = store.tenants.create('small.test').id;
  for (const n of ['Engineering', 'Sales']) store.departments.create(small, n);
  atOnce(seedBulk(store, small, { users: 50, customers: 50 }));
  store.optimize();
  store.close();
  const db = new Database(file);
  const users = new ListRunner(db, SQLITE_USER_LIST_DEF);
  const customers = new ListRunner(db, SQLITE_CUSTOMER_LIST_DEF);
  const text = (p: { page: string[]; count: string[] }) => ({ page: p.page.join(' | '), count: p.count.join(' | ') });
  const page15 = (over: Partial<ListQuery> = {}) => q({ page_size: 15, ...over });
  /** A query's total and page ids as compiled for `access`, run on the file's connection (no runner, no trigram path). */
  const run = (def: ListDef, tenant: number, query: ListQuery, access: TenantAccess) => {
    const c = compileList(def, query, access);
    const params = [tenant, ...c.params.map((p) => (p === TENANT ? tenant : p))];
    const n = (db.prepare(c.countSql).get(...params) as { n: number }).n;
    return { n, ids: (db.prepare(c.pageSql).all(...params, c.limit, c.offset) as { id: number }[]).map((r) => r.id) };
  };

  it('chooses the access by tenant size', () => {
    expect(users.tenantAccess(small)).toBe('index');
    expect(users.tenantAccess(big)).toBe('scan');
    expect(customers.tenantAccess(small)).toBe('index');
    expect(customers.tenantAccess(big)).toBe('scan');
  });

  it('the small tenant pages and counts through the tenant index, in id order without sorting', () => {
    for (const [runner, idx] of [[users, 'users_tenant'], [customers, 'customers_tenant']] as const) {
      const p = text(runner.explain(small, page15()));
      expect(p.page).toMatch(new RegExp(`^SEARCH [uc] USING INDEX ${idx} \\(tenant_id=\\? AND deleted_at=\\?\\)`));
      expect(p.page).not.toMatch(/TEMP B-TREE/);
      // unfiltered: the tenant's bucket counters (migration 16)
      expect(p.count).toMatch(COUNTER_PLAN);
      // any order and filter still reads only the tenant's rows
      const o = text(runner.explain(small, page15({ order_by: 'created_at', order_direction: 'desc', filter: f('email', 'text', 'Contains', 'ada') })));
      expect(o.page).toMatch(new RegExp(`^SEARCH [uc] USING INDEX ${idx} \\(tenant_id=\\?`));
      expect(o.count).toMatch(new RegExp(`^SEARCH [uc] USING INDEX ${idx} \\(tenant_id=\\?`));
      expect(text(runner.explain(small, page15({ with_trashed: true }))).page).toMatch(new RegExp(`USING INDEX ${idx}_ids \\(tenant_id=\\?\\)`));
    }
  });

  it('the indexes holding tenant_id are invisible to queries without the `tenant_id > 0` term (no skip-scan)', () => {
    const plans = [
      page15({ with_trashed: true, order_by: 'email', filter: f('status', 'integer', 'NotEqual', 1) }),
      page15({ order_by: 'last_name', filter: f('first_name', 'text', 'Contains', 'a') }),
      page15({ filter: f('status', 'integer', 'GreaterThan', 0) }),
    ]
      .map((query) => text(users.explain(big, query)).page)
      .join(' ');
    expect(plans).not.toMatch(/users_tenant|users_department_tenant|ANY\(/);
  });

  it("customers' attributes have one index each, on (attribute, id, tenant, deleted_at) (migration 15): it orders and counts, and pages in either order give the plain query's rows", () => {
    const lastName = (db.prepare('SELECT last_name FROM customers WHERE tenant_id = ? ORDER BY id LIMIT 1 OFFSET 500').pluck().get(big) as string).toUpperCase();
    const equal = page15({ filter: f('last_name', 'text', 'Equal', lastName), page_number: 3 });
    const plan = text(customers.explain(big, equal));
    // the Equal filter's ids in id order from the value's entries, its count from them alone
    expect(plan.page).toMatch(/^CO-ROUTINE page \| SEARCH c USING COVERING INDEX customers_last_name_count \(last_name=\?\) \|/);
    expect(plan.page).not.toMatch(/^CO-ROUTINE page \| [^|]+ \| USE TEMP B-TREE/);
    expect(plan.count).toBe('SEARCH c USING COVERING INDEX customers_last_name_count (last_name=?)');
    // the value's entries are every tenant's, live and trashed: not a range of exactly the tenant's rows
    expect(compileList(SQLITE_CUSTOMER_LIST_DEF, equal).range).toBe(false);
    expect(compileList(SQLITE_USER_LIST_DEF, page15({ filter: f('last_name', 'text', 'Equal', lastName) })).range).toBe(false);
    expect(compileList(SQLITE_USER_LIST_DEF, page15({ filter: f('status', 'integer', 'Equal', 0) })).range).toBe(true);
    const plain = (where: string, order: string, page: number) =>
      (db.prepare(`SELECT id FROM customers WHERE tenant_id = ? AND deleted_at IS NULL AND ${where} ORDER BY ${order} LIMIT 15 OFFSET ?`).all(big, (page - 1) * 15) as { id: number }[]).map((r) => r.id);
    const count = (where: string) => db.prepare(`SELECT COUNT(*) FROM customers WHERE tenant_id = ? AND deleted_at IS NULL AND ${where}`).pluck().get(big);
    expect(run(SQLITE_CUSTOMER_LIST_DEF, big, equal, 'scan')).toEqual({ n: count(`last_name = '${lastName}' COLLATE NOCASE`), ids: plain(`last_name = '${lastName}' COLLATE NOCASE`, 'id', 3) });
    // a filtered page in the attribute's order walks the same index, ties by id, no sort
    const byEmail = page15({ order_by: 'email', order_direction: 'desc', page_number: 4, filter: f('id', 'integer', 'GreaterThan', 100) });
    expect(text(customers.explain(big, byEmail)).page).toBe('SCAN c USING INDEX customers_email_count');
    expect(run(SQLITE_CUSTOMER_LIST_DEF, big, byEmail, 'scan').ids).toEqual(plain('id > 100', 'email COLLATE NOCASE DESC, id DESC', 4));
    // an updated_at range counted from the counters' stamp bounds and the index alone (store/stamp-bounds.ts): the
    // straddling rows, or (the fallback) every match
    expect(text(customers.explain(big, page15({ filter: f('updated_at', 'date', 'LessThan', '2024-01-03T00:00:00.000Z') }))).count).toMatch(
      boundedCount('c', 'customers_updated_at_count', 'updated_at', '<'),
    );
  });

  it('the big tenant walks by id or by the order index and stops after the page (no sort)', () => {
    // its live rows in id order: the range of the tenant index, or of the filter column's count index for Equal
    const byId = text(users.explain(big, page15()));
    expect(byId.page).toMatch(/^SEARCH u USING INDEX users_tenant \(tenant_id=\? AND deleted_at=\?\) \|/);
    expect(byId.page).not.toMatch(/TEMP B-TREE/);
    const status0 = text(users.explain(big, page15({ filter: f('status', 'integer', 'Equal', 0), order_direction: 'desc' })));
    expect(status0.page).toMatch(/^SEARCH u USING INDEX users_status_count \(status=\? AND tenant_id=\? AND deleted_at=\?\) \|/);
    expect(status0.page).not.toMatch(/TEMP B-TREE/);
    // with trashed rows: the index of all the tenant's rows in id order (migration 13), named by the page
    expect(text(users.explain(big, page15({ with_trashed: true }))).page).toMatch(/^SEARCH u USING INDEX users_tenant_ids \(tenant_id=\?\) \|/);
    expect(text(users.explain(big, page15({ with_trashed: true }))).page).not.toMatch(/TEMP B-TREE/);
    // unfiltered, in another attribute's order: the page's ids skipped to in that attribute's count
    // index (attribute, tenant, deleted_at), no row read before the page's own
    const byCreated = text(users.explain(big, page15({ order_by: 'created_at', order_direction: 'desc' })));
    expect(byCreated.page).toMatch(/^CO-ROUTINE page \| SCAN u USING COVERING INDEX users_created_at_count \|/);
    // (the ids in index order, ties by id as they come; only the page's 15 rows are sorted after)
    expect(byCreated.page).not.toMatch(/^CO-ROUTINE page \| [^|]+ \| USE TEMP B-TREE FOR ORDER BY/);
    const byName = text(customers.explain(big, page15({ order_by: 'last_name' })));
    expect(byName.page).toMatch(/^CO-ROUTINE page \| (SCAN|SEARCH) c USING COVERING INDEX customers_last_name_count\b/);
    expect(byName.page).not.toMatch(/^CO-ROUTINE page \| [^|]+ \| USE TEMP B-TREE FOR ORDER BY/);
    // a filtered page walks the order's index: for customers, the count index on (attribute, id,
    // tenant, deleted_at) of migration 15, in the order of the plain index it replaced (no sort)
    expect(text(customers.explain(big, page15({ order_by: 'last_name', filter: f('first_name', 'text', 'Contains', 'a') }))).page).toBe('SCAN c USING INDEX customers_last_name_count');
    // the derived texts walk their expression indexes (migration 13), in both directions
    expect(text(customers.explain(big, page15({ order_by: 'address', order_direction: 'desc' }))).page).toBe('SCAN c USING INDEX customers_address');
    expect(text(customers.explain(big, page15({ order_by: 'city_country' }))).page).toBe('SCAN c USING INDEX customers_city_country');
    // other filtered pages keep their own index; the unfiltered count reads the tenant's counter row
    expect(text(users.explain(big, page15({ filter: f('email', 'text', 'Equal', 'x@y.z'), order_by: 'last_name' }))).page).toMatch(
      /USING INDEX users_email_live \(email=\? AND tenant_id=\?\)/,
    );
    const email = text(users.explain(big, page15({ filter: f('email', 'text', 'Equal', 'x@y.z') })));
    expect(email.page).toMatch(/^SEARCH u USING INDEX users_email_count \(email=\?\)/);
    // the count reads its column's covering index (migration 17: email, id, tenant, deleted_at), never the rows
    expect(email.count).toBe('SEARCH u USING COVERING INDEX users_email_count (email=?)');
    expect(text(users.explain(big, page15({ filter: f('status', 'integer', 'Equal', 0) }))).count).not.toMatch(/users_tenant/);
    expect(byId.count).toMatch(COUNTER_PLAN);
    expect(text(users.explain(big, page15({ filter: f('status', 'integer', 'Equal', 0) }))).count).toBe(
      'SEARCH u USING COVERING INDEX users_status_count (status=? AND tenant_id=? AND deleted_at=?)',
    );
    // Contains of 3 or more characters: the trigram table's matches of the tenant's phrase and the value's (two MATCH
    // terms, migration 18) but the pending ids, with no lookup per match, and the pending rows, each read by its id (migration 14);
    // a match below the least pending id (read from the pending table's first entry) is not looked for among them;
    // while the other tenants' live rows are few (read through the tenants, by tenant index entries), the value's matches alone
    // (one MATCH term) less those of the other tenants' rows
    const trigramCount = (alias: string, table: string, fts = `${table}_text`) =>
      new RegExp(
        `^${[
          'SCAN CONSTANT ROW', 'SCALAR SUBQUERY \\d+', 'CO-ROUTINE \\(subquery-\\d+\\)', 'SCAN tenants',
          `SEARCH ${alias} USING COVERING INDEX ${table}_tenant \\(tenant_id=\\? AND deleted_at=\\?\\)`, 'SCAN \\(subquery-\\d+\\)',
          'SCALAR SUBQUERY \\d+', 'SEARCH tenants', 'SCALAR SUBQUERY \\d+', `SCAN ${fts} VIRTUAL TABLE INDEX 0:M\\d+`,
          'SCALAR SUBQUERY \\d+', `SEARCH ${table}_text_pending`,
          `USING ROWID SEARCH ON TABLE ${table}_text_pending FOR IN-OPERATOR`, 'SCALAR SUBQUERY \\d+', 'SCAN tenants',
          `SEARCH ${alias} USING INDEX ${table}_tenant \\(tenant_id=\\? AND deleted_at=\\?\\)`, `USING ROWID SEARCH ON TABLE ${table}_text_pending FOR IN-OPERATOR`,
          'SCALAR SUBQUERY \\d+', `SCAN ${fts} VIRTUAL TABLE INDEX 0:M\\d+M\\d+`, 'SCALAR SUBQUERY \\d+', `SEARCH ${table}_text_pending`,
          `USING ROWID SEARCH ON TABLE ${table}_text_pending FOR IN-OPERATOR`,
          'SCALAR SUBQUERY \\d+', `SCAN ${table}_text_pending`, `SEARCH ${alias} USING INTEGER PRIMARY KEY \\(rowid=\\?\\)`,
        ]
          .map((step) => `${step}[^|]*`)
          .join(' \\| ')}$`,
      );
    expect(text(users.explain(big, page15({ filter: f('last_name', 'text', 'Contains', 'son') }))).count).toMatch(trigramCount('u', 'users'));
    expect(text(customers.explain(big, page15({ filter: f('address', 'text', 'Contains', 'main st') }))).count).toMatch(trigramCount('c', 'customers'));
    expect(text(customers.explain(big, page15({ filter: f('city_country', 'text', 'Contains', 'ingfield, u') }))).count).toMatch(
      trigramCount('c', 'customers', 'customers_city_country_text'),
    );
    // shorter values have no trigram: a scan of the column's count index, or a skip-scan of it where ANALYZE found few distinct names
    expect(text(users.explain(big, page15({ filter: f('last_name', 'text', 'Contains', 'so') }))).count).toMatch(
      /^(SCAN|SEARCH) u USING COVERING INDEX users_last_name_count\b/,
    );
    expect(text(customers.explain(big, page15({ filter: f('created_at', 'date', 'GreaterThan', '2024-03-01T00:00:00.000Z') }))).count).toMatch(
      boundedCount('c', 'customers_created_at_count', 'created_at', '>'),
    );
    expect(text(users.explain(big, page15({ with_trashed: true }))).count).toMatch(COUNTER_PLAN);
  });

  it('Contains through the trigram tables answers exactly what the LIKE answers: totals, rows and order, in any case, with LIKE wildcards and quotes as text', () => {
    const write = new Database(file);
    write.prepare(`UPDATE users SET last_name = ? WHERE id = (SELECT min(id) FROM users WHERE tenant_id = ?)`).run('O"Brien_50%', big);
    write.prepare(`UPDATE users SET last_name = ? WHERE id = (SELECT max(id) FROM users WHERE tenant_id = ?)`).run('Émile-Sonne', big);
    write.close();
    // The LIKE path: the tenant-index access compiles no trigram count.
    const like = (def: ListDef, query: ListQuery) => run(def, big, query, 'index');
    const viaRunner = (runner: ListRunner<unknown>, query: ListQuery) => {
      const r = runner.run(big, query);
      return { n: r.total, ids: (r.rows as { id: number }[]).map((row) => row.id) };
    };
    const cases: [ListRunner<unknown>, ListDef, string, string][] = [
      ...['son', 'SON', 'sOn', 'mit', 'an', '"br', 'n_5', '50%', 'émile', 'Émile', 'zzzq', '@'].map((v) => [users, SQLITE_USER_LIST_DEF, 'last_name', v] as [ListRunner<unknown>, ListDef, string, string]),
      [users, SQLITE_USER_LIST_DEF, 'email', '.1234@'],
      [users, SQLITE_USER_LIST_DEF, 'first_name', 'ann'],
      [customers, SQLITE_CUSTOMER_LIST_DEF, 'address', 'main'],
      [customers, SQLITE_CUSTOMER_LIST_DEF, 'city_country', 'germany'],
      [customers, SQLITE_CUSTOMER_LIST_DEF, 'contact_number', '555'],
    ];
    let trigram = 0;
    for (const [runner, def, attribute, value] of cases) {
      for (const over of [{}, { page_number: 3 }, { order_by: 'created_at', order_direction: 'desc' as const }, { page_size: 100, order_by: 'last_name' }]) {
        const query = page15({ filter: f(attribute, 'text', 'Contains', value), ...over });
        if (/users_text|customers_text/.test(runner.explain(big, query).count.join(' '))) trigram++;
        expect(viaRunner(runner, query), `${attribute} Contains ${value} ${JSON.stringify(over)}`).toEqual(like(def, query));
      }
    }
    expect(trigram).toBeGreaterThan(40);
  });

  it('a department filter uses the department index, not a scan through the join', () => {
    const b = text(users.explain(big, page15({ filter: f('department', 'text', 'Equal', 'sales') })));
    expect(b.count).toMatch(/^SEARCH u USING COVERING INDEX users_department_tenant \(department_id=\? AND tenant_id=\? AND deleted_at=\?\)/);
    expect(b.count).not.toMatch(/\bd\b/);
    expect(b.page).toMatch(/^SCAN u \|/); // by id, stopping after the page
    const c = text(users.explain(big, page15({ filter: f('department', 'text', 'Contains', 'ing'), with_trashed: true })));
    expect(c.count).toMatch(/^SEARCH u USING COVERING INDEX users_department_tenant \(department_id=\? AND tenant_id=\?\)/);
    const s = text(users.explain(small, page15({ filter: f('department', 'text', 'Equal', 'sales') })));
    expect(s.page).toMatch(/USING INDEX users_tenant .*SEARCH departments USING INDEX departments_tenant \(tenant_id=\?\)/);
  });

  it('both accesses return the same rows and totals', () => {
    const queries = [
      page15(),
      page15({ with_trashed: true, page_number: 2 }),
      page15({ order_by: 'last_name', order_direction: 'desc' }),
      page15({ filter: f('department', 'text', 'Equal', 'SALES') }),
      page15({ filter: f('department', 'text', 'NotEqual', 'sales') }),
      page15({ filter: f('department', 'text', 'Contains', 'ing') }),
      page15({ filter: f('department', 'text', 'IsNull') }),
      page15({ filter: f('department', 'text', 'NotNull'), order_by: 'created_at' }),
      page15({ filter: f('status', 'integer', 'Equal', 0) }),
    ];
    for (const tenant of [big, small])
      for (const query of queries) {
        const a = run(SQLITE_USER_LIST_DEF, tenant, query, 'index');
        expect(run(SQLITE_USER_LIST_DEF, tenant, query, 'scan')).toEqual(a);
        expect(a.ids.length).toBeGreaterThan(0);
        expect(users.run(tenant, query).total).toBe(a.n);
      }
    // the department semi-join matches the old join's semantics
    const joined = (name: string) =>
      (db.prepare(`SELECT COUNT(*) AS n FROM users u LEFT JOIN departments d ON d.id = u.department_id
        WHERE u.tenant_id = ? AND u.deleted_at IS NULL AND d.name = ? COLLATE NOCASE`).get(big, name) as { n: number }).n;
    expect(users.run(big, page15({ filter: f('department', 'text', 'Equal', 'sales') })).total).toBe(joined('Sales'));
  });

  it('a tenant growing past SMALL_TENANT_ROWS switches to scan access (sizes follow writes, like the totals)', () => {
    const grow = new Database(file);
    const t = Number(grow.prepare(`INSERT INTO tenants (created_at) VALUES ('2025-01-01T00:00:00.000Z')`).run().lastInsertRowid);
    expect(users.tenantAccess(t)).toBe('index');
    expect(users.run(t, page15()).total).toBe(0);
    grow.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
      INSERT INTO users (tenant_id, first_name, last_name, email, created_at, updated_at)
      SELECT ?, 'F', 'L', 'g' || i || '@x.example', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z' FROM n`).run(SMALL_TENANT_ROWS + 1, t);
    grow.close();
    expect(users.tenantAccess(t)).toBe('scan');
    expect(users.run(t, page15()).total).toBe(SMALL_TENANT_ROWS + 1);
  });

  it('cleans up', () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
