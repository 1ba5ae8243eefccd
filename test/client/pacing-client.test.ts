import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { createPacer } from '../../src/client/pacing.js';
import { startMockServer } from '../http-mock.js';

const BASE = 'https://acme.test/api/public/v2.0';
const page = (n: number, last: number) => ({
  message: 'OK',
  data: [{ id: n }],
  current_page: n,
  last_page: last,
  next_page_url: n < last ? `${BASE}/users?page_number=${n + 1}` : null,
  total: last,
});

/** Every host is routed to this scripted server (plain HTTP on the socket): https://acme.test reaches it. */
const agent = await startMockServer();
afterAll(() => agent.close());

/** A client over the scripted server whose sleeps are recorded, not taken; its pacer reads a frozen clock. */
function setup() {
  agent.reset();
  const sleeps: number[] = [];
  const retries: string[] = [];
  const sleep = async (ms: number) => void sleeps.push(ms);
  const client = createClient({
    pacer: createPacer({ sleep, now: () => Date.parse('2026-01-31T09:30:00.300Z') }),
    baseUrl: BASE,
    keyId: 'ak_test',
    secret: 's',
    connect: agent.connect,
    sleep,
    onRetry: (r) => retries.push(r.reason),
  });
  return { agent, client, sleeps, retries, pool: agent.get('https://acme.test') };
}

const limited = (remaining: number) => ({
  headers: { 'content-type': 'application/json', 'ratelimit-limit': '5', 'ratelimit-remaining': String(remaining), 'ratelimit-reset': '1' },
});

describe('client pacing', () => {
  it('waits for the window to reset when RateLimit-Remaining reaches 0, instead of meeting a 429', async () => {
    const { client, sleeps, retries, pool, agent } = setup();
    pool.intercept({ path: '/api/public/v2.0/users', method: 'GET' }).reply(200, page(1, 3), limited(1));
    pool.intercept({ path: '/api/public/v2.0/users?page_number=2', method: 'GET' }).reply(200, page(2, 3), limited(0));
    pool.intercept({ path: '/api/public/v2.0/users?page_number=3', method: 'GET' }).reply(200, page(3, 3), limited(4));
    const ids: number[] = [];
    for await (const p of client.paginate('listUsers')) ids.push(...p.data.map((u) => u.id));
    expect(ids).toEqual([1, 2, 3]);
    expect(sleeps).toHaveLength(1);
    expect(sleeps).toEqual([1000]);
    expect(retries).toEqual([]);
    agent.assertNoPendingInterceptors();
  });

  it('a 429 still waits Retry-After and retries', async () => {
    const { client, sleeps, retries, pool } = setup();
    pool.intercept({ path: '/api/public/v2.0/users/1', method: 'GET' }).reply(429, 'Too many requests.', { headers: { 'retry-after': '2' } });
    pool.intercept({ path: '/api/public/v2.0/users/1', method: 'GET' }).reply(200, { message: 'OK', data: { id: 1 } }, limited(3));
    expect((await client.getUser(1)).data).toEqual({ id: 1 });
    expect(retries).toEqual(['HTTP 429']);
    expect(sleeps).toEqual([2000]);
  });

  it('an aborted signal stops the page iterator without retrying', async () => {
    const { client, retries, pool } = setup();
    pool.intercept({ path: '/api/public/v2.0/users', method: 'GET' }).reply(200, page(1, 3), limited(4));
    pool.intercept({ path: '/api/public/v2.0/users?page_number=2', method: 'GET' }).reply(200, page(2, 3), limited(3)).delay(5_000);
    const ac = new AbortController();
    const seen: number[] = [];
    const run = (async () => {
      for await (const p of client.paginate('listUsers', { signal: ac.signal })) {
        seen.push(p.current_page);
        setTimeout(() => ac.abort(), 20);
      }
    })();
    await expect(run).rejects.toThrow(/abort/i);
    expect(seen).toEqual([1]);
    expect(retries).toEqual([]);
  });
});
