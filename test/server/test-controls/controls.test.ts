import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGracefully, HttpError, ValidationError, type ControlRoute, type ServerOptions } from '../../../src/server/index.js';
import { setup } from '../fixtures.js';

const TOKEN = 'control-token-for-tests-0123456789';
const NOT_FOUND = 'Resource object does not exist.';

/** Routes to drive the dispatcher with: they answer what they were given. */
const ECHO: ControlRoute[] = [
  { method: 'POST', path: '/echo/{name}', summary: 'echoes', handle: ({ params, body }) => ({ params, body }) },
  { method: 'GET', path: '/echo/{name}', summary: 'echoes', handle: ({ params }) => ({ params }) },
  {
    method: 'POST',
    path: '/refuse/{how}',
    summary: 'refuses',
    handle: ({ params }) => {
      if (params.how === 'validation') throw new ValidationError({ name: ['The name field format is invalid.'] });
      if (params.how === 'conflict') throw new HttpError(409, 'Busy elsewhere.');
      throw new Error('boom');
    },
  },
];

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/** A fixture server listening on `host` (default 127.0.0.1); answers its origin and the fixture. */
async function started(options: Partial<ServerOptions>, host = '127.0.0.1') {
  const f = setup(options);
  await new Promise<void>((resolve) => f.app.server.listen(0, host, resolve));
  stop = async () => {
    await closeGracefully(f.app.server, 1000);
    f.store.close();
  };
  return { ...f, port: (f.app.server.address() as AddressInfo).port };
}

const withToken = (token = TOKEN) => ({ 'X-Confctl-Control-Token': token });

