import type pg from 'pg';
import type { CalendarEvent, ConnectedAccount, ListQuery, OnlineConference, OnlineConferenceAccount, OnlineConferenceAttendee, OnlineConferenceRecording, PageQuery, TypeName } from '../../contract/index.js';
import { CONFERENCE_ACCOUNT_COLUMNS, CONNECTED_COLUMNS } from '../rows/accounts.js';
import { ATTENDEE_COLUMNS } from '../rows/conferences.js';
import { EVENT_COLUMNS, type EventAttendeeRow, type EventRow } from '../rows/calendars.js';
import { CONFERENCE_COLUMNS, CONFERENCE_LIST_DEF, type ConferenceRow, toConference } from '../rows/conferences.js';
import { RECORDING_COLUMNS } from '../rows/conferences.js';
import type { AttendeeInsert, CalendarRecord, ConferenceInsert, ConnectedAccountInsert, ConferenceAccountInsert, EventInsert, EventPatch, ListResult, ProviderRecord, RecordingInsert } from '../types.js';
import { bool, NotFoundError, nowIso, pageOffset } from '../util.js';
import { type ListReads, patchSet, runList } from './people.js';
import { all, guardUnique, one, type Queryable } from './pool.js';
import { fold } from './folded.js';

const iso = (t: string | null | undefined) => (t ? new Date(t).toISOString() : null);

/** A page of rows by id and its total, for the page-only lists (accounts, attendees, recordings). */
async function pageById<R extends pg.QueryResultRow>(db: Queryable, columns: string, from: string, where: string, args: unknown[], p: PageQuery): Promise<ListResult<R>> {
  const n = args.length;
  const [rows, total] = await Promise.all([
    all<R>(db, `SELECT ${columns} FROM ${from} WHERE ${where} ORDER BY id LIMIT $${n + 1} OFFSET $${n + 2}`, [...args, p.page_size, pageOffset(p)]),
    one<{ n: number }>(db, `SELECT count(*) AS n FROM ${from} WHERE ${where}`, args),
  ]);
  return { rows, total: total!.n };
}

