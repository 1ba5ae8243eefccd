import type { Db } from '../db.js';
import type { MeetingLinkRecord, MeetingLinkRepo } from '../../types.js';
import { nowIso } from '../../util.js';

/** Meeting links: booking pages of a calendar, per tenant. */
export function meetingLinkRepo(db: Db): MeetingLinkRepo {
  const cols = 'id, tenant_id, calendar_id, name, duration_minutes, created_at';
  const insert = db.prepare('INSERT INTO meeting_links (tenant_id, calendar_id, name, duration_minutes, created_at) VALUES (?, ?, ?, ?, ?)');
  const get = db.prepare(`SELECT ${cols} FROM meeting_links WHERE tenant_id = ? AND id = ?`);
  const list = db.prepare(`SELECT ${cols} FROM meeting_links WHERE tenant_id = ? ORDER BY id`);
  return {
    insert(tenantId, i) {
      const id = Number(insert.run(tenantId, i.calendar_id, i.name, i.duration_minutes, nowIso()).lastInsertRowid);
      return get.get(tenantId, id) as MeetingLinkRecord;
    },
    get: (tenantId, id) => get.get(tenantId, id) as MeetingLinkRecord | undefined,
    list: (tenantId) => list.all(tenantId) as MeetingLinkRecord[],
  };
}
