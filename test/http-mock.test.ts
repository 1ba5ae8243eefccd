/** The scripted test server itself: what it answers, and that it fails tests when it should. */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readText, request } from '../src/client/http.js';
import { startMockServer } from './http-mock.js';

const server = await startMockServer();
afterAll(() => server.close());
beforeEach(() => server.reset());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await request({ method: 'GET', url: `${server.origin}${path}`, headers });
  return { status: res.status, headers: res.headers, text: await readText(res.body) };
};

describe('scripted server', () => {
  it('answers a script once with exactly its status, headers and body, and records the request', async () => {
    server.get().intercept({ path: '/a?y=2&x=1', headers: { 'x-key': 'k' } }).reply(201, { ok: true }, { headers: { 'content-type': 'application/json' } });
    expect(await get('/a?x=1&y=2', { 'x-key': 'k' })).toEqual({ status: 201, headers: { 'content-type': 'application/json' }, text: '{"ok":true}' });
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([['GET', '/a?x=1&y=2']]);
    server.assertNoPendingInterceptors();
  });

  it('fails the test when a script was never requested, naming it', async () => {
    server.get().intercept({ path: '/never', method: 'POST' }).reply(200);
    expect(() => server.assertNoPendingInterceptors()).toThrow('never requested (1 left): POST /never');
  });

  it('drops the connection of a request no script matches (a network error) and names it', async () => {
    server.get().intercept({ path: '/x', headers: { 'x-key': 'right' } }).reply(200);
    await expect(get('/x', { 'x-key': 'wrong' })).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(() => server.assertNoPendingInterceptors()).toThrow('no script matched: GET /x');
  });

  it('times(n) answers n requests, persist() every one; replyWithError drops the connection', async () => {
    server.get().intercept({ path: '/t' }).reply(200, 'ok').times(2);
    server.get().intercept({ path: '/p' }).reply(204).persist();
    server.get().intercept({ path: '/e' }).replyWithError();
    expect((await get('/t')).text).toBe('ok');
    expect(server.pendingInterceptors()).toEqual([
      { method: 'GET', path: '/t', remaining: 1 },
      { method: 'GET', path: '/p', remaining: 1 },
      { method: 'GET', path: '/e', remaining: 1 },
    ]);
    expect((await get('/t')).text).toBe('ok');
    for (let i = 0; i < 3; i++) expect((await get('/p')).status).toBe(204);
    await expect(get('/e')).rejects.toMatchObject({ code: 'ECONNRESET' });
    server.assertNoPendingInterceptors();
  });
});
