import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type Fixture } from './fixtures.js';

let f: Fixture;
beforeAll(() => {
  f = setup();
  f.store.users.insert(f.tenant.id, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.test' });
});
afterAll(() => f.store.close());

describe('list filter values (decisions §6: malformed values are 400)', () => {
  it('answers 400, not 500, for an integer value beyond the safe range', async () => {
    for (const value of ['99999999999999999999', '-9007199254740993']) {
      const res = await f.call('GET', `/users?filter_attribute=id&filter_operator=GreaterThan&filter_value=${value}`);
      expect(res.status, res.body).toBe(400);
      expect(res.json()).toEqual({
        message: 'The filter_value field must be an integer.',
        errors: { filter_value: ['The filter_value field must be an integer.'] },
      });
    }
  });

  it('still takes the largest safe integer', async () => {
    const res = await f.call('GET', `/users?filter_attribute=id&filter_operator=LessThan&filter_value=${Number.MAX_SAFE_INTEGER}`);
    expect(res.status).toBe(200);
    expect(res.json().total).toBe(1);
  });
});

describe('page parameters beyond the safe integers (decisions §10 message family)', () => {
  it.each([
    ['page_number=99999999999999999999', { page_number: ['The page_number field must be an integer.'] }],
    ['page_size=99999999999999999999', { page_size: ['The page_size field must be an integer.'] }],
  ])('%s is not an integer', async (query, errors) => {
    for (const path of ['/users', `/users/1/connected_accounts`]) {
      const res = await f.call('GET', `${path}?${query}`);
      expect([res.status, res.json()]).toEqual([400, { message: Object.values(errors)[0][0], errors }]);
    }
  });
});

describe('date filter values are ISO 8601 dates (decisions §1, §6)', () => {
  it.each(['5', 'March 7, 2026', '2026-02-30', '2026-01-31T25:00'])('rejects %j with 400', async (value) => {
    const res = await f.call('GET', `/users?filter_attribute=created_at&filter_operator=LessThan&filter_value=${encodeURIComponent(value)}`);
    expect([res.status, res.json()]).toEqual([400, { message: 'The filter_value field must be a valid date.', errors: { filter_value: ['The filter_value field must be a valid date.'] } }]);
  });

  it('compares an offset date-time as the instant it names, and one without offset as UTC', async () => {
    const id = f.store.users.insert(f.tenant.id, { first_name: 'Tim', last_name: 'Stamp', email: 'tim@acme.test', created_at: '2026-01-31T09:30:00.000Z' }).id;
    const list = async (op: string, value: string) =>
      (await f.call('GET', `/users?filter_attribute=created_at&filter_operator=${op}&filter_value=${encodeURIComponent(value)}`)).json().data.map((u: { id: number }) => u.id);
    expect(await list('Equal', '2026-01-31T10:30:00+01:00')).toEqual([id]);
    expect(await list('Equal', '2026-01-31T09:30:00')).toEqual([id]);
    expect(await list('LessThan', '2026-02-01')).toEqual([id]);
    expect(await list('LessThan', '2026-01-31T10:30:00+01:00')).toEqual([]);
  });
});
