import { describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/contract/index.js';
import { compileList, type TenantAccess } from '../../src/store/sqlite/list-query.js';
import { SQLITE_USER_LIST_DEF } from '../../src/store/sqlite/repos/users.js';
import { f, q } from './contract/fixtures.js';

/**
 * The exact SQL of each access path (small tenant: `index`; large: `scan`), unfiltered, filtered
 * through a join column, through a semi-join, and IsNull/NotNull on it. The plan tests measured
 * these texts; a change to one must be deliberate (and re-measured), never a slip.
 */
describe('list-query compiler: the SQL of each access path', () => {
  const cases: [TenantAccess, ListQuery, string, string][] = [
    ["index", q({}), " FROM users u INDEXED BY users_tenant LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL ORDER BY u.id ASC LIMIT ? OFFSET ?", "SELECT coalesce(sum(live), 0) AS n FROM list_counts WHERE tenant_id = ? AND list = 'users'"],
    ["index", q({ filter: f('email', 'text', 'Contains', 'a') }), " FROM users u INDEXED BY users_tenant LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND (u.email) LIKE ? ESCAPE '\\' ORDER BY u.id ASC LIMIT ? OFFSET ?", "SELECT COUNT(*) AS n FROM users u INDEXED BY users_tenant  WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND (u.email) LIKE ? ESCAPE '\\'"],
    ["index", q({ filter: f('department', 'text', 'Equal', 'x') }), " FROM users u INDEXED BY users_tenant LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND u.department_id IN (SELECT id FROM departments WHERE tenant_id = ? AND (name) COLLATE NOCASE = ?) ORDER BY u.id ASC LIMIT ? OFFSET ?", "SELECT COUNT(*) AS n FROM users u INDEXED BY users_tenant  WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND u.department_id IN (SELECT id FROM departments WHERE tenant_id = ? AND (name) COLLATE NOCASE = ?)"],
    ["index", q({ filter: f('department', 'text', 'IsNull'), with_trashed: true }), " FROM users u INDEXED BY users_tenant LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.department_id IS NULL ORDER BY u.id ASC LIMIT ? OFFSET ?", "SELECT COUNT(*) AS n FROM users u INDEXED BY users_tenant  WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.department_id IS NULL"],
    ["index", q({ filter: f('department', 'text', 'NotNull'), order_by: 'last_name', order_direction: 'desc' }), " FROM users u INDEXED BY users_tenant LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND u.department_id IS NOT NULL ORDER BY u.last_name COLLATE NOCASE DESC, u.id DESC LIMIT ? OFFSET ?", "SELECT COUNT(*) AS n FROM users u INDEXED BY users_tenant  WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND u.department_id IS NOT NULL"],
    ["scan", q({}), " FROM users u INDEXED BY users_tenant LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL ORDER BY u.id ASC LIMIT ? OFFSET ?", "SELECT coalesce(sum(live), 0) AS n FROM list_counts WHERE tenant_id = ? AND list = 'users'"],
    ["scan", q({ filter: f('email', 'text', 'Contains', 'a') }), " FROM users u LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.deleted_at IS NULL AND (u.email) LIKE ? ESCAPE '\\' ORDER BY u.id ASC LIMIT ? OFFSET ?", "SELECT COUNT(*) AS n FROM users u INDEXED BY users_email_count  WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND (u.email) LIKE ? ESCAPE '\\'"],
    ["scan", q({ filter: f('status', 'integer', 'Equal', 0) }), " FROM users u INDEXED BY users_status_count LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND (u.status) = ? ORDER BY u.id ASC LIMIT ? OFFSET ?", "SELECT COUNT(*) AS n FROM users u INDEXED BY users_status_count  WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND (u.status) = ?"],
    ["scan", q({ filter: f('department', 'text', 'Equal', 'x') }), " FROM users u LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.deleted_at IS NULL AND u.department_id IN (SELECT id FROM departments WHERE tenant_id = ? AND (name) COLLATE NOCASE = ?) ORDER BY u.id ASC LIMIT ? OFFSET ?", "SELECT COUNT(*) AS n FROM users u INDEXED BY users_department_tenant  WHERE u.tenant_id = ? AND u.tenant_id > 0 AND u.deleted_at IS NULL AND u.department_id IN (SELECT id FROM departments WHERE tenant_id = ? AND (name) COLLATE NOCASE = ?)"],
    ["scan", q({ filter: f('department', 'text', 'IsNull'), with_trashed: true }), " FROM users u LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.department_id IS NULL ORDER BY u.id ASC LIMIT ? OFFSET ?", "SELECT COUNT(*) AS n FROM users u  WHERE u.tenant_id = ? AND u.department_id IS NULL"],
    ["scan", q({ filter: f('department', 'text', 'NotNull'), order_by: 'last_name', order_direction: 'desc' }), " FROM users u LEFT JOIN departments d ON d.id = u.department_id WHERE u.tenant_id = ? AND u.deleted_at IS NULL AND u.department_id IS NOT NULL ORDER BY u.last_name COLLATE NOCASE DESC, u.id DESC LIMIT ? OFFSET ?", "SELECT COUNT(*) AS n FROM users u  WHERE u.tenant_id = ? AND u.deleted_at IS NULL AND u.department_id IS NOT NULL"],
  ];
  it.each(cases)('%s %#', (access, query, page, count) => {
    const c = compileList(SQLITE_USER_LIST_DEF, query, access);
    expect(c.pageSql.slice(c.pageSql.indexOf(' FROM users u'))).toBe(page);
    expect(c.countSql).toBe(count);
  });
});
