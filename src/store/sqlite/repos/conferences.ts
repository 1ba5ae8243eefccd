import type { Db } from '../db.js';
import { type ListMode, ListRunner } from '../list-query.js';
import type { ConferenceInsert, ConferenceRepo } from '../../types.js';
import { NotFoundError, nowIso } from '../../util.js';
import { CONFERENCE_COLUMNS, CONFERENCE_LIST_DEF, type ConferenceRow, toConference } from '../../rows/conferences.js';

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
