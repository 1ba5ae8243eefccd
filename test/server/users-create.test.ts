import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_HOURS, setup, type Fixture } from './fixtures.js';

let f: Fixture;
let eng: number;
afterEach(() => f.store.close());
beforeEach(() => {
  f = setup();
  eng = f.store.departments.create(f.tenant.id, 'Eng').id;
  f.store.users.insert(f.tenant.id, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.test', role: 'Admin' });
  f.store.users.insert(f.tenant.id, { first_name: 'Gone', last_name: 'G', email: 'gone@acme.test', deleted_at: '2024-01-01T00:00:00.000Z' });
});

const HOURS = { ...NO_HOURS, monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 30, second: 0 } }] };
const BODY = { department_id: null, first_name: 'Grace', last_name: 'Hopper', email: 'grace@acme.test', timezone: 'America/New_York', work_hours: HOURS, role: 'Member' };

const create = (body: unknown, key = f.admin) => f.call('POST', '/users', { body, key });
/** Every user of the tenant, deleted ones too, with the outbox: what a refused request must leave alone. */
const ALL = { page_number: 1, page_size: 100, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null } as const;
const state = () => ({ users: f.store.users.list(f.tenant.id, ALL), invitations: f.store.invitations.list(f.tenant.id) });

/** Sends `body` and expects a 400 with exactly `errors` and nothing stored. */
async function rejects(body: unknown, errors: Record<string, string[]>, key = f.admin) {
  const before = state();
  const res = await create(body, key);
  expect(res.status, res.body).toBe(400);
  expect(res.json().errors).toEqual(errors);
  expect(state()).toEqual(before);
  return res.json();
}

