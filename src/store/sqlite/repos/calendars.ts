import type { CalendarEvent, OnlineConference } from '../../../contract/index.js';
import { type Db, immediate } from '../db.js';
import type { CalendarRecord, CalendarRepo, EventInsert, EventPatch, EventRepo } from '../../types.js';
import { bool, nowIso } from '../../util.js';
import { CONFERENCE_COLUMNS, toConference } from '../../rows/conferences.js';
import { EVENT_COLUMNS, type EventAttendeeRow, type EventRow } from '../../rows/calendars.js';

/** Calendars of a user or customer. */
export function calendarRepo(db: Db): CalendarRepo {
  const insert = db.prepare('INSERT INTO calendars (tenant_id, owner_type, owner_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
  const get = db.prepare('SELECT id, tenant_id, owner_type, owner_id, name FROM calendars WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL');
  return {
    insert(tenantId, i) {
      const now = nowIso();
      const id = Number(insert.run(tenantId, i.owner_type, i.owner_id, i.name, now, now).lastInsertRowid);
      return get.get(tenantId, id) as CalendarRecord;
    },
    get: (tenantId, id) => get.get(tenantId, id) as CalendarRecord | undefined,
  };
}

/**
 * Calendar events with their attendees (in insertion order) and the conference they back: the
 * tenant's non-deleted conference whose `backer_event_id` is the event (at most one, by a
 * unique index), else null.
 */
export function eventRepo(db: Db): EventRepo {
  const insert = db.prepare(`INSERT INTO events (tenant_id, calendar_id, title, start, "end", body, location, cancel_note,
    canceled_by_id, canceled_by_type, public_id, provider_event_id, customer_id, meeting_link_id, created_at, updated_at)
    VALUES (@tenant_id, @calendar_id, @title, @start, @end, @body, @location, @cancel_note, @canceled_by_id, @canceled_by_type,
    @public_id, @provider_event_id, @customer_id, @meeting_link_id, @now, @now)`);
  const insertAttendee = db.prepare(`INSERT INTO event_attendees (event_id, email, name, status, is_organizer, customer_id,
    calendar_id) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const get = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE tenant_id = ? AND calendar_id = ? AND id = ? AND deleted_at IS NULL`);
  const exists = db.prepare('SELECT 1 FROM events WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL');
  const attendees = db.prepare(`SELECT email, name, status, is_organizer, customer_id, calendar_id FROM event_attendees
    WHERE event_id = ? ORDER BY id`);
  const backed = db.prepare(`SELECT ${CONFERENCE_COLUMNS} FROM conferences WHERE backer_event_id = ? AND tenant_id = ?
    AND deleted_at IS NULL ORDER BY id LIMIT 1`);
  const calendarOf = db.prepare('SELECT calendar_id FROM events WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL').pluck();
  const update = db.prepare(`UPDATE events SET title = @title, start = @start, "end" = @end, body = @body, location = @location,
    updated_at = @now WHERE tenant_id = @tenant_id AND id = @id AND deleted_at IS NULL`);
  const remove = db.prepare('UPDATE events SET deleted_at = ?, updated_at = ? WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL');
  const iso = (t: string) => new Date(t).toISOString();

  const read = (tenantId: number, calendarId: number, eventId: number): CalendarEvent | undefined => {
    const e = get.get(tenantId, calendarId, eventId) as EventRow | undefined;
    if (!e) return undefined;
    const conf = backed.get(eventId, tenantId) as Parameters<typeof toConference>[0] | undefined;
    const list = (attendees.all(eventId) as EventAttendeeRow[]).map((a) => ({ ...a, is_organizer: bool(a.is_organizer) }));
    const online_conference: OnlineConference | null = conf ? toConference(conf) : null;
    const { created_at, updated_at, deleted_at, ...rest } = e;
    return { ...rest, attendees: list, online_conference, created_at, updated_at, deleted_at };
  };

  return {
    insert: immediate(db, (tenantId: number, i: EventInsert) => {
      const id = Number(
        insert.run({
          tenant_id: tenantId,
          calendar_id: i.calendar_id,
          title: i.title,
          start: iso(i.start),
          end: iso(i.end),
          body: i.body ?? null,
          location: i.location ?? null,
          cancel_note: i.cancel_note ?? null,
          canceled_by_id: i.canceled_by_id ?? null,
          canceled_by_type: i.canceled_by_type ?? null,
          public_id: i.public_id ?? null,
          provider_event_id: i.provider_event_id ?? null,
          customer_id: i.customer_id ?? null,
          meeting_link_id: i.meeting_link_id ?? null,
          now: nowIso(),
        }).lastInsertRowid,
      );
      for (const a of i.attendees ?? []) {
        insertAttendee.run(id, a.email, a.name ?? null, a.status, a.is_organizer ? 1 : 0, a.customer_id ?? null, a.calendar_id ?? null);
      }
      return read(tenantId, i.calendar_id, id)!;
    }),
    get: read,
    exists: (tenantId, eventId) => exists.get(tenantId, eventId) !== undefined,
    calendarOf: (tenantId, eventId) => calendarOf.get(tenantId, eventId) as number | undefined,
    update: immediate(db, (tenantId: number, eventId: number, patch: EventPatch) => {
      const calendarId = calendarOf.get(tenantId, eventId) as number | undefined;
      const before = calendarId === undefined ? undefined : read(tenantId, calendarId, eventId);
      if (calendarId === undefined || !before) return undefined;
      const next = { ...before, ...patch };
      update.run({ tenant_id: tenantId, id: eventId, title: next.title, start: iso(next.start), end: iso(next.end), body: next.body ?? null, location: next.location ?? null, now: nowIso() });
      return read(tenantId, calendarId, eventId);
    }),
    remove: (tenantId, eventId) => {
      const now = nowIso();
      return remove.run(now, now, tenantId, eventId).changes > 0;
    },
  };
}
