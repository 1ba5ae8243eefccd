import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, setup, type Fixture } from './fixtures.js';

let f: Fixture;
let u: number[]; // ids of users 1..5 (5 is soft-deleted)
let eng: number;

beforeAll(() => {
  f = setup();
  const t = f.tenant.id;
  eng = f.store.departments.create(t, 'Eng').id;
  const sales = f.store.departments.create(t, 'Sales').id;
  const rows = [
    { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.test', role: 'Admin', department_id: eng, status: 1, timezone: 'Europe/London', created_at: '2024-01-01T00:00:00.000Z' },
    { first_name: 'bob', last_name: '100%', email: 'Bob@Acme.test', role: 'Member', department_id: null, status: 0, timezone: null, created_at: '2024-02-01T00:00:00.000Z' },
    { first_name: 'Carl', last_name: '1_0', email: 'carl@other.test', role: 'Manager', department_id: sales, status: 1, timezone: 'UTC', created_at: '2024-03-01T00:00:00.000Z' },
    { first_name: 'Dora', last_name: '100', email: 'dora@acme.test', role: 'Member', department_id: eng, status: 1, timezone: null, created_at: '2024-04-01T00:00:00.000Z' },
    { first_name: 'Eve', last_name: 'Gone', email: 'eve@acme.test', role: 'Member', department_id: null, status: 1, timezone: null, created_at: '2024-05-01T00:00:00.000Z', deleted_at: '2024-06-01T00:00:00.000Z' },
  ];
  u = rows.map((r) => f.store.users.insert(t, r).id);
  f.store.users.insert(f.other.id, { first_name: 'Ada', last_name: 'Elsewhere', email: 'ada@acme.test' });
});
afterAll(() => f.store.close());

async function list(query: string) {
  const res = await f.call('GET', `/users?${query}`);
  expect(res.status, res.body).toBe(200);
  return res.json();
}
const ids = async (query: string) => (await list(query)).data.map((x: { id: number }) => x.id);
const filter = (attribute: string, operator: string, value?: string) =>
  `filter_attribute=${attribute}&filter_operator=${operator}${value === undefined ? '' : `&filter_value=${encodeURIComponent(value)}`}`;
const at = (...n: number[]) => n.map((i) => u[i - 1]);

describe('GET /users filters', () => {
  it('filters text attributes with every operator, case-insensitively', async () => {
    expect(await ids(filter('first_name', 'Equal', 'ADA'))).toEqual(at(1));
    expect(await ids(filter('first_name', 'NotEqual', 'ada'))).toEqual(at(2, 3, 4));
    expect(await ids(filter('email', 'Contains', 'ACME'))).toEqual(at(1, 2, 4));
    expect(await ids(filter('first_name', 'GreaterThan', 'bob'))).toEqual(at(3, 4));
    expect(await ids(filter('first_name', 'GreaterThanOrEqual', 'BOB'))).toEqual(at(2, 3, 4));
    expect(await ids(filter('first_name', 'LessThan', 'bob'))).toEqual(at(1));
    expect(await ids(filter('first_name', 'LessThanOrEqual', 'Bob'))).toEqual(at(1, 2));
    expect(await ids(filter('timezone', 'IsNull'))).toEqual(at(2, 4));
    expect(await ids(filter('timezone', 'NotNull'))).toEqual(at(1, 3));
  });

  it('defaults the operator to Equal and lets NotEqual skip nulls', async () => {
    expect(await ids('filter_attribute=role&filter_value=member')).toEqual(at(2, 4));
    expect(await ids(filter('timezone', 'NotEqual', 'UTC'))).toEqual(at(1));
  });

  it('treats % and _ literally in Contains', async () => {
    expect(await ids(filter('last_name', 'Contains', '%'))).toEqual(at(2));
    expect(await ids(filter('last_name', 'Contains', '_'))).toEqual(at(3));
    expect(await ids(filter('last_name', 'Contains', '1_0'))).toEqual(at(3));
    expect(await ids(filter('last_name', 'Contains', '0%'))).toEqual(at(2));
  });

  it('filters the derived department name', async () => {
    expect(await ids(filter('department', 'Equal', 'eng'))).toEqual(at(1, 4));
    expect(await ids(filter('department', 'IsNull'))).toEqual(at(2));
  });

  it('filters integer attributes with every operator', async () => {
    const id2 = String(u[1]);
    expect(await ids(filter('id', 'Equal', id2))).toEqual(at(2));
    expect(await ids(filter('id', 'NotEqual', id2))).toEqual(at(1, 3, 4));
    expect(await ids(filter('id', 'GreaterThan', id2))).toEqual(at(3, 4));
    expect(await ids(filter('id', 'GreaterThanOrEqual', id2))).toEqual(at(2, 3, 4));
    expect(await ids(filter('id', 'LessThan', id2))).toEqual(at(1));
    expect(await ids(filter('id', 'LessThanOrEqual', id2))).toEqual(at(1, 2));
    expect(await ids(filter('status', 'Equal', '0'))).toEqual(at(2));
    expect(await ids(filter('department_id', 'Equal', String(eng)))).toEqual(at(1, 4));
    expect(await ids(filter('department_id', 'IsNull'))).toEqual(at(2));
    expect(await ids(filter('department_id', 'NotNull'))).toEqual(at(1, 3, 4));
  });

  it('filters date attributes as instants with every operator', async () => {
    expect(await ids(filter('created_at', 'Equal', '2024-02-01'))).toEqual(at(2));
    expect(await ids(filter('created_at', 'NotEqual', '2024-02-01T00:00:00Z'))).toEqual(at(1, 3, 4));
    expect(await ids(filter('created_at', 'GreaterThan', '2024-02-01T00:00:00.000Z'))).toEqual(at(3, 4));
    expect(await ids(filter('created_at', 'GreaterThanOrEqual', '2024-02-01T01:00:00+01:00'))).toEqual(at(2, 3, 4));
    expect(await ids(filter('created_at', 'LessThan', '2024-02-01T01:00:00+01:00'))).toEqual(at(1));
    expect(await ids(filter('created_at', 'LessThanOrEqual', '2024-02-01'))).toEqual(at(1, 2));
    expect(await ids(filter('deleted_at', 'IsNull'))).toEqual(at(1, 2, 3, 4));
    expect(await ids(`with_trashed=true&${filter('deleted_at', 'NotNull')}`)).toEqual(at(5));
  });

  it('includes soft-deleted rows only with with_trashed', async () => {
    expect(await ids('')).toEqual(at(1, 2, 3, 4));
    expect(await ids('with_trashed=false')).toEqual(at(1, 2, 3, 4));
    expect(await ids('with_trashed=1')).toEqual(at(1, 2, 3, 4, 5));
    expect(await ids('with_trashed=true')).toEqual(at(1, 2, 3, 4, 5));
  });

  it('never shows another tenant’s rows', async () => {
    expect(await ids(filter('last_name', 'Equal', 'Elsewhere'))).toEqual([]);
  });
});

describe('GET /users ordering', () => {
  it('orders both ways, breaking ties by id in the same direction', async () => {
    expect(await ids('order_by=first_name')).toEqual(at(1, 2, 3, 4));
    expect(await ids('order_by=first_name&order_direction=desc')).toEqual(at(4, 3, 2, 1));
    expect(await ids('order_by=status&order_direction=asc')).toEqual(at(2, 1, 3, 4));
    expect(await ids('order_by=status&order_direction=desc')).toEqual(at(4, 3, 1, 2));
    expect(await ids('order_direction=desc')).toEqual(at(4, 3, 2, 1));
  });

  it('sorts nulls first ascending and last descending', async () => {
    expect(await ids('order_by=timezone')).toEqual(at(2, 4, 1, 3));
    expect(await ids('order_by=timezone&order_direction=desc')).toEqual(at(3, 1, 4, 2));
  });
});

describe('GET /users pagination', () => {
  const url = (query: string) => `http://localhost${API}/users?${query}`;

  it('builds the envelope with absolute, canonical page URLs', async () => {
    const first = await list('page_size=3');
    expect({ ...first, data: first.data.length }).toEqual({
      message: 'Success.',
      data: 3,
      current_page: 1,
      first_page_url: url('page_number=1&page_size=3'),
      from: 1,
      last_page: 2,
      last_page_url: url('page_number=2&page_size=3'),
      next_page_url: url('page_number=2&page_size=3'),
      path: `http://localhost${API}/users`,
      per_page: 3,
      prev_page_url: null,
      to: 3,
      total: 4,
    });
    const second = await list('page_size=3&page_number=2');
    expect(second).toMatchObject({ current_page: 2, from: 4, to: 4, next_page_url: null, prev_page_url: url('page_number=1&page_size=3') });
    expect(second.data.map((x: { id: number }) => x.id)).toEqual(at(4));
  });

  it('answers an empty page past the end with null from/to and no next page', async () => {
    const past = await list('page_size=3&page_number=5');
    expect(past).toMatchObject({ data: [], current_page: 5, from: null, to: null, last_page: 2, next_page_url: null, total: 4 });
    expect(past.prev_page_url).toBe(url('page_number=4&page_size=3'));
  });

  it('answers an empty result with last_page 1 and no neighbours', async () => {
    const none = await list(filter('first_name', 'Equal', 'nobody'));
    expect(none).toMatchObject({ data: [], current_page: 1, from: null, to: null, last_page: 1, next_page_url: null, prev_page_url: null, total: 0, per_page: 15 });
  });

  it('keeps every other query parameter and maps the per_page/page aliases', async () => {
    const q = 'order_by=email&filter_attribute=email&filter_operator=Contains&filter_value=acme&foo=a+b';
    const res = await list(`${q}&per_page=1&page=2`);
    expect(res.current_page).toBe(2);
    expect(res.per_page).toBe(1);
    expect(res.next_page_url).toBe(url(`${q}&page_number=3&page_size=1`));
    expect(res.prev_page_url).toBe(url(`${q}&page_number=1&page_size=1`));
    expect(res.first_page_url).toBe(url(`${q}&page_number=1&page_size=1`));
  });

  it('uses the Host port, and https only behind a trusted proxy that says so', async () => {
    const viaPort = await f.call('GET', '/users?page_size=1', { headers: { host: 'localhost:8443', 'x-forwarded-proto': 'https' } });
    expect(viaPort.json().path).toBe(`http://localhost:8443${API}/users`);
    const proxied = setup({ trustProxy: true });
    try {
      const res = await proxied.call('GET', '/users', { headers: { host: 'internal:3000', 'x-forwarded-host': 'LocalHost', 'x-forwarded-proto': 'https' } });
      expect(res.json().path).toBe(`https://LocalHost${API}/users`);
    } finally {
      proxied.store.close();
    }
  });
});

describe('GET /users query validation', () => {
  const cases: [string, Record<string, string[]>][] = [
    ['page_size=0', { page_size: ['The page_size field must be between 1 and 100.'] }],
    ['per_page=101', { page_size: ['The page_size field must be between 1 and 100.'] }],
    ['page_size=x', { page_size: ['The page_size field must be an integer.'] }],
    ['page_number=0', { page_number: ['The page_number field must be at least 1.'] }],
    ['with_trashed=yes', { with_trashed: ['The with_trashed field must be true or false.'] }],
    ['order_by=avatar_url', { order_by: ['The selected order_by is invalid.'] }],
    ['order_direction=up', { order_direction: ['The selected order_direction is invalid.'] }],
    ['filter_attribute=password&filter_value=x', { filter_attribute: ['The selected filter_attribute is invalid.'] }],
    [filter('email', 'Like', 'x'), { filter_operator: ['The selected filter_operator is invalid.'] }],
    [filter('email', 'Equal'), { filter_value: ['The filter_value field is required.'] }],
    [filter('status', 'Equal', 'one'), { filter_value: ['The filter_value field must be an integer.'] }],
    [filter('created_at', 'LessThan', 'yesterday'), { filter_value: ['The filter_value field must be a valid date.'] }],
  ];
  it.each(cases)('%s', async (query, errors) => {
    const res = await f.call('GET', `/users?${query}`);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ message: Object.values(errors)[0][0], errors });
  });

  it('counts the other errors in the message', async () => {
    const res = await f.call('GET', '/users?page_size=0&page_number=0&order_by=x');
    expect(res.json().message).toBe('The page_size field must be between 1 and 100. (and 2 more errors)');
  });
});
