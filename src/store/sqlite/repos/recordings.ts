import type { OnlineConferenceRecording } from '../../../contract/index.js';
import type { Db } from '../db.js';
import type { RecordingInsert, RecordingRepo } from '../../types.js';
import { RECORDING_COLUMNS } from '../../rows/conferences.js';
import { NotFoundError, nowIso, pageOffset } from '../../util.js';

const PATCHABLE = ['status', 'file_name', 'path', 'started_at', 'stopped_at'] as const;

/** Conference recordings; `get` is tenant-scoped through the (non-deleted) conference. */
export function recordingRepo(db: Db): RecordingRepo {
  const live = 'r.online_conference_id = ? AND r.deleted_at IS NULL';
  const page = db.prepare(`SELECT ${RECORDING_COLUMNS} FROM recordings r WHERE ${live} ORDER BY r.id LIMIT ? OFFSET ?`);
  const count = db.prepare(`SELECT COUNT(*) FROM recordings r WHERE ${live}`).pluck();
  const byStatus = db.prepare(`SELECT ${RECORDING_COLUMNS} FROM recordings r WHERE ${live} AND r.status = ? ORDER BY r.id`);
  const get = db.prepare(`SELECT ${RECORDING_COLUMNS} FROM recordings r JOIN conferences c ON c.id = r.online_conference_id
    WHERE r.id = ? AND c.tenant_id = ? AND r.deleted_at IS NULL AND c.deleted_at IS NULL`);
  const byId = db.prepare(`SELECT ${RECORDING_COLUMNS} FROM recordings r WHERE r.id = ?`);
  const revoked = db.prepare(`SELECT 1 FROM recordings r JOIN conferences c ON c.id = r.online_conference_id
    WHERE r.id = ? AND c.tenant_id = ? AND c.deleted_at IS NOT NULL`);
  const insert = db.prepare(`INSERT INTO recordings (online_conference_id, status, file_name, path, started_at, stopped_at,
    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const update = db.prepare(`UPDATE recordings SET ${PATCHABLE.map((f) => `${f} = CASE WHEN @has_${f} THEN @${f} ELSE ${f} END`).join(', ')},
    updated_at = @updated_at WHERE id = @id`);
  const iso = (t: string | null | undefined) => (t ? new Date(t).toISOString() : null);
  return {
    listByConference: (conferenceId, p) => ({
      rows: page.all(conferenceId, p.page_size, pageOffset(p)) as OnlineConferenceRecording[],
      total: count.get(conferenceId) as number,
    }),
    get: (tenantId, id) => get.get(id, tenantId) as OnlineConferenceRecording | undefined,
    insert(conferenceId, i: RecordingInsert) {
      const now = nowIso();
      const r = insert.run(conferenceId, i.status, i.file_name ?? null, i.path ?? null, iso(i.started_at), iso(i.stopped_at), now, now);
      return byId.get(Number(r.lastInsertRowid)) as OnlineConferenceRecording;
    },
    update(id, patch) {
      const params: Record<string, unknown> = { id, updated_at: nowIso() };
      for (const f of PATCHABLE) {
        const v = patch[f];
        params[`has_${f}`] = v === undefined ? 0 : 1;
        params[f] = v === undefined || v === null ? null : f === 'started_at' || f === 'stopped_at' ? iso(v as string) : v;
      }
      if (update.run(params).changes === 0) throw new NotFoundError('Online conference recording', id);
      return byId.get(id) as OnlineConferenceRecording;
    },
    revoked: (tenantId, id) => revoked.get(id, tenantId) !== undefined,
    byStatus: (conferenceId, status) => byStatus.all(conferenceId, status) as OnlineConferenceRecording[],
  };
}
