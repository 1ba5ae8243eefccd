import { afterEach, describe, expect, it } from 'vitest';
import { type AdminFake, adminFake } from './admin-helpers.js';

/** `confctl admin faults` in process on a fresh data directory: what it stores, prints and refuses. */
let f: AdminFake;
afterEach(() => f?.dispose());

describe('admin faults', () => {
  it('adds rules (tenant by any of its domains), lists them in id order, removes one and clears the rest', async () => {
    f = adminFake();
    await f.json(['admin', 'init', '--no-profile']);
    const one = await f.json(['admin', 'faults', 'add', '--route', 'post /api/public/v2.0/customers/', '--status', '429', '--rate', '0.25', '--seed', '9', '--tenant', '127.0.0.1']);
    expect(one).toEqual({
      id: 1,
      route: 'POST /customers',
      status: 429,
      rate: 0.25,
      latency: null,
      times: null,
      remaining: null,
      matched: 0,
      fired: 0,
      tenant: 'localhost',
      seed: 9,
      created_at: expect.stringMatching(/Z$/),
    });
    const two = await f.json(['admin', 'faults', 'add', '--route', '* /users/{user_id}', '--latency', '1.5', '--times', '2']);
    expect(two).toMatchObject({ id: 2, route: '* /users/{user_id}', status: null, latency: '1500ms', times: 2, remaining: 2, seed: 42, tenant: null });
    expect(f.inspect((l) => l.store.faults.list().map((r) => [r.id, r.method, r.path, r.latency_ms, r.tenant_id]))).toEqual([
      [1, 'POST', '/customers', null, 1],
      [2, '*', '/users/{user_id}', 1500, null],
    ]);
    expect((await f.json(['admin', 'faults', 'list'])).map((r: { id: number }) => r.id)).toEqual([1, 2]);
    expect(await f.json(['admin', 'faults', 'remove', '1'])).toEqual({ removed: 1 });
    expect(await f.json(['admin', 'faults', 'clear'])).toEqual({ removed: 1 });
    expect(await f.json(['admin', 'faults', 'list'])).toEqual([]);
  });

  it("dates a rule by the instance's manual clock when serve runs on one, as the control route does", async () => {
    f = adminFake();
    await f.json(['admin', 'init', '--no-profile']);
    f.inspect((l) => l.store.clock.put({ at_ms: Date.parse('2030-01-31T09:00:00.000Z'), manual: true }));
    const rule = await f.json(['admin', 'faults', 'add', '--route', 'POST /customers', '--status', '503']);
    expect(rule.created_at).toBe('2030-01-31T09:00:00.000Z');
  });

  it('refuses a rule that matches no route with exit 2 and every problem listed, stores nothing; an unknown id or tenant is exit 4', async () => {
    f = adminFake();
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['admin', 'faults', 'add', '--route', 'DELETE /customers/{customer_id}', '--rate', 'half'])).toBe(2);
    expect(f.stderr()).toContain("error: fault rule refused: route 'DELETE /customers/{customer_id}' matches no route: /customers/{customer_id} takes GET, PATCH; did you mean 'GET /customers/{customer_id}'?\n");
    expect(f.stderr()).toContain("  rate: rate must be a number above 0 and at most 1, not 'half'\n");
    expect(f.stderr()).toContain('  status: give a status (the fault answered), a latency (a delay before the normal answer), or both\n');
    expect(await f.run(['admin', 'faults', 'add', '--route', 'GET /users', '--status', '503', '--tenant', 'elsewhere.test'])).toBe(4);
    expect(await f.run(['admin', 'faults', 'remove', '7'])).toBe(4);
    expect(await f.run(['admin', 'faults', 'remove', 'x'])).toBe(2);
    expect(f.inspect((l) => l.store.faults.list())).toEqual([]);
  });

  it('with --dry-run says what it would do and changes nothing', async () => {
    f = adminFake();
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['--dry-run', 'admin', 'faults', 'add', '--route', 'GET /users', '--status', '503'])).toBe(0);
    expect(f.stdout()).toContain('would add a fault rule on GET /users\n');
    expect(f.inspect((l) => l.store.faults.list())).toEqual([]);
  });
});
