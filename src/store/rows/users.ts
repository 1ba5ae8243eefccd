/** A user as both stores keep it: its columns, its list definition and its mapping to the contract. */
import type { User, WorkHours } from '../../contract/index.js';
import type { UserInsert } from '../types.js';
import { nowIso } from '../util.js';
import type { ListDef } from './list-def.js';

export type UserRow = Omit<User, 'work_hours'> & { work_hours: string | null };

export const USER_SELECT = `u.id, u.department_id, u.first_name, u.last_name, u.email, u.timezone, u.work_hours, u.role,
  u.created_at, u.updated_at, u.status, u.avatar_url, u.first_name || ' ' || u.last_name AS name,
  d.name AS department_name, u.deleted_at`;
export const USER_FROM = 'users u LEFT JOIN departments d ON d.id = u.department_id';

/** Users' list attributes; `department` is the department's name (decisions §6). */
export const USER_LIST_DEF: ListDef = {
  select: USER_SELECT,
  from: 'users u',
  joins: 'LEFT JOIN departments d ON d.id = u.department_id',
  tenantColumn: 'u.tenant_id',
  deletedColumn: 'u.deleted_at',
  idColumn: 'u.id',
  tenantIndex: 'users_tenant',
  counted: 'users',
  tenantIdsIndex: 'users_tenant_ids',
  columns: {
    id: { sql: 'u.id', type: 'integer' },
    first_name: { sql: 'u.first_name', type: 'text', countIndex: 'users_first_name_count', countIndexById: true },
    last_name: { sql: 'u.last_name', type: 'text', countIndex: 'users_last_name_count', countIndexById: true },
    email: { sql: 'u.email', type: 'text', countIndex: 'users_email_count', countIndexById: true },
    status: { sql: 'u.status', type: 'integer', countIndex: 'users_status_count' },
    timezone: { sql: 'u.timezone', type: 'text', countIndex: 'users_timezone_count', countIndexById: true },
    role: { sql: 'u.role', type: 'text', countIndex: 'users_role_count', countIndexById: true },
    department: { sql: 'd.name', type: 'text', join: true, semi: { fk: 'u.department_id', table: 'departments', column: 'name', index: 'users_department_tenant' } },
    department_id: { sql: 'u.department_id', type: 'integer', countIndex: 'users_department_tenant' },
    created_at: { sql: 'u.created_at', type: 'date', countIndex: 'users_created_at_count', countIndexById: true },
    updated_at: { sql: 'u.updated_at', type: 'date', countIndex: 'users_updated_at_count', countIndexById: true },
    deleted_at: { sql: 'u.deleted_at', type: 'date' },
  },
};

export const toUser = (r: UserRow): User => ({ ...r, work_hours: r.work_hours === null ? null : (JSON.parse(r.work_hours) as WorkHours) });

/** Work hours as stored: JSON text, or NULL. */
export const workHoursJson = (w: WorkHours | null | undefined) => (w ? JSON.stringify(w) : null);

/** A user's stored columns for an insert (all but `tenant_id`, `id` and `json`): defaults applied, work hours as JSON text. */
export function userRow(input: UserInsert) {
  const created = input.created_at ?? nowIso();
  return {
    department_id: input.department_id ?? null,
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email,
    timezone: input.timezone ?? null,
    work_hours: workHoursJson(input.work_hours),
    role: input.role ?? null,
    status: input.status ?? 1,
    avatar_url: input.avatar_url ?? null,
    created_at: created,
    updated_at: input.updated_at ?? created,
    deleted_at: input.deleted_at ?? null,
  };
}

/** The columns of `userRow`, in its order. */
export const USER_COLUMNS = Object.keys(userRow({ first_name: '', last_name: '', email: '', created_at: '' }));
