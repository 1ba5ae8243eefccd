import type { User, WorkHours } from '../../../contract/index.js';
import type { Db } from '../db.js';
import { type ListDef, type ListMode, ListRunner } from '../list-query.js';
import { withTrigrams } from '../trigram.js';
import type { UserInsert, UserPatch, UserRepo } from '../../types.js';
import { guardUnique, NotFoundError, nowIso } from '../../util.js';
import { idOfUserJson } from '../../user-json.js';

export type UserRow = Omit<User, 'work_hours'> & { work_hours: string | null };

export const USER_SELECT = `u.id, u.department_id, u.first_name, u.last_name, u.email, u.timezone, u.work_hours, u.role,
  u.created_at, u.updated_at, u.status, u.avatar_url, u.first_name || ' ' || u.last_name AS name,
  d.name AS department_name, u.deleted_at`;
export const USER_FROM = 'users u LEFT JOIN departments d ON d.id = u.department_id';

/** Users' list attributes; `department` is the department's name (decisions §6). */
export const USER_LIST_DEF: ListDef = withTrigrams({
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
    first_name: { sql: 'u.first_name', type: 'text', countIndex: 'users_first_name_count' },
    last_name: { sql: 'u.last_name', type: 'text', countIndex: 'users_last_name_count' },
    email: { sql: 'u.email', type: 'text', countIndex: 'users_email_count' },
    status: { sql: 'u.status', type: 'integer', countIndex: 'users_status_count' },
    timezone: { sql: 'u.timezone', type: 'text', countIndex: 'users_timezone_count' },
    role: { sql: 'u.role', type: 'text', countIndex: 'users_role_count' },
    department: { sql: 'd.name', type: 'text', join: true, semi: { fk: 'u.department_id', table: 'departments', column: 'name', index: 'users_department_tenant' } },
    department_id: { sql: 'u.department_id', type: 'integer' },
    created_at: { sql: 'u.created_at', type: 'date', countIndex: 'users_created_at_count' },
    updated_at: { sql: 'u.updated_at', type: 'date', countIndex: 'users_updated_at_count' },
    deleted_at: { sql: 'u.deleted_at', type: 'date' },
  },
}, 'users');

export const toUser = (r: UserRow): User => ({ ...r, work_hours: r.work_hours === null ? null : (JSON.parse(r.work_hours) as WorkHours) });

/**
 * The users' list with each row as its stored JSON text (`users.json`, migration 8): the page
 * reads one column and joins the department only to filter or order by it.
 */
const USER_JSON_LIST_DEF: ListDef = { ...USER_LIST_DEF, select: 'u.json', selectJoins: false };

const json = (w: WorkHours | null | undefined) => (w ? JSON.stringify(w) : null);

/** A user's stored columns for an insert (all but `tenant_id`, `id` and `json`): defaults applied, work hours as JSON text. */
export function userRow(input: UserInsert) {
  const created = input.created_at ?? nowIso();
  return {
    department_id: input.department_id ?? null,
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email,
    timezone: input.timezone ?? null,
    work_hours: json(input.work_hours),
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
const PATCHABLE = ['department_id', 'first_name', 'last_name', 'email', 'timezone', 'work_hours', 'role'] as const;

/** `mode`: the store's list mode (see `ListMode`), when `serve`'s read pool may run its lists. */
export function userRepo(db: Db, mode?: ListMode): UserRepo {
  const lists = new ListRunner<UserRow>(db, USER_LIST_DEF, mode);
  const jsonLists = new ListRunner<string>(db, USER_JSON_LIST_DEF, mode);
  const selectAny = db.prepare(`SELECT ${USER_SELECT} FROM ${USER_FROM} WHERE u.tenant_id = ? AND u.id = ?`);
  const selectLive = db.prepare(`SELECT ${USER_SELECT} FROM ${USER_FROM} WHERE u.tenant_id = ? AND u.id = ? AND u.deleted_at IS NULL`);
  const selectLiveJson = db.prepare('SELECT json FROM users WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL').pluck();
  const byEmail = db.prepare(
    `SELECT ${USER_SELECT} FROM ${USER_FROM} WHERE u.email = ? COLLATE NOCASE AND u.tenant_id = ? AND u.deleted_at IS NULL`,
  );
  const taken = db.prepare(
    'SELECT 1 FROM users WHERE email = ? COLLATE NOCASE AND tenant_id = ? AND deleted_at IS NULL AND id IS NOT ?',
  );
  const insert = db.prepare(`INSERT INTO users (tenant_id, department_id, first_name, last_name, email, timezone, work_hours,
    role, status, avatar_url, created_at, updated_at, deleted_at) VALUES (@tenant_id, @department_id, @first_name, @last_name,
    @email, @timezone, @work_hours, @role, @status, @avatar_url, @created_at, @updated_at, @deleted_at)`);
  // One statement for every patch shape: each `has_x` flag says whether the field was sent.
  const update = db.prepare(`UPDATE users SET ${PATCHABLE.map((f) => `${f} = CASE WHEN @has_${f} THEN @${f} ELSE ${f} END`).join(', ')},
    updated_at = @updated_at WHERE tenant_id = @tenant_id AND id = @id AND deleted_at IS NULL`);

  const getAny = (tenantId: number, id: number) => {
    const r = selectAny.get(tenantId, id) as UserRow | undefined;
    return r && toUser(r);
  };

  return {
    list(tenantId, query) {
      const { rows, total } = lists.run(tenantId, query);
      return { rows: rows.map(toUser), total };
    },
    listJson(tenantId, query) {
      return jsonLists.runPluck(tenantId, query, idOfUserJson);
    },
    getJson: (tenantId, id) => selectLiveJson.get(tenantId, id) as string | undefined,
    get(tenantId, id) {
      const r = selectLive.get(tenantId, id) as UserRow | undefined;
      return r && toUser(r);
    },
    insert(tenantId, input: UserInsert) {
      return getAny(tenantId, Number(insert.run({ tenant_id: tenantId, ...userRow(input) }).lastInsertRowid))!;
    },
    update(tenantId, id, patch: UserPatch) {
      const params: Record<string, unknown> = { tenant_id: tenantId, id, updated_at: nowIso() };
      for (const f of PATCHABLE) {
        const has = Object.prototype.hasOwnProperty.call(patch, f) && patch[f] !== undefined;
        params[`has_${f}`] = has ? 1 : 0;
        params[f] = !has ? null : f === 'work_hours' ? json(patch.work_hours) : (patch[f] ?? null);
      }
      if (guardUnique(() => update.run(params)).changes === 0) throw new NotFoundError('User', id);
      return getAny(tenantId, id)!;
    },
    emailTaken: (tenantId, email, exceptId) => taken.get(email, tenantId, exceptId ?? null) !== undefined,
    findByEmail(tenantId, email) {
      const r = byEmail.get(email, tenantId) as UserRow | undefined;
      return r && toUser(r);
    },
  };
}