export function pgProviders(db: Queryable) {
  return {
    ensure: async (name: string): Promise<ProviderRecord> => {
      await db.query('INSERT INTO providers (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, nowIso()]);
      return (await one<ProviderRecord>(db, 'SELECT id, name FROM providers WHERE name = $1', [name]))!;
    },
    list: () => all<ProviderRecord>(db, 'SELECT id, name FROM providers ORDER BY id'),
  };
}

/** Connected accounts or conference accounts of an owner (one shape, two tables). */
function ownedAccounts<R extends pg.QueryResultRow, I>(db: Queryable, table: string, columns: string, insertColumns: string[], values: (i: I) => unknown[]) {
  const where = 'owner_id = $1 AND owner_type = $2 AND tenant_id = $3 AND deleted_at IS NULL';
  const get = (tenantId: number, id: number) => one<R>(db, `SELECT ${columns} FROM ${table} WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, [tenantId, id]);
  return {
    insert: async (tenantId: number, i: I): Promise<R> => {
      const now = nowIso();
      const args = [tenantId, ...values(i), now, now];
      const cols = ['tenant_id', ...insertColumns, 'created_at', 'updated_at'];
      const r = await one<{ id: number }>(db, `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${args.map((_, k) => `$${k + 1}`).join(', ')}) RETURNING id`, args);
      return (await get(tenantId, r!.id))!;
    },
    get,
    listByOwner: (tenantId: number, ownerType: TypeName, ownerId: number, p: PageQuery) => pageById<R>(db, columns, table, where, [ownerId, ownerType, tenantId], p),
  };
}

export const pgConnectedAccounts = (db: Queryable) =>
  ownedAccounts<ConnectedAccount, ConnectedAccountInsert>(db, 'connected_accounts', CONNECTED_COLUMNS, ['owner_type', 'owner_id', 'provider_id', 'provider_uid', 'provider_email'], (i) => [
    i.owner_type, i.owner_id, i.provider_id, i.provider_uid, i.provider_email ?? null,
  ]);

export const pgConferenceAccounts = (db: Queryable) =>
  ownedAccounts<OnlineConferenceAccount, ConferenceAccountInsert>(db, 'conference_accounts', CONFERENCE_ACCOUNT_COLUMNS, ['owner_type', 'owner_id', 'connected_account_id', 'name'], (i) => [
    i.owner_type, i.owner_id, i.connected_account_id ?? null, i.name,
  ]);

const CONFERENCE_PATCHABLE = ['title', 'is_public', 'started_at', 'ended_at'] as const;

/** Conferences (as the SQLite store's `conferenceRepo`): rows are never removed, so ids are never reused. */
export function pgConferences(db: Queryable, reads?: ListReads) {
  const read = async (tenantId: number, id: number, live = true, forUpdate = false): Promise<OnlineConference | undefined> => {
    const r = await one<ConferenceRow>(
      db,
      `SELECT ${CONFERENCE_COLUMNS} FROM conferences WHERE tenant_id = $1 AND id = $2${live ? ' AND deleted_at IS NULL' : ''}${forUpdate ? ' FOR UPDATE' : ''}`,
      [tenantId, id],
    );
    return r && toConference(r);
  };
  return {
    list: (tenantId: number, query: ListQuery) => runList(db, CONFERENCE_LIST_DEF, tenantId, query, toConference, reads),
    insert: async (tenantId: number, i: ConferenceInsert): Promise<OnlineConference> => {
      const now = nowIso();
      const r = await guardUnique(
        one<{ id: number }>(
          db,
          `INSERT INTO conferences (tenant_id, online_conference_account_id, public_id, title, is_public, backer_event_id, started_at, ended_at,
            created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id`,
          [tenantId, i.online_conference_account_id, i.public_id, i.title, i.is_public ? 1 : 0, i.backer_event_id ?? null, iso(i.started_at), iso(i.ended_at), now],
        ),
      );
      return (await read(tenantId, r!.id))!;
    },
    /** With `forUpdate` (inside a transaction) the row stays locked until commit, so changes of one conference take turns. */
    get: (tenantId: number, id: number, forUpdate = false) => read(tenantId, id, true, forUpdate),
    update: async (tenantId: number, id: number, patch: Partial<Pick<ConferenceInsert, 'title' | 'is_public' | 'started_at' | 'ended_at'>>) => {
      const values: unknown[] = [tenantId, id];
      const set = patchSet(patch, CONFERENCE_PATCHABLE, values, (f, v) => (v === null ? null : f === 'is_public' ? (v ? 1 : 0) : f === 'title' ? v : iso(v as string)));
      const r = await db.query(`UPDATE conferences SET ${set} WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, values);
      if (r.rowCount === 0) throw new NotFoundError('Online conference', id);
      return (await read(tenantId, id))!;
    },
    softDelete: async (tenantId: number, id: number) => {
      const now = nowIso();
      const r = await db.query('UPDATE conferences SET deleted_at = $1, updated_at = $1 WHERE tenant_id = $2 AND id = $3 AND deleted_at IS NULL', [now, tenantId, id]);
      if (r.rowCount === 0) throw new NotFoundError('Online conference', id);
      return (await read(tenantId, id, false))!;
    },
    publicIdTaken: async (tenantId: number, publicId: string) => (await one(db, 'SELECT 1 FROM conferences WHERE public_id = $1 AND tenant_id = $2', [publicId, tenantId])) !== undefined,
    backerEventTaken: async (tenantId: number, eventId: number) => (await one(db, 'SELECT 1 FROM conferences WHERE backer_event_id = $1 AND tenant_id = $2', [eventId, tenantId])) !== undefined,
  };
}

/** Attendees of a conference; callers check the conference is the tenant's first. */
export function pgAttendees(db: Queryable) {
  const live = 'online_conference_id = $1 AND deleted_at IS NULL';
  return {
    listByConference: (conferenceId: number, p: PageQuery) => pageById<OnlineConferenceAttendee>(db, ATTENDEE_COLUMNS, 'conference_attendees', live, [conferenceId], p),
    count: async (conferenceId: number) => (await one<{ n: number }>(db, `SELECT count(*) AS n FROM conference_attendees WHERE ${live}`, [conferenceId]))!.n,
    get: (conferenceId: number, id: number) => one<OnlineConferenceAttendee>(db, `SELECT ${ATTENDEE_COLUMNS} FROM conference_attendees WHERE ${live} AND id = $2`, [conferenceId, id]),
    findByEmail: (conferenceId: number, email: string) =>
      one<OnlineConferenceAttendee>(db, `SELECT ${ATTENDEE_COLUMNS} FROM conference_attendees WHERE ${live} AND ${fold('email')} = ${fold('$2::text')}`, [conferenceId, email]),
    insert: async (conferenceId: number, i: AttendeeInsert) => {
      const now = nowIso();
      return (await one<OnlineConferenceAttendee>(
        db,
        `INSERT INTO conference_attendees (online_conference_id, email, name, attendee_type, attendee_id, joined_at, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${ATTENDEE_COLUMNS}`,
        [conferenceId, i.email, i.name, i.attendee_type, i.attendee_id, iso(i.joined_at), now],
      ))!;
    },
    softDelete: async (conferenceId: number, id: number) => {
      const now = nowIso();
      const r = await one<OnlineConferenceAttendee>(db, `UPDATE conference_attendees SET deleted_at = $1, updated_at = $1 WHERE ${live.replace('$1', '$2')} AND id = $3 RETURNING ${ATTENDEE_COLUMNS}`, [now, conferenceId, id]);
      if (!r) throw new NotFoundError('Online conference attendee', id);
      return r;
    },
  };
}

