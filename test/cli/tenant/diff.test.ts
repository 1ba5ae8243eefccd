import { describe, expect, it } from 'vitest';
import { problemLine } from '../../../src/cli/tenant/desired.js';
import type { Problem } from '../../../src/cli/tenant/model.js';
import { countsOf, guardProblem, makePlan, phaseOf } from '../../../src/cli/tenant/plan.js';
import { conference, NO_HOURS, OFFICE, read, snapshot } from './fixtures.js';

const NOW = new Date('2026-11-27T03:00:00.000Z');

function plan(files: { users?: string; customers?: string; conferences?: string }, over: Parameters<typeof snapshot>[0] = {}, prune = false) {
  const problems: Problem[] = [];
  const desired = Object.fromEntries(
    Object.entries(files).map(([kind, text]) => {
      const r = read(kind as 'users', text);
      problems.push(...r.problems);
      return [kind, r.desired];
    }),
  );
  expect(problems.map(problemLine)).toEqual([]);
  return makePlan({ desired, snapshot: snapshot(over), prune, baseUrl: 'http://h/api/public/v2.0', sources: ['t/'], now: NOW });
}

const ANN = `- {email: ann@x.test, first_name: F, last_name: L, department: Engineering, role: Member, timezone: UTC, work_hours: ${JSON.stringify(OFFICE)}}`;
const BOB = '- {email: bob@x.test, first_name: F, last_name: L, department: engineering, role: Member}';
const CY = `- {email: CY@X.TEST, first_name: F, last_name: L, role: Member, timezone: UTC, work_hours: ${JSON.stringify(OFFICE)}}`;

describe('plan: users', () => {
  it('the tenant as written plans no change (department and e-mail compared ignoring case; null timezone left null)', () => {
    const r = plan({ users: [ANN, BOB, CY].join('\n') });
    expect(r.problems).toEqual([]);
    expect(r.plan).toMatchObject({ format_version: 1, created_at: NOW.toISOString(), kinds: ['users'], changes: [], unmanaged: { users: [], customers: [], conferences: [] } });
  });

  it('an update carries the old and new value of each field changed and a complete body', () => {
    const r = plan({ users: [ANN.replace('role: Member', 'role: Manager').replace('Engineering', 'Sales'), CY].join('\n') });
    expect(r.plan!.changes).toEqual([
      {
        kind: 'user', action: 'update', key: 'ann@x.test', target_id: 1,
        before: { email: 'ann@x.test', first_name: 'F', last_name: 'L', department: 'Engineering', role: 'Member', timezone: 'UTC', work_hours: OFFICE },
        after: { department: 'Sales', role: 'Manager' },
        body: { department_id: 2, first_name: 'F', last_name: 'L', email: 'ann@x.test', timezone: 'UTC', work_hours: OFFICE, role: 'Manager' },
      },
    ]);
    expect(r.plan!.unmanaged.users).toEqual(['bob@x.test']);
  });

  it('a create has every key of POST /users; defaults (sync) fill what the record lacks and are named', () => {
    const d = read('users', '- {email: new@x.test, first_name: N, last_name: P}', 'yaml', true).desired.map((x) => ({ ...x, defaults: { timezone: 'UTC', role: 'Member', work_hours: NO_HOURS, department: null, activate: false } }));
    const r = makePlan({ desired: { users: d }, snapshot: snapshot(), prune: false, baseUrl: '', sources: [], now: NOW });
    expect(r.plan!.changes).toEqual([
      {
        kind: 'user', action: 'create', key: 'new@x.test',
        body: { department_id: null, first_name: 'N', last_name: 'P', email: 'new@x.test', timezone: 'UTC', work_hours: NO_HOURS, role: 'Member', activate: false, is_silent: false },
        defaults: ['timezone', 'role', 'work_hours', 'department', 'activate'],
      },
    ]);
  });

  it('names unknown and ambiguous departments, unknown roles, and fields a complete body needs', () => {
    const r = plan({
      users: [
        '- {email: ann@x.test, first_name: F, last_name: L, department: Nowhere, role: Boss, timezone: UTC}',
        '- {email: bob@x.test, first_name: G, last_name: L, department: TWIN, role: Member}',
        '- {email: new@x.test, first_name: N, last_name: P}',
      ].join('\n'),
    });
    expect(r.plan).toBeUndefined();
    expect(r.problems.map(problemLine)).toEqual([
      'users.yaml:1: ann@x.test: department: The selected department is invalid: no user of the tenant is in a department of this name (the API cannot list departments; declare one with --department NAME=ID).',
      'users.yaml:1: ann@x.test: role: The selected role is invalid: no user of the tenant holds it (the API cannot list roles; declare one with --role NAME).',
      'users.yaml:1: ann@x.test: work_hours: The work_hours field is required.',
      'users.yaml:2: bob@x.test: department: The department name is ambiguous: the tenant has departments 3, 4 named so.',
      "users.yaml:2: bob@x.test: timezone: The timezone field is required: the tenant's row has none, and an update sends every field.",
      "users.yaml:2: bob@x.test: work_hours: The work_hours field is required: the tenant's row has none, and an update sends every field.",
      'users.yaml:3: new@x.test: timezone: The timezone field is required.',
      'users.yaml:3: new@x.test: work_hours: The work_hours field is required.',
      'users.yaml:3: new@x.test: role: The role field is required.',
    ]);
  });
});

