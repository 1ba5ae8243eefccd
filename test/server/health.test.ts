import { afterEach, describe, expect, it } from 'vitest';
import { closeGracefully } from '../../src/server/index.js';
import { listen } from './conferences-fixture.js';
import { setup } from './fixtures.js';
import { connect, untilClosed } from './socket-helpers.js';

/** `/healthz` and `/readyz` on a real socket (decisions §2: any Host, no key, never rate limited). */
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function started(options: Parameters<typeof setup>[0] = {}) {
  const f = setup(options);
  const origin = await listen(f.app.server);
  stop = async () => {
    await closeGracefully(f.app.server, 1000);
    f.store.close();
  };
  return { ...f, origin };
}

describe('probes', () => {
  it('answer 200 in plain text, uncached, for any Host, without a key, past a used-up rate limit', async () => {
    const { origin, admin } = await started({ rateLimit: { client: 1, tenant: 1 }, now: () => 1_000 });
    const used = await fetch(`${origin}/api/public/v2.0/users`, { headers: admin });
    expect(used.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      for (const [path, text] of [
        ['/healthz', 'ok\n'],
        ['/readyz', 'ready\n'],
      ]) {
        const res = await fetch(`${origin}${path}`, { headers: { host: 'no-such-tenant.example' } });
        expect([res.status, await res.text()]).toEqual([200, text]);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(res.headers.get('ratelimit-limit')).toBeNull();
      }
    }
    const limited = await fetch(`${origin}/api/public/v2.0/users`, { headers: admin });
    expect(limited.status).toBe(429);
  });

  it('HEAD has no body, OPTIONS lists the methods, other methods are 405, a query is ignored', async () => {
    const { origin } = await started();
    const head = await fetch(`${origin}/readyz`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, '6', '']);
    const options = await fetch(`${origin}/healthz`, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
    const post = await fetch(`${origin}/healthz`, { method: 'POST' });
    expect([post.status, await post.text(), post.headers.get('allow')]).toEqual([405, 'Method not allowed.\n', 'GET, HEAD, OPTIONS']);
    const query = await fetch(`${origin}/healthz?verbose=1`);
    expect(query.status).toBe(200);
    const other = await fetch(`${origin}/healthz/extra`);
    expect(other.status).toBe(404);
  });

  it('/readyz is 503 when the database does not answer, naming no file', async () => {
    const { origin, store } = await started();
    store.close();
    const res = await fetch(`${origin}/readyz`);
    expect([res.status, await res.text()]).toEqual([503, 'not ready: database unreachable\n']);
    const alive = await fetch(`${origin}/healthz`);
    expect(alive.status).toBe(200);
  });

  it('both answer 503 draining with Connection: close once a graceful shutdown has begun', async () => {
    const f = setup();
    const origin = await listen(f.app.server);
    const port = Number(new URL(origin).port);
    const socket = await connect(port);
    const closing = closeGracefully(f.app.server, 1000);
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const exchange = await untilClosed(socket);
    expect([exchange.status, exchange.body, exchange.headers.connection]).toEqual([503, 'draining\n', 'close']);
    await closing;
    f.store.close();
  });
});