const RECORDING_PATCHABLE = ['status', 'file_name', 'path', 'started_at', 'stopped_at'] as const;

/** Recordings; `get` is tenant-scoped through the (live) conference. */
export function pgRecordings(db: Queryable) {
  const byId = (id: number) => one<OnlineConferenceRecording>(db, `SELECT ${RECORDING_COLUMNS} FROM recordings r WHERE r.id = $1`, [id]);
  return {
    listByConference: (conferenceId: number, p: PageQuery) =>
      pageById<OnlineConferenceRecording>(db, RECORDING_COLUMNS, 'recordings r', 'r.online_conference_id = $1 AND r.deleted_at IS NULL', [conferenceId], p),
    /** With `lock` (inside a transaction) the recording's row stays locked until commit, so changes of one recording take turns. */
    get: (tenantId: number, id: number, lock = false) =>
      one<OnlineConferenceRecording>(
        db,
        `SELECT ${RECORDING_COLUMNS} FROM recordings r JOIN conferences c ON c.id = r.online_conference_id
          WHERE r.id = $1 AND c.tenant_id = $2 AND r.deleted_at IS NULL AND c.deleted_at IS NULL${lock ? ' FOR UPDATE OF r' : ''}`,
        [id, tenantId],
      ),
    insert: async (conferenceId: number, i: RecordingInsert) => {
      const now = nowIso();
      const r = await one<{ id: number }>(
        db,
        `INSERT INTO recordings (online_conference_id, status, file_name, path, started_at, stopped_at, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`,
        [conferenceId, i.status, i.file_name ?? null, i.path ?? null, iso(i.started_at), iso(i.stopped_at), now],
      );
      return (await byId(r!.id))!;
    },
    update: async (id: number, patch: Partial<RecordingInsert>) => {
      const values: unknown[] = [id];
      const set = patchSet(patch, RECORDING_PATCHABLE, values, (f, v) => (v === null ? null : f === 'started_at' || f === 'stopped_at' ? iso(v as string) : v));
      const r = await db.query(`UPDATE recordings SET ${set} WHERE id = $1`, values);
      if (r.rowCount === 0) throw new NotFoundError('Online conference recording', id);
      return (await byId(id))!;
    },
    revoked: async (tenantId: number, id: number) =>
      (await one(db, `SELECT 1 FROM recordings r JOIN conferences c ON c.id = r.online_conference_id WHERE r.id = $1 AND c.tenant_id = $2 AND c.deleted_at IS NOT NULL`, [id, tenantId])) !== undefined,
    byStatus: (conferenceId: number, status: number) =>
      all<OnlineConferenceRecording>(db, `SELECT ${RECORDING_COLUMNS} FROM recordings r WHERE r.online_conference_id = $1 AND r.deleted_at IS NULL AND r.status = $2 ORDER BY r.id`, [conferenceId, status]),
  };
}

export function pgCalendars(db: Queryable) {
  const get = (tenantId: number, id: number) =>
    one<CalendarRecord>(db, 'SELECT id, tenant_id, owner_type, owner_id, name FROM calendars WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL', [tenantId, id]);
  return {
    insert: async (tenantId: number, i: { owner_type: TypeName; owner_id: number; name: string }) => {
      const now = nowIso();
      const r = await one<{ id: number }>(db, 'INSERT INTO calendars (tenant_id, owner_type, owner_id, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id', [
        tenantId, i.owner_type, i.owner_id, i.name, now,
      ]);
      return (await get(tenantId, r!.id))!;
    },
    get,
  };
}

