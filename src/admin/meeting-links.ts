/**
 * Meeting links: booking pages of a calendar. Scheduling through one books a new event in the
 * link's calendar for the booker, matched to a customer by e-mail (or a new customer), and writes
 * `events.created` and `meeting_links.scheduled` to the outbox in the same transaction. Each
 * change is one unit (./change.ts) on either store.
 */
import type { Awaitable, DataStore } from '../store/port.js';
import { ask, recovering, type Steps } from '../store/steps.js';
import type { EventInsert, MeetingLinkRecord } from '../store/types.js';
import { UniqueViolation } from '../store/util.js';
import { change } from './change.js';
import { AdminError } from './errors.js';
import { emitEvent } from './events.js';

export interface NewMeetingLink {
  calendar_id: number;
  name: string;
  duration_minutes: number;
}

/** What a new link must be before anything is written: a name, a whole number of minutes. */
export function checkNewLink(input: NewMeetingLink): void {
  if (!input.name.trim()) throw new AdminError('invalid', 'the name must not be empty');
  if (!Number.isInteger(input.duration_minutes) || input.duration_minutes < 1) throw new AdminError('invalid', 'the duration must be a whole number of minutes, at least 1');
}

export const noCalendar = (id: number) => new AdminError('not_found', `no calendar ${id} in this tenant`);

export function* createMeetingLinkSteps(tenantId: number, input: NewMeetingLink): Steps<MeetingLinkRecord> {
  checkNewLink(input);
  if (!(yield* ask((s) => s.calendars.get(tenantId, input.calendar_id)))) throw noCalendar(input.calendar_id);
  return yield* ask((s) => s.meetingLinks.insert(tenantId, input));
}

export const createMeetingLink = change(createMeetingLinkSteps);

export interface Booker {
  name: string;
  email: string;
  contact_number: string | null;
}

export interface Scheduled {
  link: MeetingLinkRecord;
  event_id: number;
  customer_id: number;
  /** True when no customer had the booker's e-mail, so one was created. */
  customer_created: boolean;
}

/** Splits "Ada King Lovelace" into first "Ada" and last "King Lovelace" (a single word is both). */
export function nameParts(name: string): { first_name: string; last_name: string } {
  const [first, ...rest] = name.trim().split(/\s+/);
  return { first_name: first, last_name: rest.length ? rest.join(' ') : first };
}

/** What a booker must be before anything is written: a name and an e-mail address. */
export function checkBooker(booker: Booker): void {
  if (!booker.name.trim()) throw new AdminError('invalid', "the booker's name must not be empty");
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(booker.email)) throw new AdminError('invalid', `'${booker.email}' is not an e-mail address`);
}

export const noLink = (id: number) => new AdminError('not_found', `no meeting link ${id} in this tenant`);

/** The booked event: the link's length from `start`, in the link's calendar, the booker its attendee. */
export function bookedEvent(link: MeetingLinkRecord, booker: Booker, customerId: number, start: string): EventInsert {
  return {
    calendar_id: link.calendar_id,
    title: `${link.name}: ${booker.name}`,
    start,
    end: new Date(Date.parse(start) + link.duration_minutes * 60_000).toISOString(),
    customer_id: customerId,
    meeting_link_id: link.id,
    attendees: [{ email: booker.email, name: booker.name, status: 1, is_organizer: false, customer_id: customerId, calendar_id: null }],
  };
}

/** The data of `meeting_links.scheduled` (decisions §13). */
export const scheduledData = (link: MeetingLinkRecord, eventId: number, booker: Booker) => ({
  id: link.id,
  event_id: eventId,
  calendar_id: link.calendar_id,
  name: booker.name,
  email: booker.email,
  contact_number: booker.contact_number,
});

export function* scheduleSteps(tenantId: number, linkId: number, booker: Booker, start: string): Steps<Scheduled> {
  checkBooker(booker);
  const link = yield* ask((s) => s.meetingLinks.get(tenantId, linkId));
  if (!link) throw noLink(linkId);
  const known = yield* ask((s) => s.customers.findByEmail(tenantId, booker.email));
  const customer = known ?? (yield* ask((s) => s.customers.insert(tenantId, { ...nameParts(booker.name), email: booker.email, contact_number: booker.contact_number })));
  const event = yield* ask((s) => s.events.insert(tenantId, bookedEvent(link, booker, customer.id, start)));
  yield* ask((s) => emitEvent(s, tenantId, 'events.created', event));
  yield* ask((s) => s.webhookOutbox.enqueue(tenantId, 'meeting_links.scheduled', scheduledData(link, event.id, booker)));
  return { link, event_id: event.id, customer_id: customer.id, customer_created: !known };
}

/** Bookings of one e-mail take turns on a lock named after it, so the customer is made once. */
const book = change(scheduleSteps, (tenantId, _linkId, booker) => ({ locks: [`customers.email:${tenantId}:${booker.email.toLowerCase()}`] }));

/**
 * Books through a link. When a customer of the booker's e-mail was made meanwhile outside this
 * command (the API, on PostgreSQL), the booking runs once more and finds it.
 */
export function scheduleMeeting(store: DataStore, tenantId: number, linkId: number, booker: Booker, start: string): Awaitable<Scheduled> {
  return recovering(
    () => book(store, tenantId, linkId, booker, start),
    (err) => {
      if (err instanceof UniqueViolation) return book(store, tenantId, linkId, booker, start);
      throw err;
    },
  );
}
