/**
 * `confctl admin webhooks trigger TYPE`: a real change of that type, like `stripe trigger`, made
 * on data created for the purpose so that nothing that existed before is touched: a customer
 * (`webhooks-trigger-…@example.invalid`) with a calendar, and an event in it (for
 * `meeting_links.scheduled`, a meeting link of that calendar booked by that customer). Changing,
 * deleting or booking an event yields `events.created` too, before its own type.
 */
import { randomBytes } from 'node:crypto';
import { ask, type Steps } from '../store/steps.js';
import { change } from './change.js';
import { createEventSteps, deleteEventSteps, updateEventSteps } from './events.js';
import { AdminError } from './errors.js';
import { createMeetingLinkSteps, scheduleSteps } from './meeting-links.js';
import type { EventType } from '../webhooks/destinations.js';

/** The types `trigger` can produce. */
export const TRIGGER_TYPES = ['events.created', 'events.updated', 'events.rescheduled', 'events.deleted', 'meeting_links.scheduled'] as const satisfies readonly EventType[];

export interface TriggerResult {
  customer_id: number;
  calendar_id: number;
  event_id: number;
  /** Every webhook event type written, in order. */
  emitted: EventType[];
}

/** The names and times of one trigger's data: a tag that makes them new, the event a day after `now`. */
export function triggerPlan(type: string, now: Date): { tag: string; email: string; at: (minutes: number) => string } {
  if (!(TRIGGER_TYPES as readonly string[]).includes(type)) {
    throw new AdminError('invalid', `cannot trigger '${type}'; the types are ${TRIGGER_TYPES.join(', ')}`);
  }
  const tag = randomBytes(4).toString('hex');
  const start = new Date(now.getTime() + 24 * 3600 * 1000);
  return { tag, email: `webhooks-trigger-${tag}@example.invalid`, at: (minutes) => new Date(start.getTime() + minutes * 60_000).toISOString() };
}

function* triggerSteps(tenantId: number, type: string, now: Date): Steps<TriggerResult> {
  const { tag, email, at } = triggerPlan(type, now);
  const customer = yield* ask((s) => s.customers.insert(tenantId, { first_name: 'Webhook', last_name: `Trigger ${tag}`, email }));
  const calendar = yield* ask((s) => s.calendars.insert(tenantId, { owner_type: 'Customer', owner_id: customer.id, name: `Webhook trigger ${tag}` }));
  if (type === 'meeting_links.scheduled') {
    const link = yield* createMeetingLinkSteps(tenantId, { calendar_id: calendar.id, name: `Webhook trigger ${tag}`, duration_minutes: 30 });
    const booked = yield* scheduleSteps(tenantId, link.id, { name: `Webhook Trigger ${tag}`, email, contact_number: null }, at(0));
    return { customer_id: calendar.owner_id, calendar_id: calendar.id, event_id: booked.event_id, emitted: ['events.created', 'meeting_links.scheduled'] };
  }
  const created = yield* createEventSteps(tenantId, { calendar_id: calendar.id, title: `Webhook trigger ${tag}`, start: at(0), end: at(30) });
  const emitted = [...created.emitted];
  const id = created.event.id;
  if (type === 'events.updated') emitted.push(...(yield* updateEventSteps(tenantId, id, { title: `Webhook trigger ${tag} (updated)` })).emitted);
  if (type === 'events.rescheduled') emitted.push(...(yield* updateEventSteps(tenantId, id, { start: at(60), end: at(90) })).emitted);
  if (type === 'events.deleted') emitted.push(...(yield* deleteEventSteps(tenantId, id)).emitted);
  return { customer_id: calendar.owner_id, calendar_id: calendar.id, event_id: id, emitted };
}

/** The whole trigger is one unit: its data and every webhook event of it commit together, or nothing does. */
export const trigger = change(triggerSteps);
