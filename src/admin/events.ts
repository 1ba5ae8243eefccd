/**
 * Calendar event changes made by `confctl admin events …`, each with its webhook events
 * (decisions §13) written to the outbox in the same transaction: creating yields
 * `events.created`; changing `start` or `end` yields `events.rescheduled`, changing anything else
 * `events.updated` (both when both change); deleting yields `events.deleted`. A change that
 * changes nothing yields nothing. Each change is one unit (./change.ts) on either store; it locks
 * the event it changes, so changes of one event take turns.
 */
import type { CalendarEvent } from '../contract/index.js';
import type { Awaitable, DataStore } from '../store/port.js';
import { ask, type Steps } from '../store/steps.js';
import type { EventPatch } from '../store/types.js';
import { conferencesLock } from '../store/units.js';
import type { EventType } from '../webhooks/destinations.js';
import { change } from './change.js';
import { AdminError } from './errors.js';

export interface EventChange {
  event: CalendarEvent;
  /** The webhook event types the change produced, in the order they were written. */
  emitted: EventType[];
}

export interface NewEvent {
  calendar_id: number;
  title: string;
  start: string;
  end: string;
  body?: string | null;
  location?: string | null;
}

/** Writes the event's webhook deliveries (either store: await the answer on PostgreSQL); call inside the change's transaction. */
export function emitEvent(store: Pick<DataStore, 'webhookOutbox'>, tenantId: number, type: EventType, event: { id: number; calendar_id: number }): Awaitable<number> {
  return store.webhookOutbox.enqueue(tenantId, type, { id: event.id, calendar_id: event.calendar_id });
}

/** A time as stored (ISO 8601 UTC), or an `invalid` error naming the flag. */
export function eventTime(flag: string, text: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw new AdminError('invalid', `${flag} must be an ISO 8601 date-time such as 2026-12-01T09:00:00Z, not '${text}'`);
  return new Date(ms).toISOString();
}

export function checkSpan(start: string, end: string): void {
  if (Date.parse(end) <= Date.parse(start)) throw new AdminError('invalid', `the end (${end}) must be after the start (${start})`);
}

/** What a new event must be before anything is written: a title, an end after its start. */
export function checkNewEvent(input: NewEvent): void {
  if (!input.title.trim()) throw new AdminError('invalid', 'the title must not be empty');
  checkSpan(input.start, input.end);
}

/** What a patch must be before anything is written: a title, if it gives one, that is not empty. */
export function checkPatch(patch: EventPatch): void {
  if (patch.title !== undefined && !patch.title.trim()) throw new AdminError('invalid', 'the title must not be empty');
}

/** The tenant's live event; inside a unit its row is locked until commit (PostgreSQL). */
function* lockedEvent(tenantId: number, id: number): Steps<CalendarEvent> {
  const calendarId = yield* ask((s) => s.events.calendarOf(tenantId, id, true));
  const event = calendarId === undefined ? undefined : yield* ask((s) => s.events.get(tenantId, calendarId, id));
  if (!event) throw missing(id);
  return event;
}

const emit = (tenantId: number, type: EventType, event: { id: number; calendar_id: number }) => ask((s) => emitEvent(s, tenantId, type, event));

export function* createEventSteps(tenantId: number, input: NewEvent): Steps<EventChange> {
  checkNewEvent(input);
  if (!(yield* ask((s) => s.calendars.get(tenantId, input.calendar_id)))) throw new AdminError('not_found', `no calendar ${input.calendar_id} in this tenant`);
  const event = yield* ask((s) => s.events.insert(tenantId, input));
  yield* emit(tenantId, 'events.created', event);
  return { event, emitted: ['events.created'] };
}

export const missing = (id: number) => new AdminError('not_found', `no event ${id} in this tenant`);

/** The types a patch yields against the event as it is. */
export function typesOf(before: CalendarEvent, patch: EventPatch): EventType[] {
  const changed = (Object.keys(patch) as (keyof EventPatch)[]).filter((k) => patch[k] !== undefined && patch[k] !== before[k]);
  const types: EventType[] = [];
  if (changed.some((k) => k !== 'start' && k !== 'end')) types.push('events.updated');
  if (changed.some((k) => k === 'start' || k === 'end')) types.push('events.rescheduled');
  return types;
}

export function* updateEventSteps(tenantId: number, id: number, patch: EventPatch): Steps<EventChange> {
  checkPatch(patch);
  const before = yield* lockedEvent(tenantId, id);
  checkSpan(patch.start ?? before.start, patch.end ?? before.end);
  const emitted = typesOf(before, patch);
  const event = emitted.length ? (yield* ask((s) => s.events.update(tenantId, id, patch)))! : before;
  for (const type of emitted) yield* emit(tenantId, type, event);
  return { event, emitted };
}

/** An event backing an online conference is deleted with its conference, never alone. */
export function refuseIfBacking(event: CalendarEvent): void {
  if (event.online_conference) {
    throw new AdminError('conflict', `event ${event.id} backs online conference ${event.online_conference.id}; delete the conference instead`);
  }
}

export function* deleteEventSteps(tenantId: number, id: number): Steps<EventChange> {
  const event = yield* lockedEvent(tenantId, id);
  refuseIfBacking(event);
  yield* ask((s) => s.events.remove(tenantId, id));
  yield* emit(tenantId, 'events.deleted', event);
  return { event, emitted: ['events.deleted'] };
}

export const createEvent = change(createEventSteps);
export const updateEvent = change(updateEventSteps);
/** Takes the lock conference creation takes (store/units.ts): no conference backed by the event can appear meanwhile. */
export const deleteEvent = change(deleteEventSteps, (tenantId) => ({ locks: [conferencesLock(tenantId)] }));
