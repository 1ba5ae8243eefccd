import { describe, expect, it } from 'vitest';
import { BASE, ORIGIN, TEXT_HEADERS, withProfile } from './helpers.js';

const P = '/api/public/v2.0';

/** A wrong base URL names the URL tried and how to fix it. */
describe('a wrong base URL', () => {
  it("404 'Unknown tenant.': exit 4, the base URL tried and where to change it", async () => {
    const f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/users`, method: 'GET' }).reply(404, 'Unknown tenant.', TEXT_HEADERS);
    expect(await f.run(['users', 'list'])).toBe(4);
    const lines = f.stderr().trimEnd().split('\n');
    expect(lines[0]).toBe('error: GET /users failed (404): Unknown tenant.');
    expect(lines[1]).toBe(`hint: no tenant answers at ${BASE}: check --base-url, CONFCTL_BASE_URL or the profile's domain ('confctl profile show'); the API's base URL looks like https://acme.example.com/api/public/v2.0`);
  });

  it('an HTML page (a web site, not the API): exit 1, no JSON crash, the base URL named', async () => {
    const f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/users/1`, method: 'GET' }).reply(200, '<!DOCTYPE html><html><body>Welcome</body></html>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    expect(await f.run(['users', 'get', '1'])).toBe(1);
    expect(f.stderr()).toContain('error: GET /users/1 failed (200): the answer is an HTML page');
    expect(f.stderr()).toContain(`hint: ${BASE} did not answer as the API: check --base-url`);
    expect(f.stderr()).not.toContain('unexpected');
    expect(f.stderr()).not.toContain('Welcome');
  });

  it('a 404 HTML page: exit 4, the page is not printed', async () => {
    const f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/users/1`, method: 'GET' }).reply(404, '<html><body>Not Found</body></html>', { headers: { 'content-type': 'text/html' } });
    expect(await f.run(['users', 'get', '1'])).toBe(4);
    expect(f.stderr()).toContain('failed (404): HTTP 404 with an HTML page');
    expect(f.stderr()).toContain(`hint: ${BASE} did not answer as the API`);
  });

  it('a plain 404 of a missing resource keeps its own hint', async () => {
    const f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/users/9`, method: 'GET' }).reply(404, 'Resource object does not exist.', TEXT_HEADERS);
    expect(await f.run(['users', 'get', '9'])).toBe(4);
    expect(f.stderr()).toContain('hint: check the id');
  });
});
