/**
 * Before applying, each change is held against the tenant as it is now. It is `pending` when
 * the tenant still holds what the plan read; `done` when the tenant already holds what the
 * change would make (a run that stopped midway, so nothing is applied twice); otherwise `stale`,
 * with the reason, and the plan is refused. No I/O.
 */
import { customerView, fieldEqual, userView } from './diff-people.js';
import { type Change, type ConferenceChange, isPersonChange, type PersonChange, type Record_, type Snapshot, type TenantConference } from './model.js';
import { foldKey, normalAddress, same } from './values.js';

export type Standing = { state: 'pending'; change: Change } | { state: 'done' } | { state: 'stale'; reason: string };

/** The fields of `expected` whose value in `now` differs. */
function differing(now: Record_, expected: Record_): string[] {
  return Object.keys(expected).filter((k) => !fieldEqual(k, now[k], expected[k]));
}

/** A created user or customer as the body made it, in the files' vocabulary (users' department compared by id). */
function createdView(change: PersonChange & { action: 'create' }): Record_ {
  const { activate: _a, is_silent: _s, department_id: _d, ...rest } = change.body;
  return change.kind === 'customer' ? { ...rest, address: normalAddress(rest.address) } : rest;
}

interface PersonRow {
  id: number;
  dept: number | null;
  view: Record_;
}

/** A kind's rows by id and by folded e-mail. */
interface PersonIndex {
  byId: Map<number, PersonRow>;
  byKey: Map<string, PersonRow>;
}

function indexOf(rows: PersonRow[]): PersonIndex {
  return { byId: new Map(rows.map((r) => [r.id, r])), byKey: new Map(rows.map((r) => [foldKey(String(r.view.email)), r])) };
}

function personStanding(change: PersonChange, index: PersonIndex): Standing {
  if (change.action === 'create') {
    const row = index.byKey.get(foldKey(change.key));
    if (!row) return { state: 'pending', change };
    const off = differing(row.view, createdView(change));
    if (change.kind === 'user' && row.dept !== change.body.department_id) off.push('department');
    return off.length ? { state: 'stale', reason: `${change.kind} ${change.key} now exists (${off.join(', ')} differ from the plan)` } : { state: 'done' };
  }
  const row = index.byId.get(change.target_id);
  if (!row) return { state: 'stale', reason: `${change.kind} ${change.key} (id ${change.target_id}) no longer exists` };
  const off = differing(row.view, change.before);
  if (!off.length) return { state: 'pending', change };
  if (!differing(row.view, { ...change.before, ...change.after }).length) return { state: 'done' };
  return { state: 'stale', reason: `${change.kind} ${change.key} changed since the plan: ${off.join(', ')}` };
}

function conferenceStanding(change: ConferenceChange, now: Snapshot, creates: ReadonlySet<string>): Standing {
  const conference: TenantConference | undefined = (now.conferences ?? []).find((c) => foldKey(c.public_id) === foldKey(change.kind === 'attendee' ? change.conference : change.key));
  const view = conference && { title: conference.title, is_public: conference.is_public };
  switch (change.action) {
    case 'create':
      if (!conference) return { state: 'pending', change };
      return same(view, { title: change.body.title, is_public: change.body.is_public }) ? { state: 'done' } : { state: 'stale', reason: `conference ${change.key} now exists` };
    case 'update':
    case 'delete': {
      if (!conference || conference.id !== change.target_id) return change.action === 'delete' ? { state: 'done' } : { state: 'stale', reason: `conference ${change.key} (id ${change.target_id}) no longer exists or has ended` };
      if (same(view, change.before)) return { state: 'pending', change };
      if (change.action === 'update' && same(view, { ...change.before, ...change.after })) return { state: 'done' };
      return { state: 'stale', reason: `conference ${change.key} changed since the plan: ${differing(view!, change.before).join(', ')}` };
    }
    case 'add': {
      if (!conference) return creates.has(foldKey(change.conference)) ? { state: 'pending', change } : { state: 'stale', reason: `conference ${change.conference} no longer exists or has ended` };
      const attending = conference.attendees.some((a) => foldKey(a.email) === foldKey(change.body.email)) || foldKey(conference.host?.email ?? '') === foldKey(change.body.email);
      return attending ? { state: 'done' } : { state: 'pending', change: { ...change, conference_id: conference.id } };
    }
    case 'remove': {
      const attendee = conference?.attendees.find((a) => foldKey(a.email) === foldKey(change.email));
      return attendee ? { state: 'pending', change: { ...change, conference_id: conference!.id, attendee_id: attendee.id } } : { state: 'done' };
    }
  }
}

/** Each change of `changes` held against the tenant `now`, in order. */
export function standings(changes: readonly Change[], now: Snapshot): Standing[] {
  const creates = new Set(changes.filter((c) => c.kind === 'conference' && c.action === 'create').map((c) => foldKey(c.key)));
  const users = indexOf((now.users ?? []).map((u) => ({ id: u.id, dept: u.department_id, view: userView(u) })));
  const customers = indexOf((now.customers ?? []).map((c) => ({ id: c.id, dept: null, view: customerView(c) })));
  return changes.map((c) => (isPersonChange(c) ? personStanding(c, c.kind === 'user' ? users : customers) : conferenceStanding(c, now, creates)));
}
