/**
 * Conferences that have not ended, keyed by `public_id`: created with their host's conference
 * account and up to five attendees (the rest added after), updated (title, is_public) while not
 * started, attendees added and removed by e-mail; the host attends implicitly and is never
 * removed. Those no record names are unmanaged, or deleted with `prune`. No I/O.
 */
import { MAX_CREATE_ATTENDEES } from '../../contract/bodies.js';
import { MESSAGES } from '../../contract/messages.js';
import type { Account, Change, Desired, Problem, TenantConference, TenantUser } from './model.js';
import { foldKey } from './values.js';

export interface ConferenceContext {
  /** Live users, to find each host. */
  users: readonly TenantUser[];
  /** Conference accounts of the users named as hosts. */
  accounts: ReadonlyMap<number, readonly Account[]>;
  /** E-mails (folded) of users this plan creates: such a host cannot have an account yet. */
  creating: ReadonlySet<string>;
  prune: boolean;
}

export interface ConferenceDiff {
  changes: Change[];
  unmanaged: string[];
  notes: string[];
}

interface Attendee {
  email: string;
  name: string;
}

/** The account hosting `d`: the host's only account, or the one `account` names. */
function hostAccount(d: Desired, context: ConferenceContext, byEmail: Map<string, TenantUser>, problem: (field: string, message: string) => void): Account | undefined {
  const host = String(d.fields.host);
  const user = byEmail.get(foldKey(host));
  if (!user) {
    problem('host', context.creating.has(foldKey(host))
      ? 'The host has no conference account: the plan creates this user, and conference accounts cannot be made through the API.'
      : 'The selected host is invalid: no user of the tenant has this e-mail.');
    return undefined;
  }
  const accounts = context.accounts.get(user.id) ?? [];
  const named = d.fields.account;
  if (typeof named === 'string') {
    const found = accounts.find((a) => a.name === named) ?? accounts.find((a) => foldKey(a.name) === foldKey(named));
    if (!found) problem('account', `The selected account is invalid: the host's conference accounts are ${accounts.map((a) => JSON.stringify(a.name)).join(', ') || 'none'}.`);
    return found;
  }
  if (accounts.length === 1) return accounts[0];
  problem('host', accounts.length
    ? `The host has ${accounts.length} conference accounts (${accounts.map((a) => JSON.stringify(a.name)).join(', ')}): name one with account.`
    : 'The host has no conference account, and conference accounts cannot be made through the API.');
  return undefined;
}

/** The record's attendees other than the host, each e-mail once (a repeat is a problem). */
function attendeesOf(d: Desired, problem: (field: string, message: string) => void): Attendee[] {
  const host = foldKey(String(d.fields.host));
  const seen = new Set<string>();
  const out: Attendee[] = [];
  ((d.fields.attendees as Attendee[] | null) ?? []).forEach((a, i) => {
    const email = foldKey(a.email);
    if (seen.has(email)) problem(`attendees.${i}.email`, `The attendees.${i}.email has already been taken.`);
    else if (email !== host) out.push({ email: a.email, name: a.name });
    seen.add(email);
  });
  return out;
}

export function diffConferences(desired: readonly Desired[], tenant: readonly TenantConference[], context: ConferenceContext, problems: Problem[]): ConferenceDiff {
  const byKey = new Map(tenant.map((c) => [foldKey(c.public_id), c]));
  const byEmail = new Map(context.users.map((u) => [foldKey(u.email), u]));
  const changes: Change[] = [];
  const adds: Change[] = [];
  const removes: Change[] = [];
  const notes: string[] = [];
  for (const d of desired) {
    const problem = (field: string, message: string) => problems.push({ file: d.where.file, line: d.where.lineOf(field), key: d.key, field, message });
    const before = problems.length;
    const attendees = attendeesOf(d, problem);
    const title = String(d.fields.title);
    const isPublic = d.fields.is_public === true;
    const row = byKey.get(foldKey(d.key));
    if (!row) {
      const account = hostAccount(d, context, byEmail, problem);
      if (problems.length > before || !account) continue;
      const first = attendees.slice(0, MAX_CREATE_ATTENDEES);
      changes.push({ kind: 'conference', action: 'create', key: d.key, body: { online_conference_account_id: account.id, public_id: d.key, title, is_public: isPublic, online_conference_attendees: first } });
      for (const a of attendees.slice(MAX_CREATE_ATTENDEES)) adds.push({ kind: 'attendee', action: 'add', key: `${d.key} ${a.email}`, conference: d.key, conference_id: null, body: a });
      continue;
    }
    if (row.host && foldKey(row.host.email) !== foldKey(String(d.fields.host))) {
      problem('host', `The host cannot change: it is set when the conference is created (the host is ${row.host.email}).`);
    }
    if (row.host && typeof d.fields.account === 'string' && foldKey(d.fields.account) !== foldKey(row.host.account)) {
      problem('account', `The account cannot change: it is set when the conference is created (the account is ${JSON.stringify(row.host.account)}).`);
    }
    const changed = [title !== row.title && 'title', isPublic !== row.is_public && 'is_public'].filter((f): f is string => Boolean(f));
    if (changed.length && row.started) problem(changed[0], MESSAGES.conferenceStarted);
    if (problems.length > before) continue;
    if (changed.length) {
      const view = { title: row.title, is_public: row.is_public };
      const want = { title, is_public: isPublic };
      changes.push({ kind: 'conference', action: 'update', key: row.public_id, target_id: row.id, before: view, after: Object.fromEntries(changed.map((f) => [f, want[f as keyof typeof want]])), body: want });
    }
    const present = new Map(row.attendees.map((a) => [foldKey(a.email), a]));
    const wanted = new Set(attendees.map((a) => foldKey(a.email)));
    for (const a of attendees) {
      const has = present.get(foldKey(a.email));
      if (!has) adds.push({ kind: 'attendee', action: 'add', key: `${row.public_id} ${a.email}`, conference: row.public_id, conference_id: row.id, body: a });
      else if (has.name !== a.name) notes.push(`${row.public_id}: attendee ${has.email} is named ${JSON.stringify(has.name)}, the file says ${JSON.stringify(a.name)}; the API cannot rename an attendee, so the name stays`);
    }
    for (const a of row.attendees) {
      if (!wanted.has(foldKey(a.email))) removes.push({ kind: 'attendee', action: 'remove', key: `${row.public_id} ${a.email}`, conference: row.public_id, conference_id: row.id, attendee_id: a.id, email: a.email });
    }
  }
  const managed = new Set(desired.map((d) => foldKey(d.key)));
  const absent = tenant.filter((c) => !managed.has(foldKey(c.public_id)));
  const deletes: Change[] = [];
  if (context.prune) {
    for (const c of absent) {
      if (c.started) problems.push({ key: c.public_id, message: `${MESSAGES.conferenceInProgress} (--prune cannot delete it; add it to the files, or wait until it ends)` });
      else deletes.push({ kind: 'conference', action: 'delete', key: c.public_id, target_id: c.id, before: { title: c.title, is_public: c.is_public } });
    }
  }
  return { changes: [...changes, ...adds, ...removes, ...deletes], unmanaged: context.prune ? [] : absent.map((c) => c.public_id), notes };
}
