import type { OnlineConference } from '../../../contract/index.js';
import type { Db } from '../db.js';
import { type ListDef, type ListMode, ListRunner } from '../list-query.js';
import type { ConferenceInsert, ConferenceRepo } from '../../types.js';
import { bool, NotFoundError, nowIso } from '../../util.js';

export type ConferenceRow = Omit<OnlineConference, 'is_public' | 'is_occurred'> & { is_public: number };

export const CONFERENCE_COLUMNS = `id, online_conference_account_id, public_id, title, is_public, backer_event_id,
  started_at, ended_at, created_at, updated_at, deleted_at`;

/** Conferences' list attributes; `is_occurred` is derived from `started_at` as in `toConference`. */
export const CONFERENCE_LIST_DEF: ListDef = {
  select: CONFERENCE_COLUMNS,
  from: 'conferences',
  tenantColumn: 'tenant_id',
  deletedColumn: 'deleted_at',
  idColumn: 'id',
  tenantIndex: 'conferences_tenant',
  counted: 'conferences',
  columns: {
    id: { sql: 'id', type: 'integer' },
    online_conference_account_id: { sql: 'online_conference_account_id', type: 'integer' },
    backer_event_id: { sql: 'backer_event_id', type: 'integer' },
    public_id: { sql: 'public_id', type: 'text' },
    title: { sql: 'title', type: 'text' },
    is_public: { sql: 'is_public', type: 'boolean' },
    is_occurred: { sql: 'started_at IS NOT NULL', type: 'boolean' },
    started_at: { sql: 'started_at', type: 'date' },
    ended_at: { sql: 'ended_at', type: 'date' },
    created_at: { sql: 'created_at', type: 'date' },
    updated_at: { sql: 'updated_at', type: 'date' },
    deleted_at: { sql: 'deleted_at', type: 'date' },
  },
};

/** `is_occurred` is derived: a conference has occurred (started) once `started_at` is set. */
export function toConference(r: ConferenceRow): OnlineConference {
  return {
    id: r.id,
    online_conference_account_id: r.online_conference_account_id,
    public_id: r.public_id,
    title: r.title,
    is_public: bool(r.is_public),
    backer_event_id: r.backer_event_id,
    is_occurred: r.started_at !== null,
    started_at: r.started_at,
    ended_at: r.ended_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
  };
}

const PATCHABLE = ['title', 'is_public', 'started_at', 'ended_at'] as const;

/** `mode`: the store's list mode (see `ListMode`), when `serve`'s read pool may run its lists. */
export function conferenceRepo(db: Db, mode?: ListMode): ConferenceRepo {
  const lists = new ListRunner<ConferenceRow>(db, CONFERENCE_LIST_DEF, mode);
  const insert = db.prepare(`INSERT INTO conferences (tenant_id, online_conference_account_id, public_id, title, is_public,
    backer_event_id, started_at, ended_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const get = db.prepare(`SELECT ${CONFERENCE_COLUMNS} FROM conferences WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL`);
  // Deleted conferences keep their public_id and backing event (decisions §11).
  const publicIdTaken = db.prepare('SELECT 1 FROM conferences WHERE public_id = ? AND tenant_id = ?');
  const backerTaken = db.prepare('SELECT 1 FROM conferences WHERE backer_event_id = ? AND tenant_id = ?');
  const softDelete = db.prepare('UPDATE conferences SET deleted_at = ?, updated_at = ? WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL');
  const getAny = db.prepare(`SELECT ${CONFERENCE_COLUMNS} FROM conferences WHERE tenant_id = ? AND id = ?`);
  const update = db.prepare(`UPDATE conferences SET ${PATCHABLE.map((f) => `${f} = CASE WHEN @has_${f} THEN @${f} ELSE ${f} END`).join(', ')},
    updated_at = @updated_at WHERE tenant_id = @tenant_id AND id = @id AND deleted_at IS NULL`);
  const iso = (t: string | null | undefined) => (t ? new Date(t).toISOString() : null);

  const read = (tenantId: number, id: number) => {
    const r = get.get(tenantId, id) as ConferenceRow | undefined;
    return r && toConference(r);
  };

  return {
    list(tenantId, query) {
      const { rows, total } = lists.run(tenantId, query);
      return { rows: rows.map(toConference), total };
    },
    insert(tenantId, i: ConferenceInsert) {
      const now = nowIso();
      const r = insert.run(tenantId, i.online_conference_account_id, i.public_id, i.title, i.is_public ? 1 : 0,
        i.backer_event_id ?? null, iso(i.started_at), iso(i.ended_at), now, now);
      return read(tenantId, Number(r.lastInsertRowid))!;
    },
    get: read,
    update(tenantId, id, patch) {
      const params: Record<string, unknown> = { tenant_id: tenantId, id, updated_at: nowIso() };
      for (const f of PATCHABLE) {
        const v = patch[f];
        params[`has_${f}`] = v === undefined ? 0 : 1;
        params[f] = v === undefined || v === null ? null : f === 'is_public' ? (v ? 1 : 0) : f === 'title' ? v : iso(v as string);
      }
      if (update.run(params).changes === 0) throw new NotFoundError('Online conference', id);
      return read(tenantId, id)!;
    },
    softDelete(tenantId, id) {
      const now = nowIso();
      if (softDelete.run(now, now, tenantId, id).changes === 0) throw new NotFoundError('Online conference', id);
      return toConference(getAny.get(tenantId, id) as ConferenceRow);
    },
    publicIdTaken: (tenantId, publicId) => publicIdTaken.get(publicId, tenantId) !== undefined,
    backerEventTaken: (tenantId, eventId) => backerTaken.get(eventId, tenantId) !== undefined,
  };
}
