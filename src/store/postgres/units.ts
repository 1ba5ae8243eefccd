import type { AttendeeInput, OnlineConference, OnlineConferenceAttendee } from '../../contract/index.js';
import { type PersonMatch, planAttendees, plannedAttendees } from '../attendee-plan.js';
import { RuleViolation, type UnitsOfWork } from '../port.js';
import type { AttendeeInsert } from '../types.js';
import { NotFoundError, UniqueViolation } from '../util.js';
import { pgAttendees, pgConferenceAccounts, pgConferences } from './conferences.js';
import { pgCustomers, pgUsers } from './people.js';
import { one, type Queryable } from './pool.js';
import { CONFERENCE_COLUMNS, type ConferenceRow, toConference } from '../sqlite/repos/conferences.js';

type Atomically = <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>;

/** Waits, inside the transaction, for a lock named `name`: writers of the same name take turns until commit. */
export const lockName = (tx: Queryable, name: string) => tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);

/** Waits for each of `names` (a unit's locks), sorted: two units taking some of the same names cannot wait for each other. */
export async function lockNames(tx: Queryable, names: readonly string[] = []): Promise<void> {
  for (const name of [...new Set(names)].sort()) await lockName(tx, name);
}

/** The tenant's live conference with its row locked until commit (changes of one conference take turns), or undefined. */
export async function lockedConference(tx: Queryable, tenantId: number, id: number): Promise<OnlineConference | undefined> {
  const r = await one<ConferenceRow>(tx, `SELECT ${CONFERENCE_COLUMNS} FROM conferences WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE`, [tenantId, id]);
  return r && toConference(r);
}

/** The tenant's live conference, its row locked until commit (attendee changes of one conference take turns); else `NotFoundError`. */
async function lockConference(tx: Queryable, tenantId: number, id: number): Promise<OnlineConference> {
  const conference = await lockedConference(tx, tenantId, id);
  if (!conference) throw new NotFoundError('Online conference', id);
  return conference;
}

async function personOf(tx: Queryable, tenantId: number, email: string): Promise<PersonMatch> {
  const user = await pgUsers(tx).findByEmail(tenantId, email);
  if (user) return { attendee_type: 'User', attendee_id: user.id };
  const customer = await pgCustomers(tx).findByEmail(tenantId, email);
  if (customer) return { attendee_type: 'Customer', attendee_id: customer.id };
  return { attendee_type: null, attendee_id: null };
}

/** Adds attendees to a conference whose row the transaction holds locked (see `planAttendees`). */
async function addAttendees(tx: Queryable, tenantId: number, conferenceId: number, inputs: readonly AttendeeInput[], limit: number): Promise<OnlineConferenceAttendee[]> {
  const attendees = pgAttendees(tx);
  const attending = new Map<string, OnlineConferenceAttendee | undefined>();
  const people = new Map<string, PersonMatch>();
  for (const { email } of inputs) {
    if (attending.has(email)) continue;
    const existing = await attendees.findByEmail(conferenceId, email);
    attending.set(email, existing);
    if (!existing) people.set(email, await personOf(tx, tenantId, email));
  }
  const plan = planAttendees(inputs, { attending: (email) => attending.get(email), person: (email) => people.get(email)! });
  if (plan.fresh.length && (await attendees.count(conferenceId)) + plan.fresh.length > limit) throw new RuleViolation('maxAttendees');
  const inserted: OnlineConferenceAttendee[] = [];
  for (const row of plan.fresh) inserted.push(await attendees.insert(conferenceId, row));
  return plannedAttendees(plan, inserted);
}

async function ownerAttendee(tx: Queryable, tenantId: number, accountId: number): Promise<AttendeeInsert | undefined> {
  const account = await pgConferenceAccounts(tx).get(tenantId, accountId);
  if (!account) return undefined;
  const owner = account.owner_type === 'User' ? await pgUsers(tx).get(tenantId, account.owner_id) : await pgCustomers(tx).get(tenantId, account.owner_id);
  if (!owner) return undefined;
  return { email: owner.email, name: owner.name, attendee_type: account.owner_type, attendee_id: owner.id };
}

/**
 * The PostgreSQL adapter's units of work: each one transaction. Checks that must not race take a
 * lock first: the conference's row (`FOR UPDATE`) for its attendees and its deletion, a
 * transaction-scoped advisory lock named after the tenant's e-mail or its conference keys for
 * uniqueness among live rows (which a unique index alone cannot express with soft deletes); the
 * unique indexes still back them (`guardUnique`).
 */
export function pgUnits(atomically: Atomically): UnitsOfWork {
  return {
    createUser: (tenantId, input, invite) =>
      atomically(async (tx) => {
        await lockName(tx, `users.email:${tenantId}:${input.email.toLowerCase()}`);
        const users = pgUsers(tx);
        if (await users.emailTaken(tenantId, input.email)) throw new UniqueViolation('email');
        const user = await users.insert(tenantId, input);
        if (invite) {
          await tx.query('INSERT INTO invitations (tenant_id, user_id, email, created_at) VALUES ($1, $2, $3, $4)', [tenantId, user.id, user.email, user.created_at]);
        }
        return user;
      }),
    createConference: (tenantId, input, attendees, limit) =>
      atomically(async (tx) => {
        await lockName(tx, `conferences:${tenantId}`);
        const conferences = pgConferences(tx);
        if (await conferences.publicIdTaken(tenantId, input.public_id)) throw new UniqueViolation('public_id');
        if (input.backer_event_id != null && (await conferences.backerEventTaken(tenantId, input.backer_event_id))) throw new UniqueViolation('backer_event_id');
        const conference = await conferences.insert(tenantId, input);
        const owner = await ownerAttendee(tx, tenantId, conference.online_conference_account_id);
        if (owner) await pgAttendees(tx).insert(conference.id, owner);
        await addAttendees(tx, tenantId, conference.id, attendees, limit);
        return conference;
      }),
    addAttendees: (tenantId, conferenceId, inputs, limit) =>
      atomically(async (tx) => addAttendees(tx, tenantId, (await lockConference(tx, tenantId, conferenceId)).id, inputs, limit)),
    deleteConference: (tenantId, conferenceId) =>
      atomically(async (tx) => {
        const conference = await lockConference(tx, tenantId, conferenceId);
        if (conference.started_at !== null && conference.ended_at === null) throw new RuleViolation('conferenceInProgress');
        return pgConferences(tx).softDelete(tenantId, conference.id);
      }),
    removeAttendee: (tenantId, conferenceId, attendeeId) =>
      atomically(async (tx) => {
        const conference = await lockConference(tx, tenantId, conferenceId);
        const attendees = pgAttendees(tx);
        const attendee = await attendees.get(conference.id, attendeeId);
        if (!attendee) throw new NotFoundError('Online conference attendee', attendeeId);
        if (conference.ended_at !== null) throw new RuleViolation('conferenceEnded');
        const account = await pgConferenceAccounts(tx).get(tenantId, conference.online_conference_account_id);
        if (account && attendee.attendee_type === account.owner_type && attendee.attendee_id === account.owner_id) throw new RuleViolation('ownerNotRemovable');
        return attendees.softDelete(conference.id, attendee.id);
      }),
  };
}

