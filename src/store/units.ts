/**
 * The API's atomic writes (`UnitsOfWork`, port.ts), written once as steps (steps.ts) and run by
 * either adapter's `atomic`: SQLite in one IMMEDIATE transaction (a savepoint of `serve`'s commit
 * group), which holds the write lock from its first read, so checks and writes cannot interleave
 * with another request or process; PostgreSQL in one transaction whose checks that must not race
 * take a lock first: the conference's row (`forUpdate`) for its attendees and its deletion, an
 * advisory lock named after the tenant's e-mail or its conference keys for uniqueness among live
 * rows (which a unique index alone cannot express with soft deletes; the unique indexes still
 * back them).
 */
import type { AttendeeInput, OnlineConference, OnlineConferenceAttendee, User } from '../contract/index.js';
import { type AttendeeFacts, type PersonMatch, planAttendees, plannedAttendees } from './attendee-plan.js';
import { type Awaitable, RuleViolation, type UnitsOfWork } from './port.js';
import { type AtomicOptions, ask, type Steps } from './steps.js';
import type { AttendeeInsert, ConferenceInsert, UserInsert } from './types.js';
import { NotFoundError, UniqueViolation } from './util.js';

/** The lock creating a conference takes: its public id and backing event are checked unused under it. */
export const conferencesLock = (tenantId: number) => `conferences:${tenantId}`;

/** The lock creating a user takes: its e-mail is checked unused among live users under it. */
const userEmailLock = (tenantId: number, email: string) => `users.email:${tenantId}:${email.toLowerCase()}`;

/** The person behind an e-mail (decisions §7): the tenant's live user first, then customer. */
function* personOf(tenantId: number, email: string): Steps<PersonMatch> {
  const user = yield* ask((s) => s.users.findByEmail(tenantId, email));
  if (user) return { attendee_type: 'User', attendee_id: user.id };
  const customer = yield* ask((s) => s.customers.findByEmail(tenantId, email));
  if (customer) return { attendee_type: 'Customer', attendee_id: customer.id };
  return { attendee_type: null, attendee_id: null };
}

/** What `planAttendees` asks about the e-mails of `inputs`, read first (its questions are answered at once). */
function* attendeeFacts(tenantId: number, conferenceId: number, inputs: readonly AttendeeInput[]): Steps<AttendeeFacts> {
  const attending = new Map<string, OnlineConferenceAttendee | undefined>();
  const people = new Map<string, PersonMatch>();
  for (const { email } of inputs) {
    if (attending.has(email)) continue;
    const existing = yield* ask((s) => s.attendees.findByEmail(conferenceId, email));
    attending.set(email, existing);
    if (!existing) people.set(email, yield* personOf(tenantId, email));
  }
  return { attending: (email) => attending.get(email), person: (email) => people.get(email)! };
}

/** Adds attendees to a conference the unit holds (see `planAttendees`); past `limit`, `RuleViolation('maxAttendees')`. */
function* addAttendees(tenantId: number, conferenceId: number, inputs: readonly AttendeeInput[], limit: number): Steps<OnlineConferenceAttendee[]> {
  const plan = planAttendees(inputs, yield* attendeeFacts(tenantId, conferenceId, inputs));
  if (plan.fresh.length && (yield* ask((s) => s.attendees.count(conferenceId))) + plan.fresh.length > limit) throw new RuleViolation('maxAttendees');
  const inserted: OnlineConferenceAttendee[] = [];
  for (const row of plan.fresh) inserted.push(yield* ask((s) => s.attendees.insert(conferenceId, row)));
  return plannedAttendees(plan, inserted);
}

/** The attendee row of the account's owner, or undefined when the owner no longer exists. */
function* ownerAttendee(tenantId: number, accountId: number): Steps<AttendeeInsert | undefined> {
  const account = yield* ask((s) => s.conferenceAccounts.get(tenantId, accountId));
  if (!account) return undefined;
  const owner = yield* ask((s) => (account.owner_type === 'User' ? s.users.get(tenantId, account.owner_id) : s.customers.get(tenantId, account.owner_id)));
  if (!owner) return undefined;
  return { email: owner.email, name: owner.name, attendee_type: account.owner_type, attendee_id: owner.id };
}

