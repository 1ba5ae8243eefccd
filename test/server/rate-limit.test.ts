import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CLIENTS_PER_WINDOW, RateLimiter } from '../../src/server/rate-limit.js';
import { setup, type Fixture } from './fixtures.js';

let f: Fixture;
afterEach(() => f?.store.close());

const T0 = Date.parse('2030-01-01T00:00:00.000Z');

describe('RateLimiter', () => {
  it('counts per client in windows aligned to whole seconds', () => {
    let now = T0 + 900;
    const rl = new RateLimiter({ client: 2, tenant: 100 }, () => now);
    expect(rl.hit(1, 'a')).toEqual({ allowed: true, limit: 2, remaining: 1, reset: 1 });
    expect(rl.hit(1, 'a').remaining).toBe(0);
    expect(rl.hit(1, 'a')).toEqual({ allowed: false, limit: 2, remaining: 0, reset: 1 });
    expect(rl.hit(1, 'b').allowed).toBe(true);
    now = T0 + 1000; // the next second starts a fresh window, though only 100 ms passed
    expect(rl.hit(1, 'a')).toEqual({ allowed: true, limit: 2, remaining: 1, reset: 1 });
  });

  it('counts per tenant across clients and reports the limit closest to exhaustion', () => {
    const rl = new RateLimiter({ client: 3, tenant: 4 }, () => T0);
    expect(rl.hit(1, 'a')).toMatchObject({ limit: 3, remaining: 2 }); // client 2 left, tenant 3 left
    expect(rl.hit(1, 'b')).toMatchObject({ limit: 3, remaining: 2 }); // tenant 2 left: tie goes to the client
    expect(rl.hit(1, 'c')).toMatchObject({ allowed: true, limit: 4, remaining: 1 });
    expect(rl.hit(1, 'd')).toMatchObject({ allowed: true, limit: 4, remaining: 0 });
    expect(rl.hit(1, 'e')).toMatchObject({ allowed: false, limit: 4, remaining: 0 });
    expect(rl.hit(2, 'f')).toMatchObject({ allowed: true, limit: 3, remaining: 2 }); // another tenant
  });

  it("does not charge the tenant for a request its client limit refused", () => {
    const rl = new RateLimiter({ client: 1, tenant: 2 }, () => T0);
    rl.hit(1, 'a');
    for (let i = 0; i < 5; i++) expect(rl.hit(1, 'a').allowed).toBe(false);
    expect(rl.hit(1, 'b').allowed).toBe(true);
  });

  it('charges no tenant for a client counted without one (an unauthenticated address)', () => {
    const rl = new RateLimiter({ client: 5, tenant: 2 }, () => T0);
    for (let i = 0; i < 4; i++) expect(rl.hit(null, `address:10.0.0.${i}`)).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
    expect(rl.hit(1, 'key:a')).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(rl.peek(null, 'address:10.0.0.0')).toMatchObject({ limit: 5, remaining: 4 });
  });

  it('keeps at most MAX_CLIENTS_PER_WINDOW clients a window; newcomers beyond share one bucket', () => {
    expect(MAX_CLIENTS_PER_WINDOW).toBe(100_000);
    const rl = new RateLimiter({ client: 2, tenant: 10 }, () => T0);
    for (let i = 0; i < MAX_CLIENTS_PER_WINDOW; i++) rl.hit(null, `address:${i}`);
    expect(rl.hit(null, 'address:new-1').remaining).toBe(1);
    expect(rl.hit(null, 'address:new-2').remaining).toBe(0);
    expect(rl.hit(null, 'address:new-3').allowed).toBe(false);
    expect(rl.hit(null, 'address:0')).toMatchObject({ allowed: true, remaining: 0 }); // known clients keep their own
    expect((rl as unknown as { clients: Map<string, number> }).clients.size).toBe(MAX_CLIENTS_PER_WINDOW + 1);
  });
});

