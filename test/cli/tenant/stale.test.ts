import { describe, expect, it } from 'vitest';
import type { Change } from '../../../src/cli/tenant/model.js';
import { checkPlan } from '../../../src/cli/tenant/plan.js';
import { standings } from '../../../src/cli/tenant/stale.js';
import { conference, OFFICE, snapshot, user } from './fixtures.js';

const annView = { email: 'ann@x.test', first_name: 'F', last_name: 'L', department: 'Engineering', role: 'Member', timezone: 'UTC', work_hours: OFFICE };
const update: Change = { kind: 'user', action: 'update', key: 'ann@x.test', target_id: 1, before: annView, after: { role: 'Admin' }, body: {} };
const create: Change = {
  kind: 'user', action: 'create', key: 'new@x.test',
  body: { department_id: 2, first_name: 'N', last_name: 'P', email: 'new@x.test', timezone: 'UTC', work_hours: OFFICE, role: 'Member', activate: false, is_silent: false },
};

describe('stale check', () => {
  it('pending while the tenant holds what the plan read; done once it holds what the change makes; else stale, named', () => {
    expect(standings([update, create], snapshot())).toEqual([{ state: 'pending', change: update }, { state: 'pending', change: create }]);
    const applied = snapshot({ users: [user(1, 'ann@x.test', { role: 'Admin' }), user(9, 'new@x.test', { first_name: 'N', last_name: 'P', department_id: 2, department_name: 'Sales' })] });
    expect(standings([update, create], applied)).toEqual([{ state: 'done' }, { state: 'done' }]);
    const other = snapshot({ users: [user(1, 'ann@x.test', { last_name: 'Changed' }), user(9, 'NEW@x.test', { first_name: 'Other' })] });
    expect(standings([update, create], other)).toEqual([
      { state: 'stale', reason: 'user ann@x.test changed since the plan: last_name' },
      { state: 'stale', reason: 'user new@x.test now exists (first_name, last_name, department differ from the plan)' },
    ]);
    expect(standings([update], snapshot({ users: [] }))).toEqual([{ state: 'stale', reason: 'user ann@x.test (id 1) no longer exists' }]);
  });

  it('conferences and attendees: adds resolve the conference by public id, removes the attendee by e-mail', () => {
    const add: Change = { kind: 'attendee', action: 'add', key: 'fresh g@x.test', conference: 'fresh', conference_id: null, body: { email: 'g@x.test', name: 'G' } };
    const remove: Change = { kind: 'attendee', action: 'remove', key: 'weekly bob@x.test', conference: 'weekly', conference_id: 50, attendee_id: 101, email: 'bob@x.test' };
    const createConf: Change = { kind: 'conference', action: 'create', key: 'fresh', body: { title: 'F', is_public: false } };
    const del: Change = { kind: 'conference', action: 'delete', key: 'weekly', target_id: 50, before: { title: 'T', is_public: true } };
    expect(standings([createConf, add, remove, del], snapshot()).map((s) => s.state)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect(standings([add], snapshot())).toEqual([{ state: 'stale', reason: 'conference fresh no longer exists or has ended' }]);
    const later = snapshot({ conferences: [conference(60, 'fresh', { title: 'F', is_public: false, attendees: [] }), conference(50, 'weekly', { attendees: [{ id: 105, email: 'BOB@x.test', name: 'Bob' }] })] });
    expect(standings([createConf, add, remove], later)).toEqual([
      { state: 'done' },
      { state: 'pending', change: { ...add, conference_id: 60 } },
      { state: 'pending', change: { ...remove, attendee_id: 105 } },
    ]);
    const finished = snapshot({ conferences: [conference(60, 'fresh', { title: 'F', is_public: false, attendees: [{ id: 1, email: 'g@x.test', name: 'G' }] })] });
    expect(standings([add, remove, del], finished).map((s) => s.state)).toEqual(['done', 'done', 'done']);
    expect(standings([del], snapshot({ conferences: [conference(50, 'weekly', { title: 'Renamed' })] }))).toEqual([{ state: 'stale', reason: 'conference weekly changed since the plan: title' }]);
  });
});

describe('saved plans', () => {
  it('applies only format_version 1 and known changes', () => {
    expect(checkPlan({ format_version: 2 }).problem).toBe("the plan's format_version is 2; this confctl applies format_version 1");
    expect(checkPlan([]).problem).toBe('the file is not a plan (a JSON object with format_version)');
    expect(checkPlan({ format_version: 1, changes: [{ kind: 'group', key: 'x' }], kinds: [], unmanaged: {}, base_url: '' }).problem).toBe('change 0 of the plan is not one this confctl knows');
    expect(checkPlan({ format_version: 1, changes: [], kinds: ['users'], unmanaged: { users: [], customers: [], conferences: [] }, base_url: 'u' }).plan).toMatchObject({ sources: [], notes: [], prune: false });
  });
});
