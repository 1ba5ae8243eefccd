import { type AttendeeInput, type AttendeesAddBody, MESSAGES, type OnlineConference, type OnlineConferenceAttendee, type PageQuery } from '../../contract/index.js';
import type { AttendeeInsert, Store } from '../../store/types.js';
import { HttpError, notFound } from '../errors.js';
import type { Handler, HandlerMap } from './types.js';

/**
 * The person behind an email (decisions §7): the tenant's non-deleted user first, then customer,
 * compared case-insensitively; both type and id are null when neither matches.
 */
export function matchPerson(store: Store, tenantId: number, email: string): Pick<AttendeeInsert, 'attendee_type' | 'attendee_id'> {
  const user = store.users.findByEmail(tenantId, email);
  if (user) return { attendee_type: 'User', attendee_id: user.id };
  const customer = store.customers.findByEmail(tenantId, email);
  if (customer) return { attendee_type: 'Customer', attendee_id: customer.id };
  return { attendee_type: null, attendee_id: null };
}

/**
 * The attendee row for the owner of the conference's account (a User or Customer), or undefined
 * when the owner no longer exists (a deleted owner has no name or email to add).
 */
export function ownerAttendee(store: Store, tenantId: number, accountId: number): AttendeeInsert | undefined {
  const account = store.conferenceAccounts.get(tenantId, accountId);
  if (!account) return undefined;
  const owner = account.owner_type === 'User' ? store.users.get(tenantId, account.owner_id) : store.customers.get(tenantId, account.owner_id);
  if (!owner) return undefined;
  return { email: owner.email, name: owner.name, attendee_type: account.owner_type, attendee_id: owner.id };
}

/**
 * Adds attendees to a conference, all or nothing; call it inside `store.transaction` so that the
 * count and the inserts cannot interleave with another request (better-sqlite3 is synchronous).
 * An email already attending, or repeated in `inputs` (case-insensitive), is not added again:
 * its existing attendee is answered. The result has one attendee per distinct email, in input
 * order. `limit` is the total of non-deleted attendees allowed (owner included); new attendees
 * that would pass it → 409 `Cannot exceed maximum attendee count.`, with nothing added.
 */
export function addAttendees(
  store: Store,
  tenantId: number,
  conferenceId: number,
  inputs: readonly AttendeeInput[],
  limit: number,
): OnlineConferenceAttendee[] {
  const picked = new Map<string, OnlineConferenceAttendee | AttendeeInsert>();
  const fresh: AttendeeInsert[] = [];
  for (const input of inputs) {
    const key = input.email.toLowerCase();
    if (picked.has(key)) continue;
    const existing = store.attendees.findByEmail(conferenceId, input.email);
    const row = existing ?? { email: input.email, name: input.name, ...matchPerson(store, tenantId, input.email) };
    if (!existing) fresh.push(row as AttendeeInsert);
    picked.set(key, row);
  }
  if (fresh.length && store.attendees.count(conferenceId) + fresh.length > limit) throw new HttpError(409, MESSAGES.maxAttendees);
  const inserted = new Map(fresh.map((row) => [row, store.attendees.insert(conferenceId, row)]));
  return [...picked.values()].map((row) => inserted.get(row as AttendeeInsert) ?? (row as OnlineConferenceAttendee));
}

/** The tenant's non-deleted conference from the path, else 404. */
export function conferenceOf(store: Store, tenantId: number, id: number): OnlineConference {
  const conference = store.conferences.get(tenantId, id);
  if (!conference) throw notFound();
  return conference;
}

const addConferenceAttendees: Handler<AttendeesAddBody> = {
  run: ({ store, tenant, params, body, options }) => {
    const conference = conferenceOf(store, tenant.id, params.online_conference_id);
    // The maximum counts attendees besides the owner (decisions §7).
    return store.transaction(() => addAttendees(store, tenant.id, conference.id, body, options.maxAttendees + 1));
  },
};

const listConferenceAttendees: Handler<undefined, PageQuery> = {
  run: ({ store, tenant, params, query }) => store.attendees.listByConference(conferenceOf(store, tenant.id, params.online_conference_id).id, query),
};

/** Whether the attendee is the owner of the conference's account (a deleted account has none). */
function isOwner(store: Store, tenantId: number, conference: OnlineConference, attendee: OnlineConferenceAttendee): boolean {
  const account = store.conferenceAccounts.get(tenantId, conference.online_conference_account_id);
  return account !== undefined && attendee.attendee_type === account.owner_type && attendee.attendee_id === account.owner_id;
}

/**
 * A soft delete of one attendee (decisions §11). Checks after existence (conference, then the
 * attendee within it: 404): an ended conference is 409, then the account owner is 409. A running
 * conference allows it. The removed attendee no longer counts toward the maximum and its email
 * may be added again, as a new attendee.
 */
const removeConferenceAttendee: Handler = {
  run: ({ store, tenant, params }) =>
    store.transaction(() => {
      const conference = conferenceOf(store, tenant.id, params.online_conference_id);
      const attendee = store.attendees.get(conference.id, params.online_conference_attendee_id);
      if (!attendee) throw notFound();
      if (conference.ended_at !== null) throw new HttpError(409, MESSAGES.conferenceEnded);
      if (isOwner(store, tenant.id, conference, attendee)) throw new HttpError(409, MESSAGES.ownerNotRemovable);
      return store.attendees.softDelete(conference.id, attendee.id);
    }),
};

/** Attendees of a conference: add (JSON array body), list and remove (spec §4, decisions §11). */
export const attendeeHandlers: HandlerMap = { addConferenceAttendees, listConferenceAttendees, removeConferenceAttendee };
