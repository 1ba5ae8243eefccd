import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { faultPicks, parseFaultRule } from '../../src/contract/faults.js';
import { setup } from './fixtures.js';

const CUSTOMER = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/** A fixture whose fault latencies are recorded instead of waited for. */
function withRules() {
  const slept: number[] = [];
  const log = new PassThrough();
  let logged = '';
  log.on('data', (d) => (logged += d));
  const f = setup({ sleep: async (ms) => void slept.push(ms), log: 'json', logStream: log });
  const add = (fields: Parameters<typeof parseFaultRule>[0], tenant_id: number | null = null) => {
    const parsed = parseFaultRule(fields);
    if (!('rule' in parsed)) throw new Error(JSON.stringify(parsed.errors));
    return f.store.faults.add({ ...parsed.rule, tenant_id });
  };
  return { ...f, add, slept, logged: () => logged };
}

describe('injected faults in the pipeline', () => {
  let f: ReturnType<typeof withRules>;
  afterEach(() => f.store.close());

  it('answers the §2 body with Retry-After and X-Confctl-Fault instead of handling the request: nothing is written', async () => {
    f = withRules();
    const rule = f.add({ route: 'POST /customers', status: '503' });
    const r = await f.call('POST', '/customers', { body: CUSTOMER });
    expect(r.status).toBe(503);
    expect(r.body).toBe('Service busy, try again.');
    expect(r.headers['retry-after']).toBe('1');
    expect(r.headers['x-confctl-fault']).toBe(String(rule.id));
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(f.store.customers.findByEmail(f.tenant.id, CUSTOMER.email)).toBeUndefined();
    // Another route of the same path, and the rule gone: handled as usual.
    expect((await f.call('GET', '/customers')).status).toBe(200);
    expect(f.store.faults.remove(rule.id)).toBe(true);
    const ok = await f.call('POST', '/customers', { body: CUSTOMER });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-confctl-fault']).toBeUndefined();
  });

  it('answers 429 with Retry-After, and 500, 404 with their bodies and no Retry-After', async () => {
    f = withRules();
    f.add({ route: 'GET /users', status: '429' });
    f.add({ route: 'GET /customers', status: '500' });
    f.add({ route: 'GET /users/{user_id}', status: '404' });
    const limited = await f.call('GET', '/users');
    expect([limited.status, limited.body, limited.headers['retry-after']]).toEqual([429, 'Too many requests.', '1']);
    const failed = await f.call('GET', '/customers');
    expect([failed.status, failed.body, failed.headers['retry-after']]).toEqual([500, 'An unexpected error the service.', undefined]);
    const absent = await f.call('GET', '/users/1');
    expect([absent.status, absent.body]).toEqual([404, 'Resource object does not exist.']);
    // Access-logged with their status; the injected 500 is no failure of the server, so no error is logged.
    const lines = f.logged().trim().split('\n').map((l) => JSON.parse(l) as { status?: number });
    expect(lines.map((l) => l.status)).toEqual([429, 500, 404]);
  });

  it('matches * on every method of the path, HEAD as its GET, and only the named tenant', async () => {
    f = withRules();
    const any = f.add({ route: '* /customers/{customer_id}', status: '503' }, f.other.id);
    const mine = f.add({ route: 'GET /users', status: '503' }, f.tenant.id);
    expect((await f.call('GET', '/customers/1')).status).toBe(404);
    const otherKey = f.key(['*'], f.other.id);
    for (const method of ['GET', 'PATCH', 'HEAD']) {
      const r = await f.app.request({ method, path: '/api/public/v2.0/customers/1', headers: { host: 'other.test', ...otherKey }, body: method === 'PATCH' ? {} : undefined });
      expect([method, r.status, r.headers['x-confctl-fault']]).toEqual([method, 503, String(any.id)]);
    }
    expect((await f.call('HEAD', '/users')).headers['x-confctl-fault']).toBe(String(mine.id));
    const other = await f.app.request({ method: 'GET', path: '/api/public/v2.0/users', headers: { host: 'other.test', ...otherKey } });
    expect(other.status).toBe(200);
  });

  it('picks by the seeded sequence of the rule’s matches, counts them in the store, and stops after --times', async () => {
    f = withRules();
    const rule = f.add({ route: 'GET /users', status: '503', rate: '0.5', seed: '11', times: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await f.call('GET', '/users')).status);
    // The n-th match is faulted when the n-th draw picks it, until three were faulted.
    const expected: number[] = [];
    let left = 3;
    for (let n = 1; n <= 30; n++) {
      const picked = left > 0 && faultPicks({ rate: 0.5, seed: 11 }, n);
      if (picked) left--;
      expected.push(picked ? 503 : 200);
    }
    expect(statuses).toEqual(expected);
    const stored = f.store.faults.get(rule.id)!;
    expect(stored.remaining).toBe(0);
    expect(stored.matched).toBe(expected.lastIndexOf(503) + 1);
  });

  it('tries rules in id order: the first that picks applies, the later ones do not count the request', async () => {
    f = withRules();
    const first = f.add({ route: 'GET /users', status: '503', times: '1' });
    const second = f.add({ route: '* /users', status: '500' });
    expect((await f.call('GET', '/users')).headers['x-confctl-fault']).toBe(String(first.id));
    expect(f.store.faults.get(second.id)!.matched).toBe(0);
    expect((await f.call('GET', '/users')).headers['x-confctl-fault']).toBe(String(second.id));
    expect(f.store.faults.get(first.id)).toMatchObject({ matched: 1, remaining: 0 });
  });

  it('delays an answer that is then handled normally, or the fault after the delay', async () => {
    f = withRules();
    const slow = f.add({ route: 'POST /customers', latency: '2s' });
    const r = await f.call('POST', '/customers', { body: CUSTOMER });
    expect(r.status).toBe(200);
    expect(r.headers['x-confctl-fault']).toBe(String(slow.id));
    expect(f.slept).toEqual([2000]);
    expect(f.store.customers.findByEmail(f.tenant.id, CUSTOMER.email)).toBeDefined();
    f.add({ route: 'GET /users', status: '503', latency: '150ms' });
    expect((await f.call('GET', '/users')).status).toBe(503);
    expect(f.slept).toEqual([2000, 150]);
  });

  it('applies rules added or removed from the next request on', async () => {
    f = withRules();
    expect((await f.call('GET', '/users')).status).toBe(200);
    const rule = f.add({ route: 'GET /users', status: '503' });
    expect((await f.call('GET', '/users')).status).toBe(503);
    f.store.faults.clear();
    expect((await f.call('GET', '/users')).status).toBe(200);
    expect(f.store.faults.get(rule.id)).toBeUndefined();
  });
});
