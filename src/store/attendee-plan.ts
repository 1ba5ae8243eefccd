import type { AttendeeInput, OnlineConferenceAttendee, TypeName } from '../contract/index.js';
import type { AttendeeInsert } from './types.js';

/** Who an e-mail belongs to among the tenant's live users, then customers; nulls for neither. */
export type PersonMatch = { attendee_type: TypeName | null; attendee_id: number | null };

/** What a store already knows about the e-mails of an attendee request. */
export interface AttendeeFacts {
  /** The conference's live attendee of this e-mail (compared ignoring case). */
  attending(email: string): OnlineConferenceAttendee | undefined;
  /** The person this e-mail matches (decisions §7). */
  person(email: string): PersonMatch;
}

/** The answer of an attendee request: one entry per distinct e-mail, in input order; `fresh` are the rows to insert. */
export interface AttendeePlan {
  picked: (OnlineConferenceAttendee | AttendeeInsert)[];
  fresh: AttendeeInsert[];
}

/**
 * The rule of adding attendees, shared by both adapters so that they cannot differ: an e-mail
 * already attending, or repeated in `inputs` (ignoring case), is not added again and its
 * existing attendee is answered; every new one is matched to a person. The adapter checks the
 * limit against `fresh.length` and inserts `fresh` in one atomic unit.
 */
export function planAttendees(inputs: readonly AttendeeInput[], facts: AttendeeFacts): AttendeePlan {
  const picked = new Map<string, OnlineConferenceAttendee | AttendeeInsert>();
  const fresh: AttendeeInsert[] = [];
  for (const input of inputs) {
    // ASCII folding, as both stores compare e-mails (decisions §10): `É` and `é` are two e-mails.
    const key = input.email.replace(/[A-Z]/g, (c) => c.toLowerCase());
    if (picked.has(key)) continue;
    const existing = facts.attending(input.email);
    const row = existing ?? { email: input.email, name: input.name, ...facts.person(input.email) };
    if (!existing) fresh.push(row);
    picked.set(key, row);
  }
  return { picked: [...picked.values()], fresh };
}

/** The plan's answer once `fresh` rows were inserted as `inserted` (same order). */
export function plannedAttendees(plan: AttendeePlan, inserted: readonly OnlineConferenceAttendee[]): OnlineConferenceAttendee[] {
  const byRow = new Map<unknown, OnlineConferenceAttendee>(plan.fresh.map((row, i) => [row, inserted[i]]));
  return plan.picked.map((row) => byRow.get(row) ?? (row as OnlineConferenceAttendee));
}
