import type { AttendeeInput, OnlineConferenceAttendee } from '../../contract/index.js';
import { type PersonMatch, planAttendees, plannedAttendees } from '../attendee-plan.js';
import { RuleViolation, type UnitsOfWork } from '../port.js';
import type { AttendeeInsert, Store } from '../types.js';
import { NotFoundError, UniqueViolation } from '../util.js';

/** The person behind an e-mail (decisions §7): the tenant's live user first, then customer. */
function personOf(store: Store, tenantId: number, email: string): PersonMatch {
  const user = store.users.findByEmail(tenantId, email);
  if (user) return { attendee_type: 'User', attendee_id: user.id };
  const customer = store.customers.findByEmail(tenantId, email);
  if (customer) return { attendee_type: 'Customer', attendee_id: customer.id };
  return { attendee_type: null, attendee_id: null };
}

/** The attendee row of the account's owner, or undefined when the owner no longer exists. */
function ownerAttendee(store: Store, tenantId: number, accountId: number): AttendeeInsert | undefined {
  const account = store.conferenceAccounts.get(tenantId, accountId);
  if (!account) return undefined;
  const owner = account.owner_type === 'User' ? store.users.get(tenantId, account.owner_id) : store.customers.get(tenantId, account.owner_id);
  if (!owner) return undefined;
  return { email: owner.email, name: owner.name, attendee_type: account.owner_type, attendee_id: owner.id };
}

function addAttendees(store: Store, tenantId: number, conferenceId: number, inputs: readonly AttendeeInput[], limit: number): OnlineConferenceAttendee[] {
  const plan = planAttendees(inputs, {
    attending: (email) => store.attendees.findByEmail(conferenceId, email),
    person: (email) => personOf(store, tenantId, email),
  });
  if (plan.fresh.length && store.attendees.count(conferenceId) + plan.fresh.length > limit) throw new RuleViolation('maxAttendees');
  return plannedAttendees(plan, plan.fresh.map((row) => store.attendees.insert(conferenceId, row)));
}

function liveConference(store: Store, tenantId: number, conferenceId: number) {
  const conference = store.conferences.get(tenantId, conferenceId);
  if (!conference) throw new NotFoundError('Online conference', conferenceId);
  return conference;
}

/**
 * The SQLite adapter's units of work: each runs in one IMMEDIATE transaction (`store.transaction`),
 * which holds the write lock from its first read, so checks and writes cannot interleave with
 * another request or process. Inside `serve`'s commit group (commit-groups.ts) it is a savepoint
 * of the group's transaction, which holds the lock already: a refused unit undoes only itself.
 */
export function sqliteUnits(store: Store): UnitsOfWork {
  return {
    createUser: (tenantId, input, invite) =>
      store.transaction(() => {
        if (store.users.emailTaken(tenantId, input.email)) throw new UniqueViolation('email');
        const user = store.users.insert(tenantId, input);
        if (invite) store.invitations.insert(tenantId, { user_id: user.id, email: user.email, created_at: user.created_at });
        return user;
      }),
    createConference: (tenantId, input, attendees, limit) =>
      store.transaction(() => {
        if (store.conferences.publicIdTaken(tenantId, input.public_id)) throw new UniqueViolation('public_id');
        if (input.backer_event_id != null && store.conferences.backerEventTaken(tenantId, input.backer_event_id)) throw new UniqueViolation('backer_event_id');
        const conference = store.conferences.insert(tenantId, input);
        const owner = ownerAttendee(store, tenantId, conference.online_conference_account_id);
        if (owner) store.attendees.insert(conference.id, owner);
        addAttendees(store, tenantId, conference.id, attendees, limit);
        return conference;
      }),
    addAttendees: (tenantId, conferenceId, inputs, limit) =>
      store.transaction(() => addAttendees(store, tenantId, liveConference(store, tenantId, conferenceId).id, inputs, limit)),
    deleteConference: (tenantId, conferenceId) =>
      store.transaction(() => {
        const conference = liveConference(store, tenantId, conferenceId);
        if (conference.started_at !== null && conference.ended_at === null) throw new RuleViolation('conferenceInProgress');
        return store.conferences.softDelete(tenantId, conference.id);
      }),
    removeAttendee: (tenantId, conferenceId, attendeeId) =>
      store.transaction(() => {
        const conference = liveConference(store, tenantId, conferenceId);
        const attendee = store.attendees.get(conference.id, attendeeId);
        if (!attendee) throw new NotFoundError('Online conference attendee', attendeeId);
        if (conference.ended_at !== null) throw new RuleViolation('conferenceEnded');
        const account = store.conferenceAccounts.get(tenantId, conference.online_conference_account_id);
        if (account && attendee.attendee_type === account.owner_type && attendee.attendee_id === account.owner_id) throw new RuleViolation('ownerNotRemovable');
        return store.attendees.softDelete(conference.id, attendee.id);
      }),
  };
}
