import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGracefully, HANDLERS, type ServerOptions } from '../../src/server/index.js';
import { listen } from './conferences-fixture.js';
import { API, setup, type Fixture } from './fixtures.js';
import { connect, exchange, logSink, untilClosed } from './socket-helpers.js';

let f: Fixture;
let port: number;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await closeGracefully(f.app.server, 1000);
  f.store.close();
});

async function start(options: Partial<ServerOptions> = {}) {
  f = setup(options);
  port = Number(new URL(await listen(f.app.server)).port);
}

const get = (path = '/users', extra = '') => {
  const auth = Object.entries(f.admin).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return `GET ${API}${path} HTTP/1.1\r\nHost: localhost\r\n${auth}${extra}\r\n`;
};

/** Reads one whole response (by Content-Length) from a kept-alive socket. */
function response(socket: net.Socket): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (c: Buffer) => {
      text += c.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? -1);
      if (end !== -1 && length >= 0 && text.length >= end + 4 + length) {
        socket.off('data', onData);
        resolve({ status: Number(text.split(' ')[1]), text });
      }
    };
    socket.on('data', onData);
  });
}

/** A connection that has been served one request and is kept alive. */
async function served(localAddress?: string) {
  const socket = await new Promise<net.Socket>((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(s));
  });
  sockets.push(socket);
  const answer = response(socket);
  socket.write(get());
  return { socket, answer: await answer };
}

/** Waits until the server counts `n` open connections. */
async function openConnections(n: number) {
  for (let i = 0; i < 200; i++) {
    const count = await new Promise<number>((r) => f.app.server.getConnections((_e, c) => r(c)));
    if (count === n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`the server never had ${n} connections`);
}

describe('timeouts', () => {
  it('defaults to 20 s for headers, 30 s for the whole request and 5 s of keep-alive', async () => {
    await start();
    const { headersTimeout, requestTimeout, keepAliveTimeout } = f.app.server;
    expect([headersTimeout, requestTimeout, keepAliveTimeout]).toEqual([20_000, 30_000, 5_000]);
    const { answer } = await served();
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/\r\nKeep-Alive: timeout=5\r\n/);
  });

  it('answers a header section that does not end in time with 408 and closes', async () => {
    await start({ timeouts: { headersMs: 100, requestMs: 5000 } });
    const res = await exchange(port, `GET ${API}/users HTTP/1.1\r\nHost: localhost\r\nX-Slow: `);
    expect([res.status, res.body]).toEqual([408, 'Request timeout.']);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['x-process-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.connection).toBe('close');
  });

  it('answers a body that does not arrive in time with 408, logs 408 and stores nothing', async () => {
    const log = logSink();
    await start({ timeouts: { headersMs: 100, requestMs: 200 }, log: 'json', logStream: log.stream });
    const auth = Object.entries(f.admin).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    const res = await exchange(port, `POST ${API}/customers HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: slow-body\r\n${auth}Content-Length: 100\r\n\r\n{"first_name":`);
    expect([res.status, res.body]).toEqual([408, 'Request timeout.']);
    expect(await log.waitFor((r) => r.request_id === 'slow-body')).toMatchObject({ status: 408, path: `${API}/customers` });
    expect(log.records().filter((r) => r.level === 'error')).toEqual([]);
    expect(f.store.customers.list(f.tenant.id, { page_size: 1, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).total).toBe(0);
  });

  it('times the receiving of a request only: a slow answer is not cut', async () => {
    const slow = { run: async () => { await new Promise((r) => setTimeout(r, 400)); return { id: 1 }; } };
    f = setup({ timeouts: { headersMs: 100, requestMs: 200 } }, { ...HANDLERS, getUser: slow });
    port = Number(new URL(await listen(f.app.server)).port);
    const res = await exchange(port, get('/users/1', 'Connection: close\r\n'));
    expect([res.status, JSON.parse(res.body).data]).toEqual([200, { id: 1 }]);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    await start({ timeouts: { keepAliveMs: 100 } });
    const { socket, answer } = await served();
    expect(answer.status).toBe(200);
    const closed = await untilClosed(socket);
    expect(closed.text).toBe(''); // closed without another word
  });
});

describe('connection caps', () => {
  it('answers a connection over the total cap 503 with Retry-After: 1, then closes it; room returns as connections close', async () => {
    await start({ maxConnections: 2 });
    const first = await served();
    await served();
    for (const path of [`${API}/users`, '/media/recordings/1/rec-1.wav?expires=1&signature=x']) {
      const res = await exchange(port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      expect([res.status, res.body]).toEqual([503, 'Too many connections.']);
      expect(res.headers).toMatchObject({ 'retry-after': '1', connection: 'close', 'content-type': 'text/plain; charset=utf-8' });
      expect(res.headers['x-process-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    first.socket.destroy();
    await openConnections(1);
    expect((await served()).answer.status).toBe(200);
  });

  it('caps connections per address only when asked', async () => {
    await start({ maxConnectionsPerAddress: 1 });
    expect((await served('127.0.0.1')).answer.status).toBe(200);
    expect((await served('127.0.0.1')).answer.status).toBe(503);
    expect((await served('127.0.0.2')).answer.status).toBe(200); // another address has its own
    f.app.server.closeAllConnections();
    await closeGracefully(f.app.server, 1000);
    f.store.close();
    await start(); // off by default: many connections from one address
    for (let i = 0; i < 5; i++) expect((await served('127.0.0.1')).answer.status).toBe(200);
  });

  it('defaults to 500 connections in all', { timeout: 30_000 }, async () => {
    await start();
    for (let i = 0; i < 500; i++) sockets.push(await connect(port));
    await openConnections(500);
    expect((await served()).answer.status).toBe(503);
    sockets.shift()!.destroy();
    await openConnections(499); // the refused one has gone, and so has the first
    expect((await served()).answer.status).toBe(200);
  });
});

describe("errors node's HTTP parser answers", () => {
  const cases: [string, () => string, number, string][] = [
    ['a header value with a control character', () => get('/users', 'X-Bad: a\u0001b\r\n'), 400, 'Bad request.'],
    ['both Content-Length and Transfer-Encoding', () => `POST ${API}/customers HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400, 'Bad request.'],
    ['a header section of 20 KB', () => get('/users', `X-Big: ${'a'.repeat(20 * 1024)}\r\n`), 431, 'Request header fields too large.'],
    ['a request line that is not HTTP', () => 'HELLO\r\n\r\n', 400, 'Bad request.'],
  ];
  it.each(cases)('answers %s through the renderer, then closes', async (_name, raw, status, body) => {
    await start();
    const res = await exchange(port, raw());
    expect([res.status, res.body]).toEqual([status, body]);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(res.headers['x-process-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.connection).toBe('close');
  });

  it('draws the header-size line at 16 KB', async () => {
    await start();
    const big = (kb: number) => exchange(port, get('/users', `X-Big: ${'a'.repeat(kb * 1024)}\r\nConnection: close\r\n`));
    expect((await big(15)).status).toBe(200);
    expect((await big(16)).status).toBe(431);
  });

  it('still serves well-formed requests on other connections', async () => {
    await start();
    await exchange(port, 'HELLO\r\n\r\n');
    const ok = await new Promise<number>((resolve) => http.get({ port, host: '127.0.0.1', path: `${API}/users`, headers: f.admin }, (r) => {
      r.resume();
      resolve(r.statusCode!);
    }));
    expect(ok).toBe(200);
  });
});
