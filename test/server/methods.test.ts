import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/index.js';
import { listen, stop } from './conferences-fixture.js';
import { API, setup, type Fixture } from './fixtures.js';

let f: Fixture;
afterEach(() => f?.store.close());

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const ORIGIN = 'http://localhost:3000';
const EXPOSED = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Process-ID, X-Request-ID';
const withoutIds = (h: Record<string, string>) => {
  const { 'x-process-id': _p, ...rest } = h;
  return rest;
};

describe('HEAD: the GET in every respect, without the body', () => {
  it('answers each GET operation with the GET status and headers, Content-Length included', async () => {
    f = setup();
    f.store.users.insert(f.tenant.id, { first_name: 'Ada', last_name: 'L', email: 'ada@acme.test' });
    const gets = OPERATIONS.filter((op) => op.method === 'GET').map((op) => op.path.replace(/\{[a-z_]+\}/g, '1'));
    expect(gets.length).toBeGreaterThan(5);
    for (const path of [...gets, '/openapi.json']) {
      const get = await f.call('GET', path, { headers: { 'x-request-id': 'r1' } });
      const head = await f.call('HEAD', path, { headers: { 'x-request-id': 'r1' } });
      expect(head.status, path).toBe(get.status);
      expect(head.body, path).toBe('');
      expect(withoutIds(head.headers), path).toEqual({ ...withoutIds(get.headers), 'content-length': String(Buffer.byteLength(get.body)) });
    }
  });

  it('checks tenant, key and permissions like GET', async () => {
    f = setup();
    expect((await f.call('HEAD', '/users', { key: null })).status).toBe(401);
    expect((await f.call('HEAD', '/users', { key: f.key(['customers.read.*']) })).status).toBe(401);
    expect((await f.call('HEAD', '/users', { headers: { host: 'nobody.test' } })).status).toBe(404);
    expect((await f.call('HEAD', '/users/99')).status).toBe(404);
    const bad = await f.call('HEAD', '/users?page_size=0');
    expect([bad.status, bad.body, bad.headers['content-type']]).toEqual([400, '', 'application/json; charset=utf-8']);
  });

  it('counts against the rate limit like GET', async () => {
    f = setup({ rateLimit: { client: 2, tenant: 10 }, now: () => T0 });
    expect((await f.call('HEAD', '/users')).headers['ratelimit-remaining']).toBe('1');
    expect((await f.call('HEAD', '/users')).headers['ratelimit-remaining']).toBe('0');
    const limited = await f.call('HEAD', '/users');
    expect([limited.status, limited.headers['retry-after'], limited.headers['content-length'], limited.body]).toEqual([429, '1', '18', '']);
  });

  it('sends no body on the socket, but the GET length', async () => {
    f = setup();
    const origin = await listen(f.app.server);
    try {
      const get = await fetch(`${origin}${API}/openapi.json`);
      const getBody = await get.text();
      const head = await new Promise<{ status: number; length: string | undefined; body: string }>((resolve, reject) => {
        const req = httpRequest(`${origin}${API}/openapi.json`, { method: 'HEAD' }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, length: res.headers['content-length'], body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(head).toEqual({ status: 200, length: String(Buffer.byteLength(getBody)), body: '' });
    } finally {
      await stop(f.app.server);
    }
  });
});

describe('OPTIONS', () => {
  it('answers 204 with Allow on a known path, on any Host, without a key, never rate limited', async () => {
    f = setup({ rateLimit: { client: 1, tenant: 1 }, now: () => T0 });
    for (let i = 0; i < 3; i++) {
      const res = await f.app.request({ method: 'OPTIONS', path: `${API}/users/1`, headers: { host: 'nobody.test' } });
      expect([res.status, res.body, res.headers.allow]).toEqual([204, '', 'GET, PATCH, HEAD, OPTIONS']);
      expect(res.headers['ratelimit-remaining']).toBe('1');
    }
    expect((await f.app.request({ method: 'OPTIONS', path: `${API}/customers` })).headers.allow).toBe('GET, POST, HEAD, OPTIONS');
    expect((await f.app.request({ method: 'OPTIONS', path: '/docs' })).headers.allow).toBe('GET, HEAD, OPTIONS');
    expect((await f.app.request({ method: 'OPTIONS', path: `${API}/nope` })).status).toBe(404);
    expect((await f.app.request({ method: 'OPTIONS', path: `${API}/users/1` })).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS (serve --cors)', () => {
  it('answers a preflight from a listed origin with the allowed methods and headers', async () => {
    f = setup({ cors: [ORIGIN] });
    const res = await f.app.request({ method: 'OPTIONS', path: `${API}/users/1`, headers: { origin: ORIGIN, 'access-control-request-method': 'PATCH' } });
    expect(res.status).toBe(204);
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-methods': 'GET, PATCH, HEAD, OPTIONS',
      'access-control-allow-headers': 'X-Access-Key-Id, X-Access-Key-Secret, Content-Type, X-Request-ID',
      'access-control-expose-headers': EXPOSED,
      vary: 'Origin',
    });
  });

  it('adds the allow and expose headers to every answer for a listed origin, errors included', async () => {
    f = setup({ cors: ['https://other.example', ORIGIN] });
    for (const [path, key, status] of [['/users', undefined, 200], ['/users', null, 401], ['/users/99', undefined, 404]] as const) {
      const res = await f.call('GET', path, { key, headers: { origin: ORIGIN } });
      expect(res.status).toBe(status);
      expect([res.headers['access-control-allow-origin'], res.headers['access-control-expose-headers']]).toEqual([ORIGIN, EXPOSED]);
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    }
  });

  it('adds nothing for another origin, or when off', async () => {
    f = setup({ cors: [ORIGIN] });
    for (const origin of ['http://localhost:3001', 'https://evil.example']) {
      const pre = await f.app.request({ method: 'OPTIONS', path: `${API}/users`, headers: { origin } });
      expect(pre.status).toBe(204);
      expect(Object.keys(pre.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      const get = await f.call('GET', '/users', { headers: { origin } });
      expect(Object.keys(get.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(get.headers.vary).toBe('Origin');
    }
    f.store.close();
    f = setup();
    const off = await f.call('GET', '/users', { headers: { origin: ORIGIN } });
    expect(Object.keys(off.headers).filter((h) => h.startsWith('access-control-') || h === 'vary')).toEqual([]);
  });
});
