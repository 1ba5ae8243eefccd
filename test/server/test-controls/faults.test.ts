import { afterEach, describe, expect, it } from 'vitest';
import { setup } from '../fixtures.js';

const TOKEN = 'control-token-for-tests-0123456789';

/** A fixture with test controls on; `control` sends a control request from loopback with the token. */
function withControls() {
  const f = setup({ testControls: { token: TOKEN } });
  const control = (method: string, path: string, body?: unknown) =>
    f.app.request({ method, path: `/_confctl${path}`, headers: { 'X-Confctl-Control-Token': TOKEN }, body });
  return { ...f, control };
}

describe('test controls: injected faults', () => {
  let f: ReturnType<typeof withControls>;
  afterEach(() => f.store.close());

  it('adds a rule that applies from the next request on, lists it with its counts, removes it', async () => {
    f = withControls();
    const added = await f.control('POST', '/faults', { route: 'POST /customers', status: 503, rate: 1, times: 2, tenant: 'LOCALHOST', latency: 0.25 });
    expect(added.status).toBe(200);
    const rule = added.json().data;
    expect(rule).toEqual({
      id: expect.any(Number),
      route: 'POST /customers',
      status: 503,
      rate: 1,
      latency: '250ms',
      times: 2,
      remaining: 2,
      matched: 0,
      fired: 0,
      tenant: 'localhost',
      seed: 42,
      created_at: expect.stringMatching(/Z$/),
    });
    const faulted = await f.call('POST', '/customers', { body: { first_name: 'A', last_name: 'B', email: 'a@example.com' } });
    expect([faulted.status, faulted.headers['x-confctl-fault']]).toEqual([503, String(rule.id)]);
    const listed = await f.control('GET', '/faults');
    expect(listed.json().data).toEqual([{ ...rule, remaining: 1, matched: 1, fired: 1 }]);
    const removed = await f.control('DELETE', `/faults/${rule.id}`);
    expect([removed.status, removed.json().data]).toEqual([200, { removed: rule.id }]);
    expect((await f.control('DELETE', `/faults/${rule.id}`)).status).toBe(404);
    expect((await f.control('DELETE', '/faults/abc')).status).toBe(404);
    expect((await f.call('POST', '/customers', { body: { first_name: 'A', last_name: 'B', email: 'a@example.com' } })).status).toBe(200);
  });

  it('refuses a rule that matches no route, an unknown tenant or field with 400 and every problem named; nothing is stored', async () => {
    f = withControls();
    const r = await f.control('POST', '/faults', { route: 'PATCH /user/{user_id}', status: 502, tenant: 'nowhere.test', colour: 'red' });
    expect(r.status).toBe(400);
    expect(r.json()).toEqual({
      message: "route 'PATCH /user/{user_id}' matches no route: did you mean 'PATCH /users/{user_id}'? (and 3 more errors)",
      errors: {
        route: ["route 'PATCH /user/{user_id}' matches no route: did you mean 'PATCH /users/{user_id}'?"],
        status: ['status must be one of 400, 401, 404, 429, 500, 503, not 502'],
        colour: ['colour is not a field of a fault rule (route, status, rate, latency, times, seed, tenant)'],
        tenant: ['tenant must be a domain of a tenant of this instance, not "nowhere.test"'],
      },
    });
    expect((await f.control('POST', '/faults', [1])).status).toBe(400);
    expect(f.store.faults.list()).toEqual([]);
  });

  it('clears every rule', async () => {
    f = withControls();
    for (const route of ['GET /users', '* /customers']) expect((await f.control('POST', '/faults', { route, status: 500 })).status).toBe(200);
    expect((await f.call('GET', '/users')).status).toBe(500);
    const cleared = await f.control('DELETE', '/faults');
    expect(cleared.json().data).toEqual({ removed: 2 });
    expect((await f.call('GET', '/users')).status).toBe(200);
    expect((await f.control('GET', '/faults')).json().data).toEqual([]);
  });

  it('does not exist without test controls, and answers only with the token', async () => {
    f = withControls();
    expect((await f.app.request({ method: 'GET', path: '/_confctl/faults' })).status).toBe(401);
    const plain = setup();
    try {
      const r = await plain.app.request({ method: 'POST', path: '/_confctl/faults', headers: { 'X-Confctl-Control-Token': TOKEN }, body: { route: 'GET /users', status: 503 } });
      expect(r.status).toBe(404);
      expect(plain.store.faults.list()).toEqual([]);
    } finally {
      plain.store.close();
    }
  });
});