describe('plan: customers', () => {
  it('an address of nulls equals none; an update sends all six keys; a create sends {} for no address', () => {
    const same = plan({ customers: '- {email: CAT@c.test, first_name: Cat, last_name: C, address: {city: null}}' });
    expect(same.plan!.changes).toEqual([]);
    const r = plan({ customers: ['- {email: cat@c.test, first_name: Cat, last_name: C, address: {city: Rome}}', '- {email: dan@c.test, first_name: Dan, last_name: D}'].join('\n') });
    const rome = { line_1: null, line_2: null, city: 'Rome', region: null, region_code: null, country: null, country_code: null, postal_code: null };
    expect(r.plan!.changes).toEqual([
      { kind: 'customer', action: 'update', key: 'cat@c.test', target_id: 7, before: { email: 'cat@c.test', first_name: 'Cat', middle_name: null, last_name: 'C', contact_number: null, address: null }, after: { address: rome }, body: { first_name: 'Cat', middle_name: null, last_name: 'C', email: 'cat@c.test', contact_number: null, address: rome } },
      { kind: 'customer', action: 'create', key: 'dan@c.test', body: { first_name: 'Dan', middle_name: null, last_name: 'D', email: 'dan@c.test', contact_number: null, address: {} } },
    ]);
  });
});

