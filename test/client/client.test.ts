import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { ApiError, NetworkError } from '../../src/client/errors.js';
import { type MockServer, startMockServer } from '../http-mock.js';

const ORIGIN = 'https://acme.test';
const BASE = `${ORIGIN}/api/public/v2.0`;
const JSONH = { headers: { 'content-type': 'application/json' } };
const TEXTH = { headers: { 'content-type': 'text/plain' } };

/** Every host is routed to this scripted server (plain HTTP on the socket): https://acme.test reaches it. */
const agent: MockServer = await startMockServer();
afterAll(() => agent.close());
let sleeps: number[];
const client = (extra: Partial<Parameters<typeof createClient>[0]> = {}) =>
  createClient({ baseUrl: BASE, keyId: 'ak_1', secret: 'shh', connect: agent.connect, sleep: async (ms) => void sleeps.push(ms), ...extra });
const pool = () => agent.get(ORIGIN);

beforeEach(() => {
  agent.reset();
  sleeps = [];
});
afterEach(() => agent.assertNoPendingInterceptors());

describe('requests', () => {
  it('sends the key headers, a request id and a JSON body', async () => {
    let seen: { headers: Record<string, string>; body: string } | undefined;
    pool()
      .intercept({ path: '/api/public/v2.0/customers', method: 'POST' })
      .reply((o) => {
        seen = { headers: o.headers as Record<string, string>, body: String(o.body) };
        return { statusCode: 200, data: { message: 'Created', data: { id: 7 } }, responseOptions: JSONH };
      });
    const res = await client().createCustomer({ first_name: 'Ada', last_name: 'L', email: 'ada@x.test' });
    expect(res.data.id).toBe(7);
    expect(seen!.headers['x-access-key-id']).toBe('ak_1');
    expect(seen!.headers['x-access-key-secret']).toBe('shh');
    expect(seen!.headers['content-type']).toBe('application/json');
    expect(seen!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(seen!.body)).toEqual({ first_name: 'Ada', last_name: 'L', email: 'ada@x.test' });
  });

  it('fills path parameters in order and encodes the query', async () => {
    pool()
      .intercept({ path: '/api/public/v2.0/online_conferences/3/recordings/5/url?expiry=60', method: 'GET' })
      .reply(200, { message: 'OK', data: { url: 'u', expires_at: 'e' } }, JSONH);
    pool()
      .intercept({ path: '/api/public/v2.0/users?filter_attribute=email&filter_operator=Contains&filter_value=%40acme&with_trashed=true', method: 'GET' })
      .reply(200, { message: 'OK', data: [] }, JSONH);
    expect((await client().getRecordingUrl(3, 5, { expiry: 60 })).data.url).toBe('u');
    await client().listUsers({ filter_attribute: 'email', filter_operator: 'Contains', filter_value: '@acme', with_trashed: true });
  });

  it('turns a plain-text error into ApiError with status, message and headers', async () => {
    pool().intercept({ path: '/api/public/v2.0/users/9', method: 'GET' }).reply(404, 'Resource object does not exist.', { headers: { 'content-type': 'text/plain', 'x-process-id': 'p1' } });
    const err = await client().getUser(9).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, message: 'Resource object does not exist.', method: 'GET', path: '/users/9' });
    expect(err.headers['x-process-id']).toBe('p1');
  });

  it('reads validation errors and the permissions of the operation', async () => {
    const body = { message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } };
    pool().intercept({ path: '/api/public/v2.0/users/1', method: 'PATCH' }).reply(400, body, JSONH);
    const err = await client().updateUser(1, { email: 'a@b.c' }).catch((e) => e);
    expect(err).toMatchObject({ status: 400, message: body.message, errors: body.errors, permissions: ['users.update.*'] });
  });
});

