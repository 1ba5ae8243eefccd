import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGracefully, HANDLERS } from '../../src/server/index.js';
import { API, setup, type Fixture } from './fixtures.js';

let f: Fixture;
let port: number;
afterEach(async () => {
  await closeGracefully(f.app.server, 1000);
  f.store.close();
});

async function listen(fixture: Fixture) {
  f = fixture;
  await new Promise<void>((resolve) => f.app.server.listen(0, '127.0.0.1', resolve));
  port = (f.app.server.address() as AddressInfo).port;
}

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Written as chunks (chunked transfer encoding unless a Content-Length header is given). */
  chunks?: Buffer[];
  agent?: http.Agent;
}

function send({ method = 'GET', path, headers = {}, chunks = [], agent }: Sent) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: API + path, headers: { ...f.admin, ...headers }, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('a listening server', () => {
  it('serves requests over a socket with the tenant of the Host header', async () => {
    await listen(setup());
    f.store.customers.insert(f.tenant.id, { first_name: 'A', last_name: 'B', email: 'a@b.test' });
    const res = await send({ path: '/customers?page_size=1', headers: { 'x-request-id': 'sock-1' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-request-id']).toBe('sock-1');
    const json = JSON.parse(res.body);
    expect(json.total).toBe(1);
    expect(json.path).toBe(`http://127.0.0.1:${port}${API}/customers`);
  });

  it('reads JSON bodies sent in chunks', async () => {
    await listen(setup());
    const body = JSON.stringify({ first_name: 'Ada', last_name: 'L', email: 'ada@x.test' });
    const res = await send({ method: 'POST', path: '/customers', chunks: [Buffer.from(body.slice(0, 10)), Buffer.from(body.slice(10))] });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data.email).toBe('ada@x.test');
    const bad = await send({ method: 'POST', path: '/customers', chunks: [Buffer.from('{"a":')] });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).errors).toEqual({ body: ['The request body must be valid JSON.'] });
  });

  it('answers 413 for a declared Content-Length over 1 MiB without reading the body', async () => {
    await listen(setup());
    const res = await send({ method: 'POST', path: '/customers', headers: { 'content-length': String(2 * 1024 * 1024) }, chunks: [Buffer.from('{')] });
    expect([res.status, res.body]).toEqual([413, 'Payload too large.']);
    expect(res.headers.connection).toBe('close');
  });

  it('stops reading a chunked body once it passes 1 MiB', async () => {
    await listen(setup());
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const res = await send({ method: 'POST', path: '/customers', chunks: [chunk, chunk, chunk, chunk, Buffer.from('x')] });
    expect([res.status, res.body]).toEqual([413, 'Payload too large.']);
    expect(f.store.customers.list(f.tenant.id, { page_size: 1, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).total).toBe(0);
  });

  it('closes gracefully: refuses new connections, finishes in-flight requests, closes idle ones', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = { run: async () => { await gate; return { id: 1 }; } };
    await listen(setup({}, { ...HANDLERS, getUser: slow }));
    const agent = new http.Agent({ keepAlive: true });
    expect((await send({ path: '/users', agent })).status).toBe(200); // leaves an idle keep-alive socket
    const inFlight = send({ path: '/users/1' });
    await new Promise((r) => setTimeout(r, 50));
    let closed = false;
    const closing = closeGracefully(f.app.server, 5000).then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    await expect(send({ path: '/users' })).rejects.toThrow(/ECONNREFUSED/);
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data).toEqual({ id: 1 });
    expect(res.headers.connection).toBe('close');
    await closing;
    expect(closed).toBe(true);
    agent.destroy();
  });

  it('cuts connections still open when the timeout passes', async () => {
    const never = { run: () => new Promise(() => {}) };
    await listen(setup({}, { ...HANDLERS, getUser: never }));
    const hung = send({ path: '/users/1' }).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await closeGracefully(f.app.server, 200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(await hung).toBeInstanceOf(Error);
  });
});
