import type { Db } from '../db.js';
import type { DepartmentRecord, DepartmentRepo, RoleRepo } from '../../types.js';
import { nowIso } from '../../util.js';

/** Roles of a tenant, by name (case-sensitive). Creating an existing role is a no-op. */
export function roleRepo(db: Db): RoleRepo {
  const insert = db.prepare('INSERT INTO roles (tenant_id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (tenant_id, name) DO NOTHING');
  const list = db.prepare('SELECT name FROM roles WHERE tenant_id = ? ORDER BY id');
  const exists = db.prepare('SELECT 1 FROM roles WHERE tenant_id = ? AND name = ?');
  return {
    create(tenantId, name) {
      insert.run(tenantId, name, nowIso());
    },
    list: (tenantId) => list.pluck().all(tenantId) as string[],
    exists: (tenantId, name) => exists.get(tenantId, name) !== undefined,
  };
}

/** Departments of a tenant; soft-deleted ones do not exist for `get`/`list`. */
export function departmentRepo(db: Db): DepartmentRepo {
  const insert = db.prepare('INSERT INTO departments (tenant_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)');
  const select = db.prepare('SELECT id, tenant_id, name FROM departments WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL');
  const list = db.prepare('SELECT id, tenant_id, name FROM departments WHERE tenant_id = ? AND deleted_at IS NULL ORDER BY id');
  return {
    create(tenantId, name) {
      const now = nowIso();
      const id = Number(insert.run(tenantId, name, now, now).lastInsertRowid);
      return { id, tenant_id: tenantId, name };
    },
    get: (tenantId, id) => select.get(tenantId, id) as DepartmentRecord | undefined,
    list: (tenantId) => list.all(tenantId) as DepartmentRecord[],
  };
}
