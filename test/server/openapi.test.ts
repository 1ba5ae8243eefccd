import { afterEach, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contract/openapi.js';
import { API, setup, type Fixture } from './fixtures.js';

let f: Fixture;
afterEach(() => f.store.close());

describe('GET /openapi.json', () => {
  it('answers the document on any Host, without a key and outside rate limits', async () => {
    f = setup({ rateLimit: { client: 1, tenant: 1 } });
    for (const host of ['localhost', 'unknown.example:8443', '']) {
      const res = await f.app.request({ path: `${API}/openapi.json`, headers: { host } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-process-id']).toBeTruthy();
      expect(res.json()).toEqual(openApiDocument(host ? `http://${host}` : undefined));
    }
  });

  it('lists every operation', async () => {
    f = setup();
    const doc = (await f.call('GET', '/openapi.json', { key: null })).json();
    expect(Object.keys(doc.paths)).toContain('/users/{user_id}');
    expect(doc.paths['/customers'].post.operationId).toBe('createCustomer');
  });

  it('answers 405 for other methods', async () => {
    f = setup();
    const res = await f.call('POST', '/openapi.json');
    expect([res.status, res.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
  });

  it('lists the requesting origin as the first server, then the hosted template', async () => {
    f = setup({ trustProxy: true });
    const servers = async (headers: Record<string, string>) => (await f.app.request({ path: `${API}/openapi.json`, headers })).json().servers.map((s: { url: string }) => s.url);
    expect(await servers({ host: '127.0.0.1:9000' })).toEqual(['http://127.0.0.1:9000/api/public/v2.0', 'https://{primary_domain}/api/public/v2.0']);
    expect(await servers({ host: 'localhost', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.acme.test' })).toEqual([
      'https://api.acme.test/api/public/v2.0',
      'https://{primary_domain}/api/public/v2.0',
    ]);
    expect(await servers({ host: 'a"b' })).toEqual(['http://a"b/api/public/v2.0', 'https://{primary_domain}/api/public/v2.0']);
  });
});