describe('plan: conferences', () => {
  const WEEKLY = '- {public_id: weekly, title: T, is_public: true, host: ann@x.test, attendees: [{email: bob@x.test, name: Bob}]}';

  it('as read: no change; the host is never an attendee to add or remove', () => {
    expect(plan({ conferences: WEEKLY.replace('attendees: [', 'attendees: [{email: ANN@x.test, name: Ann}, ') }).plan!.changes).toEqual([]);
  });

  it('a new conference takes five attendees in its body, the rest are added after; updates, adds, removes and notes', () => {
    const guests = Array.from({ length: 7 }, (_, i) => `{email: g${i}@x.test, name: G${i}}`).join(', ');
    const r = plan({
      conferences: [
        '- {public_id: weekly, title: New title, is_public: true, host: ann@x.test, attendees: [{email: bob@x.test, name: Robert}, {email: eve@x.test, name: Eve}]}',
        `- {public_id: fresh, title: F, is_public: false, host: ann@x.test, attendees: [${guests}]}`,
      ].join('\n'),
    }, { conferences: [conference(50, 'weekly', { attendees: [{ id: 101, email: 'bob@x.test', name: 'Bob' }, { id: 102, email: 'old@x.test', name: 'Old' }] })] });
    const changes = r.plan!.changes;
    expect(changes.map((c) => `${c.action} ${c.kind} ${c.key}`)).toEqual([
      'update conference weekly',
      'create conference fresh',
      'add attendee weekly eve@x.test',
      'add attendee fresh g5@x.test',
      'add attendee fresh g6@x.test',
      'remove attendee weekly old@x.test',
    ]);
    expect(changes[1]).toMatchObject({ body: { online_conference_account_id: 10, public_id: 'fresh', title: 'F', is_public: false, online_conference_attendees: [0, 1, 2, 3, 4].map((i) => ({ email: `g${i}@x.test`, name: `G${i}` })) } });
    expect(changes[0]).toMatchObject({ before: { title: 'T', is_public: true }, after: { title: 'New title' }, body: { title: 'New title', is_public: true } });
    expect(changes[5]).toMatchObject({ conference_id: 50, attendee_id: 102, email: 'old@x.test' });
    expect(r.plan!.notes).toEqual(['weekly: attendee bob@x.test is named "Bob", the file says "Robert"; the API cannot rename an attendee, so the name stays']);
    expect(changes.map(phaseOf)).toEqual([1, 1, 2, 2, 2, 3]);
  });

  it('names what the API cannot do: a host without or with several accounts, a new host, a started conference changed', () => {
    const r = plan({
      users: [ANN, BOB, CY, '- {email: new@x.test, first_name: N, last_name: P, role: Member, timezone: UTC, work_hours: {sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: []}}'].join('\n'),
      conferences: [
        '- {public_id: a, title: T, is_public: true, host: cy@x.test}',
        '- {public_id: b, title: T, is_public: true, host: bob@x.test}',
        '- {public_id: c, title: T, is_public: true, host: new@x.test}',
        '- {public_id: d, title: T, is_public: true, host: cy@x.test, account: C}',
        '- {public_id: weekly, title: Changed, is_public: true, host: cy@x.test, account: B}',
        '- {public_id: e, title: T, is_public: true, host: cy@x.test, account: b}',
      ].join('\n'),
    }, { conferences: [conference(50, 'weekly', { started: true })] });
    expect(r.problems.map(problemLine)).toEqual([
      'conferences.yaml:1: a: host: The host has 2 conference accounts ("A", "B"): name one with account.',
      'conferences.yaml:2: b: host: The host has no conference account, and conference accounts cannot be made through the API.',
      'conferences.yaml:3: c: host: The host has no conference account: the plan creates this user, and conference accounts cannot be made through the API.',
      'conferences.yaml:4: d: account: The selected account is invalid: the host\'s conference accounts are "A", "B".',
      'conferences.yaml:5: weekly: host: The host cannot change: it is set when the conference is created (the host is ann@x.test).',
      'conferences.yaml:5: weekly: account: The account cannot change: it is set when the conference is created (the account is "Ann room").',
      'conferences.yaml:5: weekly: title: Cannot modify an online conference that has started.',
    ]);
  });

  it('conferences no file names are unmanaged, or deleted with prune (not one in progress)', () => {
    expect(plan({ conferences: '[]' }).plan!.unmanaged.conferences).toEqual(['weekly']);
    const pruned = plan({ conferences: '[]' }, {}, true).plan!;
    expect(pruned.changes).toEqual([{ kind: 'conference', action: 'delete', key: 'weekly', target_id: 50, before: { title: 'T', is_public: true } }]);
    expect(pruned.unmanaged.conferences).toEqual([]);
    expect(plan({ conferences: '[]' }, { conferences: [conference(50, 'weekly', { started: true })] }, true).problems.map(problemLine)).toEqual([
      'weekly: Cannot delete an online conference that is in progress. (--prune cannot delete it; add it to the files, or wait until it ends)',
    ]);
  });
});

describe('plan: counts and guards', () => {
  it('counts each action and refuses plans over the limits', () => {
    const p = plan({ users: [ANN.replace('Member', 'Admin')].join('\n'), conferences: '[]' }, {}, true).plan!;
    expect(countsOf(p)).toEqual({ create: 0, update: 1, delete: 1, add: 0, remove: 0, unmanaged: 2 });
    expect(guardProblem(p.changes, { maxChanges: 2, maxRemovals: 1 })).toBeUndefined();
    expect(guardProblem(p.changes, { maxChanges: 1 })).toBe('the plan has 2 changes, more than --max-changes 1');
    expect(guardProblem(p.changes, { maxRemovals: 0 })).toBe('the plan has 1 removals, more than --max-removals 0');
  });
});