describe('POST /users', () => {
  it('creates an inactive user and records one invitation to its e-mail, in the same write', async () => {
    const res = await create({ ...BODY, department_id: eng });
    expect(res.status, res.body).toBe(200);
    const { data } = res.json();
    const user = f.store.users.get(f.tenant.id, data.id)!;
    expect(res.json()).toEqual({ message: 'Success.', data: user });
    expect(user).toMatchObject({ ...BODY, department_id: eng, department_name: 'Eng', status: 0, name: 'Grace Hopper', avatar_url: null, deleted_at: null });
    expect(f.store.invitations.list(f.tenant.id)).toEqual([{ id: 1, tenant_id: f.tenant.id, user_id: user.id, email: 'grace@acme.test', created_at: user.created_at }]);
  });

  it('writes the user and its invitation in one transaction: a failed invitation leaves no user', async () => {
    const before = state();
    f.store.invitations.insert = () => {
      throw new Error('outbox unavailable');
    };
    const res = await create(BODY);
    expect([res.status, res.body]).toEqual([500, 'An unexpected error the service.']);
    expect(state()).toEqual(before);
  });

  it('activate makes status 1 at once; with is_silent no invitation is recorded', async () => {
    const active = await create({ ...BODY, activate: true });
    expect([active.status, active.json().data.status]).toEqual([200, 1]);
    expect(f.store.invitations.list(f.tenant.id).map((i) => i.user_id)).toEqual([active.json().data.id]);
    const silent = await create({ ...BODY, email: 'quiet@acme.test', activate: true, is_silent: true });
    expect([silent.status, silent.json().data.status]).toEqual([200, 1]);
    expect(f.store.users.get(f.tenant.id, silent.json().data.id)).toMatchObject({ status: 1, email: 'quiet@acme.test' });
    expect(f.store.invitations.list(f.tenant.id).map((i) => i.user_id)).toEqual([active.json().data.id]);
    const explicit = await create({ ...BODY, email: 'plain@acme.test', activate: false, is_silent: false });
    expect([explicit.status, explicit.json().data.status]).toEqual([200, 0]);
    expect(f.store.invitations.list(f.tenant.id)).toHaveLength(2);
  });

  it('requires the seven fields; only department_id may be null', async () => {
    const body = await rejects({}, {
      department_id: ['The department_id field is required.'],
      first_name: ['The first_name field is required.'],
      last_name: ['The last_name field is required.'],
      email: ['The email field is required.'],
      timezone: ['The timezone field is required.'],
      work_hours: ['The work_hours field is required.'],
      role: ['The role field is required.'],
    });
    expect(body.message).toBe('The department_id field is required. (and 6 more errors)');
    await rejects({ ...BODY, first_name: null, last_name: '', email: null, timezone: null, work_hours: null, role: null }, {
      first_name: ['The first_name field is required.'],
      last_name: ['The last_name field is required.'],
      email: ['The email field is required.'],
      timezone: ['The timezone field is required.'],
      work_hours: ['The work_hours field is required.'],
      role: ['The role field is required.'],
    });
  });

  it('validates each field as an update does', async () => {
    await rejects({ ...BODY, department_id: 'x', first_name: 5, last_name: 'L'.repeat(256), email: 'not-an-email', timezone: 'Mars/Base', role: 'Pilot' }, {
      department_id: ['The department_id field must be an integer.'],
      first_name: ['The first_name field must be a string.'],
      last_name: ['The last_name field must not be greater than 255 characters.'],
      email: ['The email field must be a valid email address.'],
      timezone: ['The timezone field must be a valid timezone.'],
      role: ['The selected role is invalid.'],
    });
    await rejects({ ...BODY, department_id: 9999 }, { department_id: ['The selected department_id is invalid.'] });
    const bad = { ...NO_HOURS, monday: [{ start: { hour: 18, minute: 0, second: 0 }, end: { hour: 9, minute: 0, second: 0 } }] };
    await rejects({ ...BODY, work_hours: bad }, { 'work_hours.monday.0': ['The work_hours.monday.0 field format is invalid.'] });
    const { sunday: _sunday, ...noSunday } = NO_HOURS;
    await rejects({ ...BODY, work_hours: noSunday }, { 'work_hours.sunday': ['The work_hours.sunday field is required.'] });
  });

  it('activate and is_silent are booleans; is_silent needs activate, reported under activate with the other errors', async () => {
    await rejects({ ...BODY, activate: 'yes', is_silent: 1 }, {
      activate: ['The activate field must be true or false.'],
      is_silent: ['The is_silent field must be true or false.'],
    });
    const silent = await rejects({ ...BODY, is_silent: true }, { activate: ['The activate field must be true when is_silent is true.'] });
    expect(silent.message).toBe('The activate field must be true when is_silent is true.');
    await rejects({ ...BODY, first_name: '', activate: false, is_silent: true }, {
      first_name: ['The first_name field is required.'],
      activate: ['The activate field must be true when is_silent is true.'],
    });
  });

  it('the e-mail is unique among live users ignoring case; a deleted user’s e-mail may be reused', async () => {
    await rejects({ ...BODY, email: 'ADA@Acme.Test' }, { email: ['The email has already been taken.'] });
    const reused = await create({ ...BODY, email: 'GONE@acme.test' });
    expect([reused.status, reused.json().data.email]).toEqual([200, 'GONE@acme.test']);
    await rejects({ ...BODY, email: 'gone@ACME.test' }, { email: ['The email has already been taken.'] });
  });

  it('needs users.create.*, and users.lock.* besides when activate is true (401 Access denied.)', async () => {
    const before = state();
    for (const permissions of [['users.read.*', 'users.update.*'], ['users.lock.*']]) {
      const res = await create(BODY, f.key(permissions));
      expect([res.status, res.body]).toEqual([401, 'Access denied.']);
    }
    const createOnly = f.key(['users.create.*']);
    const activating = await create({ ...BODY, activate: true }, createOnly);
    expect([activating.status, activating.body]).toEqual([401, 'Access denied.']);
    expect(state()).toEqual(before);
    const inactive = await create(BODY, createOnly);
    expect([inactive.status, inactive.json().data.status]).toEqual([200, 0]);
    const both = await create({ ...BODY, email: 'second@acme.test', activate: true }, f.key(['users.create.*', 'users.lock.*']));
    expect([both.status, both.json().data.status]).toEqual([200, 1]);
    const wildcard = await create({ ...BODY, email: 'third@acme.test', activate: true, is_silent: true }, f.key(['users.*']));
    expect(wildcard.status).toBe(200);
  });

  it('an invalid body is 400 whatever the key: validation comes before the users.lock.* check', async () => {
    const createOnly = f.key(['users.create.*']);
    await rejects({ ...BODY, email: 'bad', activate: true }, { email: ['The email field must be a valid email address.'] }, createOnly);
    await rejects({ ...BODY, is_silent: true }, { activate: ['The activate field must be true when is_silent is true.'] }, createOnly);
    // Without users.create.* the key is refused before the body is read.
    const res = await create({}, f.key(['users.lock.*']));
    expect([res.status, res.body]).toEqual([401, 'Access denied.']);
  });

  it('ignores unknown fields and never takes status, id or times from the body', async () => {
    const res = await create({ ...BODY, id: 77, status: 1, created_at: '2000-01-01T00:00:00.000Z', avatar_url: 'http://x' });
    expect(res.status).toBe(200);
    expect(res.json().data).toMatchObject({ status: 0, avatar_url: null });
    expect(res.json().data.id).not.toBe(77);
    expect(res.json().data.created_at).not.toBe('2000-01-01T00:00:00.000Z');
  });
});

describe('POST /users under serve --strict', () => {
  it('behaves as the lenient server: the body is complete by its own rules in both modes', async () => {
    for (const strict of [false, true]) {
      f.store.close();
      f = setup({ strict });
      const missing = await create({ first_name: 'A', last_name: 'B', email: 'a@acme.test', timezone: 'UTC', work_hours: NO_HOURS, role: 'Member' });
      expect([strict, missing.status, missing.json().errors]).toEqual([strict, 400, { department_id: ['The department_id field is required.'] }]);
      const ok = await create(BODY);
      expect([strict, ok.status, ok.json().data.department_id]).toEqual([strict, 200, null]);
    }
  });
});
