/**
 * The changes of `admin events`, `admin meeting-links` and `admin webhooks trigger` on the
 * PostgreSQL store (`--database`): the same rules and webhook events as the SQLite functions of
 * events.ts, meeting-links.ts and trigger.ts, each change one PostgreSQL transaction in which the
 * change and its outbox rows commit together, or neither. Where SQLite's write lock serialises a
 * change against every other writer, these lock what they read: the event's row (`FOR UPDATE`),
 * the tenant's conference lock (deleting an event checks no conference is backed by it), the
 * booker's e-mail (a customer is made once), and the destinations they queue for (`FOR SHARE`).
 */
import type { CalendarEvent } from '../contract/index.js';
import { pgCalendars, pgEvents } from '../store/postgres/conferences.js';
import { pgCustomers } from '../store/postgres/people.js';
import { inTransaction, type Queryable } from '../store/postgres/pool.js';
import { pgMeetingLinks, pgWebhookOutbox } from '../store/postgres/webhooks.js';
import type { EventPatch, MeetingLinkRecord } from '../store/types.js';
import { UniqueViolation } from '../store/util.js';
import type { EventType } from '../webhooks/destinations.js';
import { checkNewEvent, checkPatch, checkSpan, type EventChange, missing, type NewEvent, refuseIfBacking, typesOf } from './events.js';
import { type Booker, bookedEvent, checkBooker, checkNewLink, nameParts, type NewMeetingLink, noCalendar, noLink, type Scheduled, scheduledData } from './meeting-links.js';
import { type TriggerResult, triggerPlan } from './trigger.js';

/** Where the changes run: the PostgreSQL store's pool. */
export interface PgTarget {
  pool: import('pg').Pool;
}

/** The repositories of one transaction: every read and write on its client. */
function repos(tx: Queryable) {
  const inThis = <T>(work: (q: Queryable) => Promise<T>) => work(tx);
  return {
    tx,
    calendars: pgCalendars(tx),
    events: pgEvents(tx, inThis),
    customers: pgCustomers(tx),
    meetingLinks: pgMeetingLinks(tx),
    outbox: pgWebhookOutbox(tx),
  };
}
type Repos = ReturnType<typeof repos>;

const change = <T>(target: PgTarget, work: (r: Repos) => Promise<T>) => inTransaction(target.pool, (tx) => work(repos(tx)));

/** Waits, inside the transaction, for the lock named `name` (held until commit). */
const lockName = (tx: Queryable, name: string) => tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);

const emit = (r: Repos, tenantId: number, type: EventType, event: { id: number; calendar_id: number }) =>
  r.outbox.enqueue(tenantId, type, { id: event.id, calendar_id: event.calendar_id });

/** The tenant's live event with its row locked until commit; else `not_found`. */
async function lockedEvent(r: Repos, tenantId: number, id: number): Promise<CalendarEvent> {
  const calendarId = await r.events.calendarOf(tenantId, id, true);
  const event = calendarId === undefined ? undefined : await r.events.get(tenantId, calendarId, id);
  if (!event) throw missing(id);
  return event;
}

export async function createEvent(target: PgTarget, tenantId: number, input: NewEvent): Promise<EventChange> {
  checkNewEvent(input);
  return change(target, async (r) => {
    if (!(await r.calendars.get(tenantId, input.calendar_id))) throw noCalendar(input.calendar_id);
    const event = await r.events.insert(tenantId, input);
    await emit(r, tenantId, 'events.created', event);
    return { event, emitted: ['events.created'] };
  });
}

export async function updateEvent(target: PgTarget, tenantId: number, id: number, patch: EventPatch): Promise<EventChange> {
  checkPatch(patch);
  return change(target, async (r) => {
    const before = await lockedEvent(r, tenantId, id);
    checkSpan(patch.start ?? before.start, patch.end ?? before.end);
    const emitted = typesOf(before, patch);
    const event = emitted.length ? (await r.events.update(tenantId, id, patch))! : before;
    for (const type of emitted) await emit(r, tenantId, type, event);
    return { event, emitted };
  });
}

