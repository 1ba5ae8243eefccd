import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * `serve` keeps tenants and keys in memory (src/server/lookups.ts); an `admin` command run by
 * another process on the same data directory (or database) must still count on the very next request.
 */
describe.each(BACKENDS)('caches of serve on %s', (backend) => {
const box = new Sandbox(backend);
let port: number;
let key: { id: string; secret: string };

beforeAll(async () => {
  await box.json(['admin', 'init']);
  key = await box.json(['admin', 'keys', 'create', '--name', 'cached', '--permissions', '*']);
  port = Number(new URL((await box.serve(['--rate-limit', 'off', '--no-profile'])).baseUrl).port);
}, 60_000);
afterAll(() => box.dispose());

/** GET /users?page_size=1 with `host` and a key, through node:http (fetch may not set Host). */
function get(host: string, k: { id: string; secret: string }): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { port, host: '127.0.0.1', path: '/api/public/v2.0/users?page_size=1', headers: { host, 'x-access-key-id': k.id, 'x-access-key-secret': k.secret } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject).end();
  });
}

it('refuses a key on the very next request after another process revoked it', async () => {
  const other = await box.json(['admin', 'keys', 'create', '--name', 'doomed', '--permissions', '*']);
  expect((await get('localhost', other)).status).toBe(200);
  expect((await get('localhost', other)).status).toBe(200);
  await box.run(['admin', 'keys', 'revoke', other.id]);
  expect(await get('localhost', other)).toEqual({ status: 401, text: 'Invalid or missing access key.' });
  expect((await get('localhost', key)).status).toBe(200);
}, 30_000);

it('answers a tenant and key added by another process on the very next request', async () => {
  expect((await get('localhost', key)).status).toBe(200);
  expect((await get('added.test', key)).status).toBe(404);
  await box.run(['admin', 'tenants', 'add', 'added.test']);
  const added = await box.json(['admin', 'keys', 'create', '--tenant', 'added.test', '--name', 'new', '--permissions', '*']);
  const res = await get('added.test', added);
  expect(res.status).toBe(200);
  expect(JSON.parse(res.text)).toMatchObject({ data: [], total: 0 });
  expect((await get('added.test', key)).status).toBe(401);
}, 30_000);
});