describe('retries', () => {
  it('honours Retry-After on 429 and then succeeds', async () => {
    pool().intercept({ path: '/api/public/v2.0/users/1', method: 'GET' }).reply(429, 'Too many requests.', { headers: { 'retry-after': '2', ...TEXTH.headers } });
    pool().intercept({ path: '/api/public/v2.0/users/1', method: 'GET' }).reply(200, { message: 'OK', data: { id: 1 } }, JSONH);
    expect((await client().getUser(1)).data.id).toBe(1);
    expect(sleeps).toEqual([2000]);
  });

  it('retries a POST on 429 too, and gives up after maxTries with the 429', async () => {
    pool().intercept({ path: '/api/public/v2.0/customers', method: 'POST' }).reply(429, 'Too many requests.', { headers: { 'retry-after': '1' } }).times(5);
    const retries: number[] = [];
    const err = await client({ onRetry: (i) => retries.push(i.tries) })
      .createCustomer({ first_name: 'a', last_name: 'b', email: 'c@d.e' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, tries: 5 });
    expect(sleeps).toEqual([1000, 1000, 1000, 1000]);
    expect(retries).toEqual([1, 2, 3, 4]);
  });

  it('retries a GET on 5xx and network errors with exponential backoff', async () => {
    const p = pool();
    p.intercept({ path: '/api/public/v2.0/users/1', method: 'GET' }).reply(503, 'down');
    p.intercept({ path: '/api/public/v2.0/users/1', method: 'GET' }).replyWithError(new Error('socket hang up'));
    p.intercept({ path: '/api/public/v2.0/users/1', method: 'GET' }).reply(500, 'An unexpected error the service.');
    p.intercept({ path: '/api/public/v2.0/users/1', method: 'GET' }).reply(200, { message: 'OK', data: { id: 1 } }, JSONH);
    expect((await client().getUser(1)).data.id).toBe(1);
    expect(sleeps).toEqual([250, 500, 1000]);
  });

  it('throws NetworkError after maxTries network failures of a GET', async () => {
    pool().intercept({ path: '/api/public/v2.0/users/1', method: 'GET' }).replyWithError(new Error('ECONNREFUSED')).times(3);
    const err = await client({ maxTries: 3 }).getUser(1).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ tries: 3, timedOut: false });
  });

  it('never retries POST or PATCH on 5xx or network errors', async () => {
    pool().intercept({ path: '/api/public/v2.0/customers', method: 'POST' }).reply(500, 'An unexpected error the service.');
    pool().intercept({ path: '/api/public/v2.0/customers/7', method: 'PATCH' }).replyWithError(new Error('reset'));
    const c = client();
    expect(await c.createCustomer({ first_name: 'a', last_name: 'b', email: 'c@d.e' }).catch((e) => e)).toMatchObject({ status: 500, tries: 1 });
    expect(await c.updateCustomer(7, { first_name: 'x' }).catch((e) => e)).toBeInstanceOf(NetworkError);
    expect(sleeps).toEqual([]);
  });

  it('times out a slow answer as a NetworkError', async () => {
    pool().intercept({ path: '/api/public/v2.0/customers', method: 'POST' }).reply(200, { message: 'OK', data: {} }, JSONH).delay(500);
    const err = await client({ timeoutMs: 50 }).createCustomer({ first_name: 'a', last_name: 'b', email: 'c@d.e' }).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.timedOut).toBe(true);
  });
});

describe('paginate', () => {
  const env = (n: number, next: string | null | undefined, last = 3) => ({
    message: 'OK',
    data: [{ id: n }],
    current_page: n,
    last_page: last,
    total: last,
    ...(next === undefined ? {} : { next_page_url: next }),
  });

  it('follows next_page_url and yields pages with total', async () => {
    const p = pool();
    p.intercept({ path: '/api/public/v2.0/customers?page_size=1', method: 'GET' }).reply(200, env(1, `${BASE}/customers?page_size=1&page_number=2`), JSONH);
    p.intercept({ path: '/api/public/v2.0/customers?page_size=1&page_number=2', method: 'GET' }).reply(200, env(2, `${BASE}/customers?page_size=1&page_number=3`), JSONH);
    p.intercept({ path: '/api/public/v2.0/customers?page_size=1&page_number=3', method: 'GET' }).reply(200, env(3, null), JSONH);
    const seen = [];
    for await (const page of client().paginate('listCustomers', { query: { page_size: 1 } })) seen.push([page.data[0].id, page.total]);
    expect(seen).toEqual([[1, 3], [2, 3], [3, 3]]);
  });

  it('counts up page_number when next_page_url is absent or on another origin', async () => {
    const p = pool();
    p.intercept({ path: '/api/public/v2.0/online_conferences/3/attendees', method: 'GET' }).reply(200, env(1, 'http://internal:8080/x?page_number=2', 2), JSONH);
    p.intercept({ path: '/api/public/v2.0/online_conferences/3/attendees?page_number=2', method: 'GET' }).reply(200, env(2, undefined, 2), JSONH);
    const ids = [];
    for await (const page of client().paginate('listConferenceAttendees', { params: { online_conference_id: 3 } })) ids.push(page.current_page);
    expect(ids).toEqual([1, 2]);
  });

  it('asks for the next page while the caller still holds the current one (one page ahead)', async () => {
    const p = pool();
    let askedForSecond: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (askedForSecond = resolve));
    p.intercept({ path: '/api/public/v2.0/customers?page_size=1', method: 'GET' }).reply(200, env(1, `${BASE}/customers?page_size=1&page_number=2`, 2), JSONH);
    p.intercept({ path: '/api/public/v2.0/customers?page_size=1&page_number=2', method: 'GET' }).reply(() => {
      askedForSecond();
      return { statusCode: 200, data: env(2, null, 2), responseOptions: JSONH };
    });
    const pages = client().paginate('listCustomers', { query: { page_size: 1 } });
    const first = await pages.next();
    expect(first.value?.current_page).toBe(1);
    // Without the request ahead this would wait for ever (and the test time out).
    await second;
    const next = await pages.next();
    expect(next.value?.current_page).toBe(2);
    expect((await pages.next()).done).toBe(true);
  });
});
