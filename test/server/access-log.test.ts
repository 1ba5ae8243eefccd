import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { maskPath } from '../../src/server/access-log.js';
import { API, setup, type Fixture } from './fixtures.js';

let f: Fixture | undefined;
afterEach(() => f?.store.close());

describe('maskPath', () => {
  it('masks every parameter whose name looks like a secret, whatever its case or encoding', () => {
    const path = '/x?api_token=t1&client_secret=s1&Password=p1&new_password=p2&signature=g1&refresh%54oken=t2&X-Access-Key-Secret=s2&page_size=5';
    expect(maskPath(path)).toBe(
      '/x?api_token=***&client_secret=***&Password=***&new_password=***&signature=***&refresh%54oken=***&X-Access-Key-Secret=***&page_size=5',
    );
  });

  it('keeps parameters that only resemble a secret name, and paths without a query', () => {
    expect(maskPath('/x?signatures=1&signed=2&tok=3&pass=4')).toBe('/x?signatures=1&signed=2&tok=3&pass=4');
    expect(maskPath('/users')).toBe('/users');
  });
});

describe('the access log', () => {
  it('never writes a secret-looking query value, in json and pretty format', async () => {
    for (const log of ['json', 'pretty'] as const) {
      let out = '';
      const stream = new PassThrough();
      stream.on('data', (c) => (out += c));
      f = setup({ log, logStream: stream });
      const res = await f.app.request({ path: `${API}/users?page_size=5&access_token=TOPSECRET1&my_secret=TOPSECRET2&password=TOPSECRET3`, headers: f.admin });
      expect(res.status).toBe(200);
      expect(out).toContain('page_size=5&access_token=***&my_secret=***&password=***');
      expect(out).not.toMatch(/TOPSECRET/);
      f.store.close();
      f = undefined;
    }
  });
});