/** The tenant's live conference, its row locked until commit (changes of one conference take turns); else `NotFoundError`. */
function* liveConference(tenantId: number, conferenceId: number): Steps<OnlineConference> {
  const conference = yield* ask((s) => s.conferences.get(tenantId, conferenceId, true));
  if (!conference) throw new NotFoundError('Online conference', conferenceId);
  return conference;
}

function* createUser(tenantId: number, input: UserInsert, invite: boolean): Steps<User> {
  if (yield* ask((s) => s.users.emailTaken(tenantId, input.email))) throw new UniqueViolation('email');
  const user = yield* ask((s) => s.users.insert(tenantId, input));
  if (invite) yield* ask((s) => s.invitations.insert(tenantId, { user_id: user.id, email: user.email, created_at: user.created_at }));
  return user;
}

function* createConference(tenantId: number, input: ConferenceInsert, attendees: readonly AttendeeInput[], limit: number): Steps<OnlineConference> {
  if (yield* ask((s) => s.conferences.publicIdTaken(tenantId, input.public_id))) throw new UniqueViolation('public_id');
  const backer = input.backer_event_id;
  if (backer != null && (yield* ask((s) => s.conferences.backerEventTaken(tenantId, backer)))) throw new UniqueViolation('backer_event_id');
  const conference = yield* ask((s) => s.conferences.insert(tenantId, input));
  const owner = yield* ownerAttendee(tenantId, conference.online_conference_account_id);
  if (owner) yield* ask((s) => s.attendees.insert(conference.id, owner));
  yield* addAttendees(tenantId, conference.id, attendees, limit);
  return conference;
}

function* addToLiveConference(tenantId: number, conferenceId: number, inputs: readonly AttendeeInput[], limit: number): Steps<OnlineConferenceAttendee[]> {
  return yield* addAttendees(tenantId, (yield* liveConference(tenantId, conferenceId)).id, inputs, limit);
}

function* deleteConference(tenantId: number, conferenceId: number): Steps<OnlineConference> {
  const conference = yield* liveConference(tenantId, conferenceId);
  if (conference.started_at !== null && conference.ended_at === null) throw new RuleViolation('conferenceInProgress');
  return yield* ask((s) => s.conferences.softDelete(tenantId, conference.id));
}

function* removeAttendee(tenantId: number, conferenceId: number, attendeeId: number): Steps<OnlineConferenceAttendee> {
  const conference = yield* liveConference(tenantId, conferenceId);
  const attendee = yield* ask((s) => s.attendees.get(conference.id, attendeeId));
  if (!attendee) throw new NotFoundError('Online conference attendee', attendeeId);
  if (conference.ended_at !== null) throw new RuleViolation('conferenceEnded');
  const account = yield* ask((s) => s.conferenceAccounts.get(tenantId, conference.online_conference_account_id));
  if (account && attendee.attendee_type === account.owner_type && attendee.attendee_id === account.owner_id) throw new RuleViolation('ownerNotRemovable');
  return yield* ask((s) => s.attendees.softDelete(conference.id, attendee.id));
}

/** A store's `atomic` (port.ts). */
type Atomic = <T>(steps: Steps<T>, options?: AtomicOptions) => Awaitable<T>;

/** The units of work of a store that runs steps with `atomic`. */
export function unitsOfWork(atomic: Atomic): UnitsOfWork {
  return {
    createUser: (tenantId, input, invite) => atomic(createUser(tenantId, input, invite), { locks: [userEmailLock(tenantId, input.email)] }),
    createConference: (tenantId, input, attendees, limit) => atomic(createConference(tenantId, input, attendees, limit), { locks: [conferencesLock(tenantId)] }),
    addAttendees: (tenantId, conferenceId, inputs, limit) => atomic(addToLiveConference(tenantId, conferenceId, inputs, limit)),
    deleteConference: (tenantId, conferenceId) => atomic(deleteConference(tenantId, conferenceId)),
    removeAttendee: (tenantId, conferenceId, attendeeId) => atomic(removeAttendee(tenantId, conferenceId, attendeeId)),
  };
}
