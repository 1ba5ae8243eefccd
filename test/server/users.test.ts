import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_HOURS, setup, type Fixture } from './fixtures.js';

let f: Fixture;
let ada: number;
let eng: number;
afterEach(() => f.store.close());
beforeEach(() => {
  f = setup();
  eng = f.store.departments.create(f.tenant.id, 'Eng').id;
  ada = f.store.users.insert(f.tenant.id, {
    first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.test', role: 'Admin', department_id: eng,
    timezone: 'Europe/London', work_hours: NO_HOURS,
  }).id;
  f.store.users.insert(f.tenant.id, { first_name: 'Bob', last_name: 'B', email: 'bob@acme.test' });
  f.store.users.insert(f.tenant.id, { first_name: 'Gone', last_name: 'G', email: 'gone@acme.test', deleted_at: '2024-01-01T00:00:00.000Z' });
});

const stored = () => f.store.users.get(f.tenant.id, ada);
const patch = (body: unknown, id = ada) => f.call('PATCH', `/users/${id}`, { body });

/** Sends `body` and expects a 400 with exactly `errors`, leaving the user as it was. */
async function rejects(body: unknown, errors: Record<string, string[]>) {
  const before = stored();
  const res = await patch(body);
  expect(res.status, res.body).toBe(400);
  expect(res.json().errors).toEqual(errors);
  expect(stored()).toEqual(before);
  return res.json();
}

describe('GET /users/{user_id}', () => {
  it('answers the user in the single envelope', async () => {
    const res = await f.call('GET', `/users/${ada}`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ message: 'Success.', data: stored() });
    expect(res.json().data).toMatchObject({ name: 'Ada Lovelace', department_name: 'Eng', status: 1 });
  });

  it('answers 404 for an absent, deleted or other tenant’s user', async () => {
    const foreign = f.store.users.insert(f.other.id, { first_name: 'O', last_name: 'T', email: 'o@t.test' }).id;
    for (const id of [9999, ada + 2, foreign]) {
      const res = await f.call('GET', `/users/${id}`);
      expect([res.status, res.body]).toEqual([404, 'Resource object does not exist.']);
    }
  });
});

