import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultPicks } from '../../src/contract/faults.js';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * `confctl admin faults` against a running `serve` on each store: a rule added by the CLI applies
 * from the next request on; the CLI's own retries get through a 503 at rate 0.5 and give up at
 * rate 1 with exit 1 (decisions §9: 5xx) and a message naming the rule; nothing is written by a
 * faulted request. On PostgreSQL two instances share a rule's times.
 */
// The stores run at the same time, each block's tests in order: most of the file's time is waiting on the CLI's retries.
describe.concurrent.each(BACKENDS)('e2e: injected faults (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  let baseUrl: string;
  let n = 0;

  const token = 'faults-e2e-control-token-0123456789';
  let origin: string;

  beforeAll(async () => {
    const tokenFile = join(box.root, 'control-token');
    writeFileSync(tokenFile, `${token}\n`);
    ({ baseUrl } = await box.serve(['--rate-limit', 'off', '--test-controls', '--control-token-file', tokenFile]));
    origin = new URL(baseUrl).origin;
  });
  afterAll(() => box.dispose());

  const createCustomer = (email: string) => box.run(['customers', 'create', '--first-name', 'Ada', '--last-name', 'Fault', '--email', email, '--verbose', '-o', 'json']);
  const customersWith = async (email: string) => (await box.json<unknown[]>(['customers', 'list', '--filter', `email=${email}`])).length;
  const rules = () => box.json<any[]>(['admin', 'faults', 'list']);

  it.sequential('retries through a 503 at rate 0.5: the picked tries are answered by the fault, the next one creates the customer once', async () => {
    // Seed 7 picks the first two matches at rate 0.5 and not the third: two retries, then success.
    expect([1, 2, 3].map((k) => faultPicks({ rate: 0.5, seed: 7 }, k))).toEqual([true, true, false]);
    const rule = await box.json(['admin', 'faults', 'add', '--route', 'POST /customers', '--status', '503', '--rate', '0.5', '--seed', '7']);
    expect(rule).toMatchObject({ route: 'POST /customers', status: 503, rate: 0.5, seed: 7, matched: 0, fired: 0, times: null });
    const email = `half-${backend}-${++n}@example.com`;
    const r = await createCustomer(email);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ email });
    expect(r.stderr.match(/< x-confctl-fault: \d+/g)).toEqual([`< x-confctl-fault: ${rule.id}`, `< x-confctl-fault: ${rule.id}`]);
    expect(r.stderr.match(/\* retrying in 1000 ms \(HTTP 503\)/g)).toHaveLength(2);
    expect(await customersWith(email)).toBe(1);
    expect(await rules()).toEqual([expect.objectContaining({ id: rule.id, matched: 3, fired: 2 })]);
    expect((await box.run(['admin', 'faults', 'clear'])).code).toBe(0);
  });

  it.sequential('gives up at rate 1 after its five tries with exit 1 and the rule named; nothing is written', async () => {
    const rule = await box.json(['admin', 'faults', 'add', '--route', '* /customers', '--status', '503']);
    const email = `never-${backend}-${++n}@example.com`;
    const r = await createCustomer(email);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: POST /customers failed (503): Service busy, try again. (after 5 tries)\n');
    expect(r.stderr).toContain(`hint: the answer was injected by fault rule ${rule.id} of the local instance: 'confctl admin faults list' shows it, 'confctl admin faults remove ${rule.id}' ends it\n`);
    expect(await rules()).toEqual([expect.objectContaining({ id: rule.id, matched: 5, fired: 5 })]);
    expect((await box.run(['admin', 'faults', 'remove', String(rule.id)])).code).toBe(0);
    expect(await customersWith(email)).toBe(0);
    expect(await rules()).toEqual([]);
  });

  it.sequential('answers the fault on the wire before the key check (Retry-After, the header), delays a latency rule and spends --times', async () => {
    // Without a key: the fault comes before the key check, and a latency rule's answer is then the usual 401.
    const fault = await box.json(['admin', 'faults', 'add', '--route', 'GET /users', '--status', '429', '--times', '1']);
    const slow = await box.json(['admin', 'faults', 'add', '--route', 'GET /users', '--latency', '300ms', '--times', '1']);
    const limited = await fetch(`${baseUrl}/users`);
    expect([limited.status, await limited.text(), limited.headers.get('retry-after'), limited.headers.get('x-confctl-fault')]).toEqual([429, 'Too many requests.', '1', String(fault.id)]);
    const started = performance.now();
    const late = await fetch(`${baseUrl}/users`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect([late.status, late.headers.get('x-confctl-fault')]).toEqual([401, String(slow.id)]);
    const plain = await fetch(`${baseUrl}/users`);
    expect(plain.headers.get('x-confctl-fault')).toBeNull();
    expect((await rules()).map((x) => [x.id, x.remaining, x.fired])).toEqual([
      [fault.id, 0, 1],
      [slow.id, 0, 1],
    ]);
    await box.run(['admin', 'faults', 'clear']);
  });

  it.sequential('refuses a rule that matches no route (exit 2, with a did-you-mean) and an unknown tenant (exit 4)', async () => {
    const typo = await box.run(['admin', 'faults', 'add', '--route', 'POST /customer', '--status', '503']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("error: fault rule refused: route 'POST /customer' matches no route: did you mean 'POST /customers'?");
    const tenant = await box.run(['admin', 'faults', 'add', '--route', 'POST /customers', '--status', '503', '--tenant', 'nowhere.test']);
    expect(tenant.code).toBe(4);
    expect(await rules()).toEqual([]);
  });

  it.sequential('adds, lists and removes rules over HTTP under --test-controls, the same rules admin faults sees', async () => {
    const control = (method: string, path: string, body?: unknown) =>
      fetch(`${origin}/_confctl${path}`, { method, headers: { 'X-Confctl-Control-Token': token }, body: body === undefined ? undefined : JSON.stringify(body) });
    const refused = await control('POST', '/faults', { route: 'GET /user', status: 503 });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors.route).toEqual(["route 'GET /user' matches no route: did you mean 'GET /users'?"]);
    const added = await control('POST', '/faults', { route: 'GET /users', status: 500, times: 1 });
    const rule = ((await added.json()) as { data: { id: number } }).data;
    expect(rule).toMatchObject({ route: 'GET /users', status: 500, remaining: 1 });
    expect(await rules()).toEqual([expect.objectContaining({ id: rule.id, route: 'GET /users' })]);
    const r = await box.run(['users', 'list']);
    // A GET is retried on a 5xx: the one fault, then the list.
    expect(r.code, r.stderr).toBe(0);
    expect(((await (await control('GET', '/faults')).json()) as { data: unknown }).data).toEqual([expect.objectContaining({ id: rule.id, remaining: 0, fired: 1 })]);
    expect((await control('DELETE', `/faults/${rule.id}`)).status).toBe(200);
    expect(await rules()).toEqual([]);
  });

  it.runIf(backend === 'postgres')('applies a rule on every instance sharing the database, its times given out once', async () => {
    const second = await box.serve(['--rate-limit', 'off']);
    const rule = await box.json(['admin', 'faults', 'add', '--route', 'GET /users', '--status', '503', '--times', '3']);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await fetch(`${i % 2 ? second.baseUrl : baseUrl}/users`)).status);
    expect(statuses.filter((s) => s === 503)).toHaveLength(3);
    expect(statuses.slice(0, 3)).toEqual([503, 503, 503]);
    expect(await rules()).toEqual([expect.objectContaining({ id: rule.id, remaining: 0, fired: 3 })]);
    await box.run(['admin', 'faults', 'clear']);
  });
});
