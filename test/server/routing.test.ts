import { afterEach, describe, expect, it } from 'vitest';
import { Router, parseId } from '../../src/server/router.js';
import { HANDLERS } from '../../src/server/index.js';
import { API, setup, type Fixture } from './fixtures.js';

let f: Fixture;
afterEach(() => f?.store.close());

describe('Router', () => {
  const router = new Router([
    { method: 'GET', path: '/a/{x_id}', target: 'get' },
    { method: 'PATCH', path: '/a/{x_id}', target: 'patch' },
    { method: 'GET', path: '/a/{x_id}/b/{y_id}', target: 'nested' },
  ]);

  it('matches templates and parses ids', () => {
    expect(router.match('PATCH', '/a/7')).toEqual({ found: true, target: 'patch', params: { x_id: 7 } });
    expect(router.match('GET', '/a/1/b/22')).toEqual({ found: true, target: 'nested', params: { x_id: 1, y_id: 22 } });
  });

  it('answers the allowed methods of a known path, null for an unknown one', () => {
    expect(router.match('POST', '/a/7')).toEqual({ found: false, allow: ['GET', 'PATCH', 'HEAD', 'OPTIONS'] });
    expect(router.match('GET', '/a/7/c')).toEqual({ found: false, allow: null });
    expect(router.match('GET', '/a/x')).toEqual({ found: false, allow: null });
  });

  it('matches HEAD to the GET target and never matches OPTIONS', () => {
    expect(router.match('HEAD', '/a/7')).toEqual({ found: true, target: 'get', params: { x_id: 7 } });
    expect(router.match('OPTIONS', '/a/7')).toEqual({ found: false, allow: ['GET', 'PATCH', 'HEAD', 'OPTIONS'] });
    expect(new Router([{ method: 'POST', path: '/p', target: 'p' }]).match('HEAD', '/p')).toEqual({ found: false, allow: ['POST', 'OPTIONS'] });
  });

  it('accepts only positive safe integers as ids', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    for (const bad of ['0', '-1', '01', '1.5', '1e3', 'abc', '', '9007199254740992', '99999999999999999']) {
      expect(parseId(bad)).toBeUndefined();
    }
  });
});

describe('routing through the server', () => {
  it('answers 404 for an unknown path, with or without a key', async () => {
    f = setup();
    for (const path of ['/nope', '/users/1/nope', '/users/', '']) {
      const res = await f.call('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toBe('Resource object does not exist.');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    expect((await f.app.request({ path: '/elsewhere' })).status).toBe(404);
  });

  it('answers 404 for a non-numeric or out-of-range id', async () => {
    f = setup();
    for (const id of ['abc', '0', '-3', '9007199254740993', '1.0']) {
      const res = await f.call('GET', `/users/${id}`);
      expect([res.status, res.body]).toEqual([404, 'Resource object does not exist.']);
    }
  });

  it('answers 405 with Allow for another method on a known path, before tenant and key', async () => {
    f = setup();
    const res = await f.app.request({ method: 'DELETE', path: `${API}/users/1`, headers: { host: 'unknown.test' } });
    expect(res.status).toBe(405);
    expect(res.body).toBe('Method not allowed.');
    expect(res.headers.allow).toBe('GET, PATCH, HEAD, OPTIONS');
    expect((await f.call('PUT', '/customers')).headers.allow).toBe('GET, POST, HEAD, OPTIONS');
    expect((await f.call('HEAD', '/customers/1/nope')).status).toBe(404);
  });

  it('answers operations without a registered handler like an unknown route', async () => {
    f = setup({}, { getUser: HANDLERS.getUser });
    const user = f.store.users.insert(f.tenant.id, { first_name: 'A', last_name: 'B', email: 'a@b.test' });
    expect((await f.call('GET', `/users/${user.id}`)).status).toBe(200);
    for (const path of ['/users', '/customers']) {
      const res = await f.call('GET', path);
      expect([res.status, res.body, res.headers.allow]).toEqual([404, 'Resource object does not exist.', undefined]);
    }
    // The path is known through its GET, so an unregistered PATCH is simply not allowed.
    const patch = await f.call('PATCH', `/users/${user.id}`, { body: {} });
    expect([patch.status, patch.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
  });

  it('answers 404 Unknown tenant for an unknown Host', async () => {
    f = setup();
    const res = await f.call('GET', '/users', { headers: { host: 'nobody.test' } });
    expect([res.status, res.body]).toEqual([404, 'Unknown tenant.']);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });

  it('resolves the tenant by Host name without port, case-insensitively, aliases included', async () => {
    f = setup();
    f.store.users.insert(f.other.id, { first_name: 'O', last_name: 'T', email: 'o@t.test' });
    const otherKey = f.key(['*'], f.other.id);
    for (const host of ['other.test', 'OTHER.Test:8080']) {
      const res = await f.call('GET', '/users', { key: otherKey, headers: { host } });
      expect(res.status).toBe(200);
      expect(res.json().total).toBe(1);
    }
    for (const host of ['localhost:4000', '127.0.0.1:1', '[::1]:3000', 'LOCALHOST']) {
      expect((await f.call('GET', '/users', { headers: { host } })).status).toBe(200);
    }
  });

  it('honours X-Forwarded-Host only with trustProxy', async () => {
    f = setup();
    const headers = { host: 'localhost', 'x-forwarded-host': 'nobody.test' };
    expect((await f.call('GET', '/users', { headers })).status).toBe(200);
    f.store.close();
    f = setup({ trustProxy: true });
    const res = await f.call('GET', '/users', { headers });
    expect([res.status, res.body]).toEqual([404, 'Unknown tenant.']);
    const ok = await f.call('GET', '/users', { headers: { host: 'nobody.test', 'x-forwarded-host': 'localhost:443, proxy.test' } });
    expect(ok.status).toBe(200);
  });
});