/** Calendar events with their attendees and the live conference they back (or null). */
export function pgEvents(db: Queryable, atomically: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>) {
  const read = async (q: Queryable, tenantId: number, calendarId: number, eventId: number): Promise<CalendarEvent | undefined> => {
    const e = await one<EventRow>(q, `SELECT ${EVENT_COLUMNS} FROM events WHERE tenant_id = $1 AND calendar_id = $2 AND id = $3 AND deleted_at IS NULL`, [tenantId, calendarId, eventId]);
    if (!e) return undefined;
    const [conf, attendees] = await Promise.all([
      one<ConferenceRow>(q, `SELECT ${CONFERENCE_COLUMNS} FROM conferences WHERE backer_event_id = $1 AND tenant_id = $2 AND deleted_at IS NULL ORDER BY id LIMIT 1`, [eventId, tenantId]),
      all<EventAttendeeRow>(q, 'SELECT email, name, status, is_organizer, customer_id, calendar_id FROM event_attendees WHERE event_id = $1 ORDER BY id', [eventId]),
    ]);
    const { created_at, updated_at, deleted_at, ...rest } = e;
    const list = attendees.map((a) => ({ ...a, is_organizer: bool(a.is_organizer) }));
    return { ...rest, attendees: list, online_conference: conf ? toConference(conf) : null, created_at, updated_at, deleted_at };
  };
  return {
    insert: (tenantId: number, i: EventInsert) =>
      atomically(async (tx) => {
        const r = await one<{ id: number }>(
          tx,
          `INSERT INTO events (tenant_id, calendar_id, title, start, "end", body, location, cancel_note, canceled_by_id, canceled_by_type, public_id,
            provider_event_id, customer_id, meeting_link_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) RETURNING id`,
          [tenantId, i.calendar_id, i.title, iso(i.start), iso(i.end), i.body ?? null, i.location ?? null, i.cancel_note ?? null, i.canceled_by_id ?? null,
            i.canceled_by_type ?? null, i.public_id ?? null, i.provider_event_id ?? null, i.customer_id ?? null, i.meeting_link_id ?? null, nowIso()],
        );
        for (const a of i.attendees ?? []) {
          await tx.query('INSERT INTO event_attendees (event_id, email, name, status, is_organizer, customer_id, calendar_id) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
            r!.id, a.email, a.name ?? null, a.status, a.is_organizer ? 1 : 0, a.customer_id ?? null, a.calendar_id ?? null,
          ]);
        }
        return (await read(tx, tenantId, i.calendar_id, r!.id))!;
      }),
    get: (tenantId: number, calendarId: number, eventId: number) => read(db, tenantId, calendarId, eventId),
    exists: async (tenantId: number, eventId: number) => (await one(db, 'SELECT 1 FROM events WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL', [tenantId, eventId])) !== undefined,
    /**
     * The calendar of a live event of the tenant, or undefined; with `lock` (inside a
     * transaction) its row stays locked until commit, so changes of one event take turns.
     */
    calendarOf: async (tenantId: number, eventId: number, lock = false): Promise<number | undefined> =>
      (await one<{ calendar_id: number }>(db, `SELECT calendar_id FROM events WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`, [tenantId, eventId]))
        ?.calendar_id,
    /** Changes the given fields of a live event (as SQLite's `update`); the event as it now is, or undefined. */
    update: (tenantId: number, eventId: number, patch: EventPatch): Promise<CalendarEvent | undefined> =>
      atomically(async (tx) => {
        const e = await one<{ calendar_id: number }>(tx, 'SELECT calendar_id FROM events WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE', [tenantId, eventId]);
        const before = e && (await read(tx, tenantId, e.calendar_id, eventId));
        if (!e || !before) return undefined;
        const next = { ...before, ...patch };
        await tx.query('UPDATE events SET title = $3, start = $4, "end" = $5, body = $6, location = $7, updated_at = $8 WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL', [
          tenantId, eventId, next.title, iso(next.start), iso(next.end), next.body ?? null, next.location ?? null, nowIso(),
        ]);
        return read(tx, tenantId, e.calendar_id, eventId);
      }),
    /** Deletes a live event softly; false when there is none. */
    remove: async (tenantId: number, eventId: number): Promise<boolean> => {
      const now = nowIso();
      return ((await db.query('UPDATE events SET deleted_at = $1, updated_at = $1 WHERE tenant_id = $2 AND id = $3 AND deleted_at IS NULL', [now, tenantId, eventId])).rowCount ?? 0) > 0;
    },
  };
}
