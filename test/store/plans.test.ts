import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { ListRunner } from '../../src/store/sqlite/list-query.js';
import { SQLITE_USER_LIST_DEF } from '../../src/store/sqlite/repos/users.js';
import { f, q } from './contract/fixtures.js';

/**
 * Query plans on a realistic shape: one dominant tenant plus small ones, after ANALYZE. Guards the
 * index choices (ARCHITECTURE.md "Index trap"): no index leads with tenant_id, equality filters
 * use their index, counts do not join departments. (plans-tenants.test.ts: a big beside a small tenant.) (test/store/tools/plan-check.ts
 * prints plans and timings for 100,000 users.)
 */
describe('query plans', () => {
  const db = openDatabase(':memory:');
  db.exec(`INSERT INTO tenants (id, created_at) VALUES (1, '2025-01-01T00:00:00.000Z'), (2, '2025-01-01T00:00:00.000Z');
    INSERT INTO roles (tenant_id, name, created_at) VALUES (1, 'Member', 'x'), (2, 'Member', 'x');
    INSERT INTO departments (tenant_id, name, created_at, updated_at) VALUES (1, 'Eng', 'x', 'x'), (1, 'Ops', 'x', 'x');
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
    INSERT INTO users (tenant_id, department_id, first_name, last_name, email, role, status, created_at, updated_at, deleted_at)
    SELECT CASE WHEN i % 100 = 0 THEN 2 ELSE 1 END, 1 + i % 2, 'F' || (i % 300), 'L' || (i % 500), 'u' || i || '@x.example', 'Member', i % 5 = 0,
      strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i * 60, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i * 60, 'unixepoch'),
      CASE WHEN i % 20 = 0 THEN '2025-01-01T00:00:00.000Z' END FROM n;
    ANALYZE;`);
  const runner = new ListRunner(db, SQLITE_USER_LIST_DEF);
  const plan = (query: ReturnType<typeof q>) => runner.explain(1, query);

  it('has no index leading with tenant_id on users or customers but the partial tenant indexes', () => {
    const leading = db.prepare(`SELECT il.name, il.partial FROM sqlite_master m, pragma_index_list(m.name) il, pragma_index_info(il.name) ii
      WHERE m.name IN ('users', 'customers') AND ii.seqno = 0 AND ii.name = 'tenant_id' ORDER BY il.name`).all();
    // partial on `tenant_id > 0`: invisible to a query without that term (plans-tenants.test.ts)
    expect(leading).toEqual([
      { name: 'customers_tenant', partial: 1 },
      { name: 'customers_tenant_ids', partial: 1 },
      { name: 'users_tenant', partial: 1 },
      { name: 'users_tenant_ids', partial: 1 },
    ]);
  });

  it('uses the email index for Equal on email', () => {
    const p = plan(q({ filter: f('email', 'text', 'Equal', 'U5@x.example') }));
    expect(p.page.join(' ')).toMatch(/USING INDEX users_email/);
    expect(p.count.join(' ')).toMatch(/USING COVERING INDEX users_email_count \(email=\?\)/);
    expect(runner.run(1, q({ filter: f('email', 'text', 'Equal', 'U5@X.EXAMPLE') })).total).toBe(1);
  });

  it('uses the created_at index for a range and for ordering', () => {
    expect(plan(q({ filter: f('created_at', 'date', 'GreaterThan', '2023-11-28T00:00:00.000Z') })).count.join(' ')).toMatch(/users_created/);
    expect(plan(q({ order_by: 'created_at', order_direction: 'desc', filter: f('status', 'integer', 'NotEqual', 1) })).page.join(' ')).toMatch(/SCAN u USING INDEX users_created_at_count\b/);
    // unfiltered, a large tenant's page skips to its ids in the count index (tenant and deleted_at in the index)
    expect(plan(q({ order_by: 'created_at', order_direction: 'desc' })).page.join(' ')).toMatch(/SCAN u USING COVERING INDEX users_created_at_count/);
  });

  it('counts without the departments join, also when filtering by department (a semi-join)', () => {
    expect(plan(q()).count.join(' ')).not.toMatch(/\bd\b/);
    expect(plan(q({ filter: f('department', 'text', 'Equal', 'eng') })).count.join(' ')).not.toMatch(/\bd\b/);
    expect(runner.run(1, q({ filter: f('department', 'text', 'Equal', 'ENG') })).total).toBe(
      (db.prepare(`SELECT COUNT(*) AS n FROM users WHERE tenant_id = 1 AND deleted_at IS NULL AND department_id = 1`).get() as { n: number }).n,
    );
  });

  it("walks a deep unfiltered page in id order from its counter bucket: a rowid range of the tenant's index, the rows of the plain OFFSET", () => {
    // Tenant 1's 19,800 rows (18,810 live): page 600 of 15 lies 8,985 rows in, more than a bucket from either end.
    const deep = (over: Partial<ReturnType<typeof q>>) => q({ page_size: 15, page_number: 600, ...over });
    for (const [over, index, bound] of [
      [{}, 'users_tenant (tenant_id=? AND deleted_at=? AND rowid>?)', 'ASC'],
      [{ order_direction: 'desc' }, 'users_tenant (tenant_id=? AND deleted_at=? AND rowid<?)', 'DESC'],
      [{ with_trashed: true }, 'users_tenant_ids (tenant_id=? AND rowid>?)', 'ASC'],
      [{ with_trashed: true, order_direction: 'desc' }, 'users_tenant_ids (tenant_id=? AND rowid<?)', 'DESC'],
    ] as const) {
      const query = deep(over);
      const bucket = runner.explain(1, query).bucket?.join(' | ');
      expect(bucket).toMatch(/list_counts/);
      expect(bucket).toContain(`SEARCH u USING COVERING INDEX ${index}`);
      const expected = db
        .prepare(`SELECT id FROM users WHERE tenant_id = 1${query.with_trashed ? '' : ' AND deleted_at IS NULL'} ORDER BY id ${bound} LIMIT 15 OFFSET ?`)
        .pluck()
        .all(599 * 15);
      expect(runner.run(1, query).rows.map((r) => (r as { id: number }).id)).toEqual(expected);
    }
  });

  it('counts department_id Equal from its covering index and walks its page there in id order (the plain index read every row)', () => {
    const query = q({ filter: f('department_id', 'integer', 'Equal', 1) });
    const p = plan(query);
    expect(p.count.join(' ')).toMatch(/USING COVERING INDEX users_department_tenant \(department_id=\? AND tenant_id=\? AND deleted_at=\?\)/);
    expect(p.page.join(' ')).toMatch(/USING INDEX users_department_tenant \(department_id=\? AND tenant_id=\? AND deleted_at=\?\)/);
    expect(p.page.join(' ')).not.toMatch(/TEMP B-TREE/);
    const expected = db.prepare(`SELECT id FROM users WHERE tenant_id = 1 AND deleted_at IS NULL AND department_id = 1 ORDER BY id`).pluck().all() as number[];
    const page = runner.run(1, { ...query, page_size: 15, page_number: 3 });
    expect(page.total).toBe(expected.length);
    expect(page.rows.map((r) => (r as { id: number }).id)).toEqual(expected.slice(30, 45));
  });
});
