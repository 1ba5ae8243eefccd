import type { OnlineConferenceAttendee } from '../../../contract/index.js';
import type { Db } from '../db.js';
import type { AttendeeRepo } from '../../types.js';
import { ATTENDEE_COLUMNS } from '../../rows/conferences.js';
import { NotFoundError, nowIso, pageOffset } from '../../util.js';


/**
 * Conference attendees. Callers check the conference belongs to the tenant first. An email
 * attends a conference at most once (case-insensitive, among non-deleted attendees).
 */
export function attendeeRepo(db: Db): AttendeeRepo {
  const live = 'online_conference_id = ? AND deleted_at IS NULL';
  const page = db.prepare(`SELECT ${ATTENDEE_COLUMNS} FROM conference_attendees WHERE ${live} ORDER BY id LIMIT ? OFFSET ?`);
  const count = db.prepare(`SELECT COUNT(*) FROM conference_attendees WHERE ${live}`).pluck();
  const byEmail = db.prepare(`SELECT ${ATTENDEE_COLUMNS} FROM conference_attendees WHERE ${live} AND email = ? COLLATE NOCASE`);
  const byId = db.prepare(`SELECT ${ATTENDEE_COLUMNS} FROM conference_attendees WHERE id = ?`);
  const liveById = db.prepare(`SELECT ${ATTENDEE_COLUMNS} FROM conference_attendees WHERE ${live} AND id = ?`);
  const softDelete = db.prepare('UPDATE conference_attendees SET deleted_at = ?, updated_at = ? WHERE online_conference_id = ? AND id = ? AND deleted_at IS NULL');
  const insert = db.prepare(`INSERT INTO conference_attendees (online_conference_id, email, name, attendee_type, attendee_id,
    joined_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  return {
    listByConference: (conferenceId, p) => ({
      rows: page.all(conferenceId, p.page_size, pageOffset(p)) as OnlineConferenceAttendee[],
      total: count.get(conferenceId) as number,
    }),
    count: (conferenceId) => count.get(conferenceId) as number,
    get: (conferenceId, id) => liveById.get(conferenceId, id) as OnlineConferenceAttendee | undefined,
    softDelete(conferenceId, id) {
      const now = nowIso();
      if (softDelete.run(now, now, conferenceId, id).changes === 0) throw new NotFoundError('Online conference attendee', id);
      return byId.get(id) as OnlineConferenceAttendee;
    },
    findByEmail: (conferenceId, email) => byEmail.get(conferenceId, email) as OnlineConferenceAttendee | undefined,
    insert(conferenceId, i) {
      const now = nowIso();
      const joined = i.joined_at ? new Date(i.joined_at).toISOString() : null;
      const r = insert.run(conferenceId, i.email, i.name, i.attendee_type, i.attendee_id, joined, now, now);
      return byId.get(Number(r.lastInsertRowid)) as OnlineConferenceAttendee;
    },
  };
}
