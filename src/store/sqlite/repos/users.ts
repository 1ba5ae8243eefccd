import type { Db } from '../db.js';
import { type ListMode, ListRunner } from '../list-query.js';
import { withTrigrams } from '../trigram.js';
import type { UserInsert, UserPatch, UserRepo } from '../../types.js';
import { guardUnique, NotFoundError, nowIso } from '../../util.js';
import { idOfUserJson } from '../../user-json.js';
import type { ListDef } from '../../rows/list-def.js';
import { toUser, USER_FROM, USER_LIST_DEF, USER_SELECT, userRow, type UserRow, workHoursJson } from '../../rows/users.js';

/** The users' list on SQLite: its `Contains` of 3 or more characters through the trigram table. */
export const SQLITE_USER_LIST_DEF: ListDef = withTrigrams(USER_LIST_DEF, 'users');

/**
 * The users' list with each row as its stored JSON text (`users.json`, migration 8): the page
 * reads one column and joins the department only to filter or order by it.
 */
const USER_JSON_LIST_DEF: ListDef = { ...SQLITE_USER_LIST_DEF, select: 'u.json', selectJoins: false };

const PATCHABLE = ['department_id', 'first_name', 'last_name', 'email', 'timezone', 'work_hours', 'role'] as const;

/** `mode`: the store's list mode (see `ListMode`), when `serve`'s read pool may run its lists. */
export function userRepo(db: Db, mode?: ListMode): UserRepo {
  const lists = new ListRunner<UserRow>(db, SQLITE_USER_LIST_DEF, mode);
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
        params[f] = !has ? null : f === 'work_hours' ? workHoursJson(patch.work_hours) : (patch[f] ?? null);
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