/** This machine's first IPv4 address that is not loopback, if it has one. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('test controls: the three refusals', () => {
  it('without test controls the routes do not exist: 404 like any unknown route, token or not', async () => {
    const { port } = await started({});
    const unknown = await fetch(`http://127.0.0.1:${port}/no/such/route`);
    const unknownBody = await unknown.text();
    expect([unknown.status, unknownBody]).toEqual([404, NOT_FOUND]);
    for (const [method, path] of [['GET', '/_confctl'], ['POST', '/_confctl/echo/a'], ['POST', '/_confctl/snapshots/a/restore']]) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: withToken() });
      expect([res.status, await res.text(), res.headers.get('content-type')]).toEqual([404, unknownBody, unknown.headers.get('content-type')]);
    }
  });

  it('without the token, or with another, 401 and the route is not run', async () => {
    let runs = 0;
    const counted: ControlRoute = { method: 'POST', path: '/count', summary: 'counts', handle: () => ++runs };
    const { port } = await started({ testControls: { token: TOKEN, routes: [counted] } });
    for (const headers of [{}, withToken('x'), withToken(`${TOKEN}x`), withToken(TOKEN.slice(1)), { 'X-Confctl-Control-Token': '' }]) {
      const res = await fetch(`http://127.0.0.1:${port}/_confctl/count`, { method: 'POST', headers });
      expect([res.status, await res.text()]).toEqual([401, 'Invalid or missing control token.']);
    }
    // Not even the route table is shown: an unknown control path is 401 too.
    expect((await fetch(`http://127.0.0.1:${port}/_confctl/nope`)).status).toBe(401);
    expect(runs).toBe(0);
    const ok = await fetch(`http://127.0.0.1:${port}/_confctl/count`, { method: 'POST', headers: withToken() });
    expect([ok.status, await ok.json()]).toEqual([200, { message: 'Success.', data: 1 }]);
  });

  it.skipIf(!outside)('off loopback, 403 with the right token, whatever --trust-proxy and X-Forwarded-For say', async () => {
    const { port } = await started({ trustProxy: true, testControls: { token: TOKEN, routes: ECHO } }, '0.0.0.0');
    const headers = { ...withToken(), 'X-Forwarded-For': '127.0.0.1', 'X-Real-IP': '127.0.0.1', Forwarded: 'for=127.0.0.1' };
    const res = await fetch(`http://${outside}:${port}/_confctl/echo/a`, { method: 'POST', headers });
    expect([res.status, await res.text()]).toEqual([403, 'Test controls answer only on loopback.']);
    // The same server answers the same request from loopback.
    expect((await fetch(`http://127.0.0.1:${port}/_confctl/echo/a`, { method: 'POST', headers })).status).toBe(200);
  });

  it('off loopback in process too (the peer address as the socket would give it)', async () => {
    const { app } = setup({ testControls: { token: TOKEN, routes: ECHO } });
    for (const remoteAddress of ['192.0.2.9', '::ffff:10.0.0.1', '2001:db8::1', '128.0.0.1', '']) {
      const res = await app.request({ method: 'POST', path: '/_confctl/echo/a', headers: withToken(), remoteAddress });
      expect([remoteAddress, res.status, res.body]).toEqual([remoteAddress, 403, 'Test controls answer only on loopback.']);
    }
    for (const remoteAddress of ['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1']) {
      const res = await app.request({ method: 'POST', path: '/_confctl/echo/a', headers: withToken(), remoteAddress });
      expect([remoteAddress, res.status]).toEqual([remoteAddress, 200]);
    }
  });
});

describe('test controls: dispatch', () => {
  const app = () => setup({ testControls: { token: TOKEN, routes: ECHO } }).app;
  const post = (path: string, body?: unknown) => app().request({ method: 'POST', path, headers: withToken(), body });

  it('hands the route its decoded parameters and JSON body, and wraps its answer', async () => {
    const res = await post('/_confctl/echo/a%20b', { x: 1 });
    expect([res.status, res.json()]).toEqual([200, { message: 'Success.', data: { params: { name: 'a b' }, body: { x: 1 } } }]);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-process-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await post('/_confctl/echo/a')).json().data.body).toEqual({});
  });

  it('lists its routes on GET /_confctl', async () => {
    const res = await app().request({ path: '/_confctl', headers: withToken() });
    expect(res.json().data).toEqual([
      { method: 'GET', path: '/_confctl', summary: 'lists the control routes' },
      { method: 'POST', path: '/_confctl/echo/{name}', summary: 'echoes' },
      { method: 'GET', path: '/_confctl/echo/{name}', summary: 'echoes' },
      { method: 'POST', path: '/_confctl/refuse/{how}', summary: 'refuses' },
    ]);
  });

  it('answers an unknown control path 404, another method 405 with Allow, OPTIONS 204', async () => {
    expect(await post('/_confctl/echo').then((r) => [r.status, r.body])).toEqual([404, NOT_FOUND]);
    expect(await post('/_confctl/echo/a/b').then((r) => [r.status, r.body])).toEqual([404, NOT_FOUND]);
    expect(await post('/_confctl/echo/%E0%A4%A').then((r) => r.status)).toBe(404);
    const del = await app().request({ method: 'DELETE', path: '/_confctl/echo/a', headers: withToken() });
    expect([del.status, del.body, del.headers.allow]).toEqual([405, 'Method not allowed.', 'POST, GET, HEAD, OPTIONS']);
    const options = await app().request({ method: 'OPTIONS', path: '/_confctl/echo/a', headers: withToken() });
    expect([options.status, options.headers.allow]).toEqual([204, 'POST, GET, HEAD, OPTIONS']);
    const get = await app().request({ path: '/_confctl/echo/a', headers: withToken() });
    const head = await app().request({ method: 'HEAD', path: '/_confctl/echo/a', headers: withToken() });
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', String(Buffer.byteLength(get.body))]);
  });

  it('refuses bad input with 400, renders a route refusal as is, and hides an unexpected failure behind the 500 text', async () => {
    const malformed = await post('/_confctl/echo/a', '{"x":');
    expect([malformed.status, malformed.json()]).toEqual([400, { message: 'The request body must be valid JSON.', errors: { body: ['The request body must be valid JSON.'] } }]);
    const invalid = await post('/_confctl/refuse/validation');
    expect([invalid.status, invalid.json().errors]).toEqual([400, { name: ['The name field format is invalid.'] }]);
    expect(await post('/_confctl/refuse/conflict').then((r) => [r.status, r.body])).toEqual([409, 'Busy elsewhere.']);
    expect(await post('/_confctl/refuse/crash').then((r) => [r.status, r.body])).toEqual([500, 'An unexpected error the service.']);
  });

  it('logs control requests without the token, even when the token is wrong', async () => {
    const log = new PassThrough();
    let text = '';
    log.on('data', (d) => (text += d));
    const { app: logged } = setup({ log: 'json', logStream: log, testControls: { token: TOKEN, routes: ECHO } });
    await logged.request({ method: 'POST', path: '/_confctl/echo/a?token=zzz', headers: withToken() });
    await logged.request({ method: 'POST', path: '/_confctl/echo/a', headers: withToken('wrong-token-value-0000') });
    await logged.request({ method: 'POST', path: '/_confctl/refuse/crash', headers: withToken() });
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.status).map((l) => [l.method, l.path, l.status])).toEqual([
      ['POST', '/_confctl/echo/a?token=***', 200],
      ['POST', '/_confctl/echo/a', 401],
      ['POST', '/_confctl/refuse/crash', 500],
    ]);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('wrong-token-value-0000');
  });

  it('leaves the API as it is beside the controls', async () => {
    const f = setup({ testControls: { token: TOKEN, routes: ECHO } });
    expect((await f.call('GET', '/users')).status).toBe(200);
    expect((await f.app.request({ path: '/_confctlx', headers: withToken() })).status).toBe(404);
  });
});
