import type { AttendeesAddBody, OnlineConference, PageQuery } from '../../contract/index.js';
import type { ServiceStore } from '../../store/port.js';
import { notFound } from '../errors.js';
import type { Handler, HandlerMap } from './types.js';

/** The tenant's non-deleted conference from the path, else 404. */
export async function conferenceOf(store: ServiceStore, tenantId: number, id: number): Promise<OnlineConference> {
  const conference = await store.conferences.get(tenantId, id);
  if (!conference) throw notFound();
  return conference;
}

/**
 * Adds attendees, all or nothing, as one unit of work (store/port.ts `addAttendees`): 404 for a
 * conference that is not the tenant's, 409 past the maximum, which counts attendees besides the
 * owner (decisions §7).
 */
const addConferenceAttendees: Handler<AttendeesAddBody> = {
  run: ({ store, tenant, params, body, options }) => store.units.addAttendees(tenant.id, params.online_conference_id, body, options.maxAttendees + 1),
};

const listConferenceAttendees: Handler<undefined, PageQuery> = {
  run: async ({ store, tenant, params, query }) =>
    store.attendees.listByConference((await conferenceOf(store, tenant.id, params.online_conference_id)).id, query),
};

/**
 * A soft delete of one attendee (decisions §11), as one unit of work: 404 for an unknown
 * conference, then for an attendee not in it; 409 once the conference ended, then for the
 * account's owner. A running conference allows it. The removed attendee no longer counts toward
 * the maximum and its email may be added again, as a new attendee.
 */
const removeConferenceAttendee: Handler = {
  run: ({ store, tenant, params }) => store.units.removeAttendee(tenant.id, params.online_conference_id, params.online_conference_attendee_id),
};

/** Attendees of a conference: add (JSON array body), list and remove (spec §4, decisions §11). */
export const attendeeHandlers: HandlerMap = { addConferenceAttendees, listConferenceAttendees, removeConferenceAttendee };