describe('rate limits over HTTP', () => {
  it('answers 429 with Retry-After and RateLimit-* headers; a key counts against its own bucket', async () => {
    let now = T0 + 250;
    f = setup({ rateLimit: { client: 5, tenant: 10 }, now: () => now });
    for (let i = 0; i < 5; i++) {
      const res = await f.call('GET', '/users');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-remaining']).toBe(String(4 - i));
      expect(res.headers['ratelimit-reset']).toBe('1');
    }
    const res = await f.call('GET', '/users');
    expect([res.status, res.body]).toEqual([429, 'Too many requests.']);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['ratelimit-remaining']).toBe('0');
    // Another key of the same tenant still has room; the next second resets the first.
    expect((await f.call('GET', '/users', { key: f.key() })).status).toBe(200);
    now += 750;
    expect((await f.call('GET', '/users')).status).toBe(200);
  });

  it('counts invalid requests against their address only: 401 while under the limit, then 429 first', async () => {
    f = setup({ rateLimit: { client: 5, tenant: 10 }, now: () => T0 });
    const wrong = { ...f.admin, 'x-access-key-secret': 'wrong' };
    for (let i = 0; i < 5; i++) {
      const res = await f.call('GET', '/users', { key: wrong });
      expect([res.status, res.body]).toEqual([401, 'Invalid or missing access key.']);
      expect(res.headers).toMatchObject({ 'ratelimit-limit': '5', 'ratelimit-remaining': String(4 - i), 'ratelimit-reset': '1' });
    }
    const limited = await f.call('GET', '/users', { key: wrong });
    expect([limited.status, limited.body, limited.headers['retry-after']]).toEqual([429, 'Too many requests.', '1']);
    expect((await f.call('GET', '/users', { key: null })).status).toBe(429); // the same address, no key at all
    // The key whose id the wrong secrets named kept its whole bucket, and the tenant its budget.
    const own = await f.call('GET', '/users');
    expect([own.status, own.headers['ratelimit-remaining']]).toEqual([200, '4']);
    // Another address still gets its 401.
    const elsewhere = await f.app.request({ path: '/api/public/v2.0/users', remoteAddress: '10.0.0.9' });
    expect([elsewhere.status, elsewhere.headers['ratelimit-remaining']]).toEqual([401, '4']);
  });

  it('limits the tenant as a whole over its keys; keyless clients never spend its budget', async () => {
    f = setup({ rateLimit: { client: 5, tenant: 10 }, now: () => T0 });
    const keyless: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await f.app.request({ path: '/api/public/v2.0/users', remoteAddress: `10.0.0.${i % 3}` });
      keyless.push(res.status);
    }
    expect(keyless.every((s) => s === 401)).toBe(true); // four per address: under each address's limit
    const keys = [f.admin, f.key(), f.key()];
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await f.call('GET', '/users', { key: keys[i % 3] })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    const other = f.key(['*'], f.other.id);
    expect((await f.call('GET', '/users', { key: other, headers: { host: 'other.test' } })).status).toBe(200);
  });

  it('a flood of made-up key ids and wrong secrets from the victim\'s address leaves the victim at 200', async () => {
    f = setup({ rateLimit: { client: 5, tenant: 10 }, now: () => T0 });
    const second = f.key();
    const flood: number[] = [];
    for (let i = 0; i < 200; i++) {
      const fake = { 'x-access-key-id': `ak_${String(i).padStart(24, '0')}`, 'x-access-key-secret': 'x'.repeat(48) };
      const noSecret = { 'x-access-key-id': `ak_${String(i).padStart(24, 'Z')}` };
      const wrong = { 'x-access-key-id': f.admin['x-access-key-id'], 'x-access-key-secret': 'y'.repeat(48) };
      for (const headers of [fake, noSecret, wrong]) flood.push((await f.app.request({ path: '/api/public/v2.0/users', headers })).status);
    }
    // The flood spends its own address's bucket: five 401s, then 429 for the rest of the window.
    expect(flood).toEqual([...Array(5).fill(401), ...Array(595).fill(429)]);
    // The victim's two keys, from the same address (127.0.0.1), use the whole tenant budget of 10.
    for (let i = 0; i < 10; i++) {
      const res = await f.call('GET', '/users', { key: i % 2 ? second : f.admin });
      expect(res.status).toBe(200);
    }
    expect((await f.call('GET', '/users', { key: second })).status).toBe(429); // only their own budget ends them
  });
  it('takes the keyless client from X-Forwarded-For only behind a trusted proxy', async () => {
    for (const trustProxy of [false, true]) {
      f = setup({ rateLimit: { client: 1, tenant: 100 }, trustProxy, now: () => T0 });
      const hit = (ip: string) => f.app.request({ path: '/api/public/v2.0/users', headers: { 'x-forwarded-for': `1.1.1.1, ${ip}` } });
      expect((await hit('10.0.0.1')).status).toBe(401);
      expect((await hit('10.0.0.2')).status).toBe(trustProxy ? 401 : 429);
      f.store.close();
    }
    f = setup();
  });

  it('sends no RateLimit headers when limits are off', async () => {
    f = setup({ rateLimit: null });
    for (let i = 0; i < 30; i++) expect((await f.call('GET', '/users')).status).toBe(200);
    expect((await f.call('GET', '/users')).headers['ratelimit-limit']).toBeUndefined();
  });

  it('reports the window without counting on answers decided before the rate-limit stage', async () => {
    // A frozen clock keeps every request in one window.
    f = setup({ rateLimit: { client: 2, tenant: 10 }, now: () => Date.UTC(2026, 0, 1, 0, 0, 0, 500) });
    const spent = await f.call('GET', '/users');
    expect(spent.headers['ratelimit-remaining']).toBe('1');
    for (const path of ['/openapi.json', '/nope', '/nope/again']) {
      const r = await f.call('GET', path);
      expect(r.headers).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '1', 'ratelimit-reset': '1' });
    }
    const wrongMethod = await f.call('DELETE', '/users');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers['ratelimit-remaining']).toBe('1');
    // Those answers did not spend the budget: one more request still passes.
    expect((await f.call('GET', '/users')).status).toBe(200);
    expect((await f.call('GET', '/users')).status).toBe(429);
  });
});