describe('PATCH /users/{user_id}', () => {
  it('changes only the fields sent and stores them', async () => {
    const hours = { ...NO_HOURS, monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 24, minute: 0, second: 0 } }] };
    const res = await patch({ first_name: 'Augusta', role: 'Manager', work_hours: hours, email: 'ADA@acme.test' });
    expect(res.status).toBe(200);
    const user = stored()!;
    expect(res.json()).toEqual({ message: 'Success.', data: user });
    expect(user).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace', role: 'Manager', email: 'ADA@acme.test', work_hours: hours, timezone: 'Europe/London', department_id: eng });
    expect(user.name).toBe('Augusta Lovelace');
  });

  it('clears nullable fields sent as null', async () => {
    const res = await patch({ department_id: null, timezone: null, work_hours: null });
    expect(res.status).toBe(200);
    expect(stored()).toMatchObject({ department_id: null, department_name: null, timezone: null, work_hours: null });
  });

  it('treats an empty body as a no-op returning the user', async () => {
    const before = stored();
    const res = await patch({});
    expect(res.json()).toEqual({ message: 'Success.', data: before });
    expect(stored()).toEqual(before);
  });

  it('accepts an email held only by a deleted user, and its own email', async () => {
    expect((await patch({ email: 'gone@acme.test' })).status).toBe(200);
    expect((await patch({ email: 'GONE@acme.test' })).status).toBe(200);
  });

  it('validates before checking existence, then answers 404 for absent or foreign users', async () => {
    expect((await patch({ email: 'bad' }, 9999)).status).toBe(400);
    const foreign = f.store.users.insert(f.other.id, { first_name: 'O', last_name: 'T', email: 'o@t.test' });
    for (const id of [9999, foreign.id]) {
      const res = await patch({ first_name: 'X' }, id);
      expect([res.status, res.body]).toEqual([404, 'Resource object does not exist.']);
    }
    expect(f.store.users.get(f.other.id, foreign.id)).toEqual(foreign);
  });

  describe('validation messages', () => {
    it.each([
      [{ first_name: '' }, { first_name: ['The first_name field is required.'] }],
      [{ first_name: null }, { first_name: ['The first_name field is required.'] }],
      [{ last_name: 5 }, { last_name: ['The last_name field must be a string.'] }],
      [{ last_name: 'x'.repeat(256) }, { last_name: ['The last_name field must not be greater than 255 characters.'] }],
      [{ email: 'not-an-email' }, { email: ['The email field must be a valid email address.'] }],
      [{ email: 'BOB@acme.test' }, { email: ['The email has already been taken.'] }],
      [{ role: 'Owner' }, { role: ['The selected role is invalid.'] }],
      [{ role: 'admin' }, { role: ['The selected role is invalid.'] }],
      [{ department_id: 9999 }, { department_id: ['The selected department_id is invalid.'] }],
      [{ department_id: 'x' }, { department_id: ['The department_id field must be an integer.'] }],
      [{ timezone: 'Mars/Olympus' }, { timezone: ['The timezone field must be a valid timezone.'] }],
      [{ work_hours: 'all day' }, { work_hours: ['The work_hours field must be an array.'] }],
    ])('%j', async (body, errors) => {
      const json = await rejects(body, errors);
      expect(json.message).toBe(Object.values(errors)[0][0]);
    });

    it('rejects a department of another tenant', async () => {
      const foreign = f.store.departments.create(f.other.id, 'Theirs').id;
      await rejects({ department_id: foreign }, { department_id: ['The selected department_id is invalid.'] });
    });

    it('checks work hours: days, ranges, order and overlaps', async () => {
      const t = (hour: number, minute = 0, second = 0) => ({ hour, minute, second });
      const { sunday: _s, ...noSunday } = NO_HOURS;
      await rejects({ work_hours: noSunday }, { 'work_hours.sunday': ['The work_hours.sunday field is required.'] });
      await rejects(
        { work_hours: { ...NO_HOURS, monday: [{ start: t(9, 60), end: t(12, 0, -1) }] } },
        {
          'work_hours.monday.0.start.minute': ['The work_hours.monday.0.start.minute field must be between 0 and 59.'],
          'work_hours.monday.0.end.second': ['The work_hours.monday.0.end.second field must be between 0 and 59.'],
        },
      );
      await rejects(
        { work_hours: { ...NO_HOURS, monday: [{ start: t(24), end: t(24, 0, 1) }] } },
        {
          // An interval with an out-of-range part reports only that part.
          'work_hours.monday.0.start.hour': ['The work_hours.monday.0.start.hour field must be between 0 and 23.'],
        },
      );
      await rejects(
        { work_hours: { ...NO_HOURS, monday: [{ start: t(23), end: t(24, 0, 1) }] } },
        { 'work_hours.monday.0': ['The work_hours.monday.0 field format is invalid.'] },
      );
      await rejects(
        { work_hours: { ...NO_HOURS, monday: [{ start: t(9), end: t(25) }] } },
        {
          'work_hours.monday.0.end.hour': ['The work_hours.monday.0.end.hour field must be between 0 and 24.'],
        },
      );
      await rejects(
        { work_hours: { ...NO_HOURS, tuesday: [{ start: t(10), end: t(9) }] } },
        { 'work_hours.tuesday.0': ['The work_hours.tuesday.0 field format is invalid.'] },
      );
      await rejects(
        { work_hours: { ...NO_HOURS, friday: [{ start: t(9), end: t(12) }, { start: t(11, 59), end: t(13) }] } },
        { 'work_hours.friday.1': ['The work_hours.friday.1 field format is invalid.'] },
      );
    });

    it('merges schema and stored-data errors in body-schema order, counting the rest', async () => {
      const json = await rejects(
        { role: 'Owner', email: 'bob@acme.test', department_id: 9999, first_name: '' },
        {
          department_id: ['The selected department_id is invalid.'],
          first_name: ['The first_name field is required.'],
          email: ['The email has already been taken.'],
          role: ['The selected role is invalid.'],
        },
      );
      expect(json.message).toBe('The selected department_id is invalid. (and 3 more errors)');
      expect(Object.keys(json.errors)).toEqual(['department_id', 'first_name', 'email', 'role']);
      const one = await rejects({ last_name: '', role: 'Owner' }, {
        last_name: ['The last_name field is required.'],
        role: ['The selected role is invalid.'],
      });
      expect(one.message).toBe('The last_name field is required. (and 1 more error)');
    });
  });
});
