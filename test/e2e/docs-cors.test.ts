import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

/** A raw request (fetch forbids setting Host and Origin) answering status, headers and body. */
function send(url: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(BACKENDS)('e2e: serve --cors, /docs and HEAD (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  let origin: string;
  let api: string;

  beforeAll(async () => {
    const { baseUrl } = await box.serve(['--demo', '--cors', 'http://localhost:3000,https://editor.example', '--rate-limit', '1/1']);
    api = baseUrl;
    origin = new URL(baseUrl).origin;
  });
  afterAll(() => box.dispose());

  it('serves /docs and the Redoc bundle from the package on any Host, outside rate limits', async () => {
    for (let i = 0; i < 3; i++) {
      const page = await send(`${origin}/docs`, { headers: { host: 'nobody.test' } });
      expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    }
    const bundle = await send(`${origin}/docs/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(Number(bundle.headers['content-length'])).toBeGreaterThan(500_000);
  });

  it('answers a preflight from a listed origin, and adds CORS headers to its requests', async () => {
    const pre = await send(`${api}/users/1`, { method: 'OPTIONS', headers: { origin: 'https://editor.example', 'access-control-request-method': 'PATCH' } });
    expect(pre.status).toBe(204);
    expect(pre.headers).toMatchObject({
      allow: 'GET, PATCH, HEAD, OPTIONS',
      'access-control-allow-origin': 'https://editor.example',
      'access-control-allow-methods': 'GET, PATCH, HEAD, OPTIONS',
      'access-control-allow-headers': 'X-Access-Key-Id, X-Access-Key-Secret, Content-Type, X-Request-ID',
    });
    const get = await send(`${api}/users`, { headers: { origin: 'http://localhost:3000' } });
    expect(get.status).toBe(401); // no key: the CORS headers still let the page read the answer
    expect(get.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(get.headers['access-control-expose-headers']).toContain('RateLimit-Remaining');
    const other = await send(`${api}/users`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const head = await send(`${api}/openapi.json`, { method: 'HEAD' });
    const get = await send(`${api}/openapi.json`);
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', String(Buffer.byteLength(get.body))]);
  });
});
