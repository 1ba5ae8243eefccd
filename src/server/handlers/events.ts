import { notFound } from '../errors.js';
import type { Handler, HandlerMap } from './types.js';

/** The event with its attendees and backed conference (or null); 404 unless it is in that calendar of the tenant. */
const getCalendarEvent: Handler = {
  run: async ({ store, tenant, params }) => {
    const event = await store.events.get(tenant.id, params.calendar_id, params.event_id);
    if (!event) throw notFound();
    return event;
  },
};

/** Calendar events: get one (spec §4). */
export const eventHandlers: HandlerMap = { getCalendarEvent };
