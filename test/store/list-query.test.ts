import { describe, expect, it } from 'vitest';
import { compileFilter, compileList, compileOrder, escapeLike, TENANT } from '../../src/store/sqlite/list-query.js';
import { CONFERENCE_LIST_DEF } from '../../src/store/rows/conferences.js';
import { SQLITE_CUSTOMER_LIST_DEF } from '../../src/store/sqlite/repos/customers.js';
import { SQLITE_USER_LIST_DEF } from '../../src/store/sqlite/repos/users.js';
import { f, q } from './contract/fixtures.js';

describe('list-query compiler', () => {
  it('escapes LIKE metacharacters', () => {
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
  });

  it('never puts user text into SQL: values are bound', () => {
    const evil = "x' OR 1=1 --";
    for (const operator of ['Equal', 'NotEqual', 'Contains', 'GreaterThan', 'LessThanOrEqual'] as const) {
      const c = compileList(SQLITE_USER_LIST_DEF, q({ filter: f('email', 'text', operator, evil) }));
      expect(c.pageSql).not.toContain(evil);
      expect(c.countSql).not.toContain(evil);
      expect(c.params).toEqual([operator === 'Contains' ? `%${evil}%` : evil]);
    }
  });

  it('rejects attributes outside the whitelist', () => {
    expect(() => compileList(SQLITE_USER_LIST_DEF, q({ filter: f('secret_hash', 'text', 'Equal', 'x') }))).toThrow();
    expect(() => compileList(SQLITE_USER_LIST_DEF, q({ order_by: 'u.id; DROP TABLE users' }))).toThrow();
  });

  it('compiles each operator kind', () => {
    const email = SQLITE_USER_LIST_DEF.columns.email;
    expect(compileFilter(email, f('email', 'text', 'Equal', 'A'))).toEqual({ sql: '(u.email) COLLATE NOCASE = ?', params: ['A'] });
    expect(compileFilter(email, f('email', 'text', 'IsNull'))).toEqual({ sql: '(u.email) IS NULL', params: [] });
    expect(compileFilter(SQLITE_USER_LIST_DEF.columns.id, f('id', 'integer', 'Contains', '4_'))).toEqual({
      sql: "CAST((u.id) AS TEXT) LIKE ? ESCAPE '\\'",
      params: ['%4\\_%'],
    });
    expect(compileFilter(SQLITE_USER_LIST_DEF.columns.status, f('status', 'integer', 'GreaterThan', 0)).params).toEqual([0]);
    expect(compileFilter(SQLITE_USER_LIST_DEF.columns.created_at, f('created_at', 'date', 'LessThan', '2025-01-01T00:00:00Z')).params).toEqual([
      '2025-01-01T00:00:00.000Z',
    ]);
  });

  it('orders by the attribute then id in the same direction', () => {
    expect(compileOrder(SQLITE_USER_LIST_DEF, 'last_name', 'desc')).toBe('u.last_name COLLATE NOCASE DESC, u.id DESC');
    expect(compileOrder(SQLITE_USER_LIST_DEF, 'status', 'asc')).toBe('u.status ASC, u.id ASC');
    expect(compileOrder(SQLITE_USER_LIST_DEF, 'id', 'desc')).toBe('u.id DESC');
  });

  it('pages with LIMIT/OFFSET and joins in the count only when the filter needs it', () => {
    const c = compileList(SQLITE_USER_LIST_DEF, q({ page_size: 15, page_number: 3 }));
    expect([c.limit, c.offset]).toEqual([15, 30]);
    // unfiltered: the tenant's counter row (migration 13), live rows or all of them
    expect(c.countSql).toBe("SELECT coalesce(sum(live), 0) AS n FROM list_counts WHERE tenant_id = ? AND list = 'users'");
    expect(compileList(CONFERENCE_LIST_DEF, q({})).countSql).toContain("list = 'conferences'");
    // department filters as a semi-join on department_id, so the count needs no join either
    const dept = compileList(SQLITE_USER_LIST_DEF, q({ filter: f('department', 'text', 'Equal', 'x') }));
    expect(dept.countSql).not.toContain('JOIN');
    expect(dept.countSql).toContain('u.department_id IN (SELECT id FROM departments WHERE tenant_id = ? AND (name) COLLATE NOCASE = ?)');
    expect(dept.params).toEqual([TENANT, 'x']);
    expect(compileList(SQLITE_CUSTOMER_LIST_DEF, q({ with_trashed: true })).countSql).toContain("sum(live + trashed), 0) AS n FROM list_counts WHERE tenant_id = ? AND list = 'customers'");
    const filtered = compileList(SQLITE_CUSTOMER_LIST_DEF, q({ with_trashed: true, filter: f('first_name', 'text', 'Equal', 'x') }));
    expect(filtered.countSql).not.toContain('deleted_at');
    expect(filtered.countSql).not.toContain('list_counts');
  });
});