export async function deleteEvent(target: PgTarget, tenantId: number, id: number): Promise<EventChange> {
  return change(target, async (r) => {
    // The lock conference creation takes (store/postgres/units.ts): none backed by this event can appear meanwhile.
    await lockName(r.tx, `conferences:${tenantId}`);
    const event = await lockedEvent(r, tenantId, id);
    refuseIfBacking(event);
    await r.events.remove(tenantId, id);
    await emit(r, tenantId, 'events.deleted', event);
    return { event, emitted: ['events.deleted'] };
  });
}

export async function createMeetingLink(target: PgTarget, tenantId: number, input: NewMeetingLink): Promise<MeetingLinkRecord> {
  checkNewLink(input);
  return change(target, async (r) => {
    if (!(await r.calendars.get(tenantId, input.calendar_id))) throw noCalendar(input.calendar_id);
    return r.meetingLinks.insert(tenantId, input);
  });
}

export const listMeetingLinks = (target: PgTarget, tenantId: number) => pgMeetingLinks(target.pool).list(tenantId);

/**
 * Books through a link as SQLite's `scheduleMeeting` does. Bookings of one e-mail take turns on a
 * lock named after it, so the customer is made once; when a customer of that e-mail was made
 * meanwhile outside this command (the API), the booking runs once more and finds it.
 */
export async function scheduleMeeting(target: PgTarget, tenantId: number, linkId: number, booker: Booker, start: string): Promise<Scheduled> {
  checkBooker(booker);
  const book = () =>
    change(target, async (r) => {
      const link = await r.meetingLinks.get(tenantId, linkId);
      if (!link) throw noLink(linkId);
      await lockName(r.tx, `customers.email:${tenantId}:${booker.email.toLowerCase()}`);
      const known = await r.customers.findByEmail(tenantId, booker.email);
      const customer = known ?? (await r.customers.insert(tenantId, { ...nameParts(booker.name), email: booker.email, contact_number: booker.contact_number }));
      const event = await r.events.insert(tenantId, bookedEvent(link, booker, customer.id, start));
      await emit(r, tenantId, 'events.created', event);
      await r.outbox.enqueue(tenantId, 'meeting_links.scheduled', scheduledData(link, event.id, booker));
      return { link, event_id: event.id, customer_id: customer.id, customer_created: !known };
    });
  try {
    return await book();
  } catch (err) {
    if (err instanceof UniqueViolation) return book();
    throw err;
  }
}

/** `admin webhooks trigger` on PostgreSQL: the changes of SQLite's `trigger`, each its own transaction as there. */
export async function trigger(target: PgTarget, tenantId: number, type: string, now: Date): Promise<TriggerResult> {
  const { tag, email, at } = triggerPlan(type, now);
  const calendar = await change(target, async (r) => {
    const customer = await r.customers.insert(tenantId, { first_name: 'Webhook', last_name: `Trigger ${tag}`, email });
    return r.calendars.insert(tenantId, { owner_type: 'Customer', owner_id: customer.id, name: `Webhook trigger ${tag}` });
  });
  if (type === 'meeting_links.scheduled') {
    const link = await createMeetingLink(target, tenantId, { calendar_id: calendar.id, name: `Webhook trigger ${tag}`, duration_minutes: 30 });
    const booked = await scheduleMeeting(target, tenantId, link.id, { name: `Webhook Trigger ${tag}`, email, contact_number: null }, at(0));
    return { customer_id: calendar.owner_id, calendar_id: calendar.id, event_id: booked.event_id, emitted: ['events.created', 'meeting_links.scheduled'] };
  }
  const created = await createEvent(target, tenantId, { calendar_id: calendar.id, title: `Webhook trigger ${tag}`, start: at(0), end: at(30) });
  const emitted = [...created.emitted];
  const id = created.event.id;
  if (type === 'events.updated') emitted.push(...(await updateEvent(target, tenantId, id, { title: `Webhook trigger ${tag} (updated)` })).emitted);
  if (type === 'events.rescheduled') emitted.push(...(await updateEvent(target, tenantId, id, { start: at(60), end: at(90) })).emitted);
  if (type === 'events.deleted') emitted.push(...(await deleteEvent(target, tenantId, id)).emitted);
  return { customer_id: calendar.owner_id, calendar_id: calendar.id, event_id: id, emitted };
}
