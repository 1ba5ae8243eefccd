import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { HANDLERS } from '../../src/server/index.js';
import { API } from './fixtures.js';
import { liveServer } from './live-server.js';
import { exchange, logSink, untilClosed } from './socket-helpers.js';

const live = liveServer();

describe('timeouts', () => {
  it('defaults to 20 s for headers, 30 s for the whole request and 5 s of keep-alive', async () => {
    await live.start();
    const { headersTimeout, requestTimeout, keepAliveTimeout } = live.f.app.server;
    expect([headersTimeout, requestTimeout, keepAliveTimeout]).toEqual([20_000, 30_000, 5_000]);
    const { answer } = await live.kept();
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/\r\nKeep-Alive: timeout=5\r\n/);
  });

  it('answers a header section that does not end in time with 408 and closes', async () => {
    await live.start({ timeouts: { headersMs: 100, requestMs: 5000 } });
    const res = await exchange(live.port, `GET ${API}/users HTTP/1.1\r\nHost: localhost\r\nX-Slow: `);
    expect([res.status, res.body]).toEqual([408, 'Request timeout.']);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['x-process-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.connection).toBe('close');
  });

  it('answers a body that does not arrive in time with 408, logs 408 and stores nothing', async () => {
    const log = logSink();
    await live.start({ timeouts: { headersMs: 100, requestMs: 200 }, log: 'json', logStream: log.stream });
    const auth = Object.entries(live.f.admin).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    const res = await exchange(live.port, `POST ${API}/customers HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: slow-body\r\n${auth}Content-Length: 100\r\n\r\n{"first_name":`);
    expect([res.status, res.body]).toEqual([408, 'Request timeout.']);
    expect(await log.waitFor((r) => r.request_id === 'slow-body')).toMatchObject({ status: 408, path: `${API}/customers` });
    expect(log.records().filter((r) => r.level === 'error')).toEqual([]);
    expect(live.f.store.customers.list(live.f.tenant.id, { page_size: 1, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).total).toBe(0);
  });

  it('times the receiving of a request only: a slow answer is not cut', async () => {
    const slow = { run: async () => { await new Promise((r) => setTimeout(r, 400)); return { id: 1 }; } };
    await live.start({ timeouts: { headersMs: 100, requestMs: 200 } }, { ...HANDLERS, getUser: slow });
    const res = await exchange(live.port, live.get('/users/1', 'Connection: close\r\n'));
    expect([res.status, JSON.parse(res.body).data]).toEqual([200, { id: 1 }]);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    await live.start({ timeouts: { keepAliveMs: 100 } });
    const { socket, answer } = await live.kept();
    expect(answer.status).toBe(200);
    const closed = await untilClosed(socket);
    expect(closed.text).toBe(''); // closed without another word
  });
});

describe("errors node's HTTP parser answers", () => {
  const cases: [string, () => string, number, string][] = [
    ['a header value with a control character', () => live.get('/users', 'X-Bad: a\u0001b\r\n'), 400, 'Bad request.'],
    ['both Content-Length and Transfer-Encoding', () => `POST ${API}/customers HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400, 'Bad request.'],
    ['a header section of 20 KB', () => live.get('/users', `X-Big: ${'a'.repeat(20 * 1024)}\r\n`), 431, 'Request header fields too large.'],
    ['a request line that is not HTTP', () => 'HELLO\r\n\r\n', 400, 'Bad request.'],
  ];
  it.each(cases)('answers %s through the renderer, then closes', async (_name, raw, status, body) => {
    await live.start();
    const res = await exchange(live.port, raw());
    expect([res.status, res.body]).toEqual([status, body]);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(res.headers['x-process-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.connection).toBe('close');
  });

  it('draws the header-size line at 16 KB', async () => {
    await live.start();
    const big = (kb: number) => exchange(live.port, live.get('/users', `X-Big: ${'a'.repeat(kb * 1024)}\r\nConnection: close\r\n`));
    expect((await big(15)).status).toBe(200);
    expect((await big(16)).status).toBe(431);
  });

  it('still serves well-formed requests on other connections', async () => {
    await live.start();
    await exchange(live.port, 'HELLO\r\n\r\n');
    const ok = await new Promise<number>((resolve) => http.get({ port: live.port, host: '127.0.0.1', path: `${API}/users`, headers: live.f.admin }, (r) => {
      r.resume();
      resolve(r.statusCode!);
    }));
    expect(ok).toBe(200);
  });
});
