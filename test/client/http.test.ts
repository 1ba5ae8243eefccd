/** The request module on node:http against a real local server: keep-alive, redirects, abort, idle timeout. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IdleTimeoutError, readText, request } from '../../src/client/http.js';

let server: Server | undefined;
let connections = 0;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((done) => s.close(done));
});

/** A local server answering with `handler`; answers its origin and counts connections. */
async function serve(handler: RequestListener): Promise<string> {
  connections = 0;
  server = createServer(handler);
  server.on('connection', () => connections++);
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('request', () => {
  it('sends method, headers and a body with its length; answers status, lower-case headers and text', async () => {
    let seen: { method?: string; length?: string; id?: string; body: string } = { body: '' };
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a rejection fails the run as an unhandled rejection, as a test wants
    const origin = await serve(async (req, res) => {
      seen = { method: req.method, length: req.headers['content-length'], id: req.headers['x-access-key-id'] as string, body: await readText(req) };
      res.setHeader('X-Thing', ['a', 'b']);
      res.writeHead(201, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
    const res = await request({ method: 'POST', url: `${origin}/x`, headers: { 'x-access-key-id': 'ak_1' }, body: '{"name":"Zoë"}' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-thing']).toBe('a, b');
    expect(await readText(res.body)).toBe('{"ok":true}');
    expect(seen).toEqual({ method: 'POST', length: String(Buffer.byteLength('{"name":"Zoë"}')), id: 'ak_1', body: '{"name":"Zoë"}' });
  });

  it('keeps the connection alive: consecutive requests (pages of --all) share one', async () => {
    const origin = await serve((_req, res) => res.end('page'));
    for (let i = 0; i < 3; i++) expect(await readText((await request({ method: 'GET', url: `${origin}/p${i}`, headers: {} })).body)).toBe('page');
    expect(connections).toBe(1);
  });

  it('does not follow redirects: a 3xx is the answer', async () => {
    let requests = 0;
    const origin = await serve((_req, res) => void (requests++, res.writeHead(302, { location: '/elsewhere' }).end()));
    const res = await request({ method: 'GET', url: `${origin}/x`, headers: {} });
    await readText(res.body);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/elsewhere');
    expect(requests).toBe(1);
  });

  it('an abort while the body streams fails the read with the signal reason', async () => {
    const origin = await serve((_req, res) => void res.writeHead(200).write('first part'));
    const abort = new AbortController();
    const res = await request({ method: 'GET', url: `${origin}/x`, headers: {}, signal: abort.signal });
    const reading = readText(res.body);
    abort.abort(new Error('interrupted'));
    await expect(reading).rejects.toThrow('interrupted');
  });

  it('an already aborted signal sends nothing', async () => {
    let requests = 0;
    const origin = await serve((_req, res) => void (requests++, res.end()));
    await expect(request({ method: 'GET', url: `${origin}/x`, headers: {}, signal: AbortSignal.abort(new Error('stop')) })).rejects.toThrow('stop');
    expect(requests).toBe(0);
  });

  it('an idle socket past idleTimeoutMs fails the body with IdleTimeoutError', async () => {
    const origin = await serve((_req, res) => void res.writeHead(200, { 'content-length': '100' }).write('x'));
    const res = await request({ method: 'GET', url: `${origin}/x`, headers: {}, idleTimeoutMs: 50 });
    await expect(readText(res.body)).rejects.toBeInstanceOf(IdleTimeoutError);
  });

  it('a refused connection rejects with its code', async () => {
    const origin = await serve((_req, res) => res.end());
    server!.close();
    await expect(request({ method: 'GET', url: `${origin}/x`, headers: {} })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('refuses a scheme other than http and https', async () => {
    await expect(request({ method: 'GET', url: 'ftp://127.0.0.1/x', headers: {} })).rejects.toMatchObject({ code: 'ERR_INVALID_URL' });
  });
});
