import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

/** `confctl api` and `confctl doctor` through the built bin against a real `serve` (default rate limits). */
// The stores run at the same time, each block's tests in order: most of the file's time is waiting (doctor's retries of an unreachable URL).
describe.concurrent.each(BACKENDS)('e2e: api and doctor (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  let readUsers: { id: string; secret: string };
  let baseUrl: string;
  const as = (key: { id: string; secret: string }) => ({ env: { CONFCTL_KEY_ID: key.id, CONFCTL_KEY_SECRET: key.secret } });

  beforeAll(async () => {
    await box.json(['admin', 'init']);
    await box.json(['admin', 'seed', '--users', '3', '--customers', '3']);
    readUsers = await box.json(['admin', 'keys', 'create', '--name', 'ru', '--permissions', 'users.read.*']);
    ({ baseUrl } = await box.serve());
  });
  afterAll(() => box.dispose());

  it.sequential('api GETs, POSTs with typed fields, and follows pages', async () => {
    const list = await box.run(['api', '/users?page_size=2']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ current_page: 1, per_page: 2, total: 3 });
    expect(list.stdout).toContain('\n  "data": [');

    const created = await box.run(['api', 'POST', '/customers', '-F', 'first_name=Ada', '-F', 'last_name=Lovelace', '-F', 'email=ada@example.com', '-F', 'address[city]=London']);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).data).toMatchObject({ name: 'Ada Lovelace', address: { city: 'London' } });

    const all = await box.run(['api', '--paginate', '/customers', '-F', 'page_size=2']);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout).map((c: { email: string }) => c.email)).toContain('ada@example.com');
    expect(JSON.parse(all.stdout)).toHaveLength(4);
  });

  it.sequential('api prints error bodies and exits with their codes: 400 → 6, 404 → 4, 401 → 3; -i shows the status', async () => {
    const invalid = await box.run(['api', 'POST', '/customers', '--data', '{}']);
    expect(invalid.code).toBe(6);
    expect(JSON.parse(invalid.stdout).errors.email).toEqual(['The email field is required.']);
    const missing = await box.run(['api', '-i', '/customers/999999']);
    expect(missing.code).toBe(4);
    expect(missing.stdout).toMatch(/^HTTP\/1\.1 404 Not Found\n[^]*\n\nResource object does not exist\.\n$/);
    const denied = await box.run(['api', '/customers'], as(readUsers));
    expect(denied.code).toBe(3);
    expect(denied.stdout).toBe('Access denied.\n');
  });

  it.sequential('api --dry-run sends nothing and masks the secret', async () => {
    const r = await box.run(['api', 'POST', '/customers', '-F', 'email=x@y.z', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^curl -X POST ${baseUrl}/customers .*X-Access-Key-Secret: \\*\\*\\*\\*`));
    expect((await box.run(['api', '/customers', '-F', 'filter_attribute=email', '-F', 'filter_value=x@y.z'])).stdout).toContain('"data": []');
  });

  it.sequential('doctor: a full key passes every check it probes (exit 0); users.lock.* is not probed', async () => {
    const rows = await box.json<{ check: string; status: string }[]>(['doctor']);
    expect(rows.filter((r) => r.status !== 'ok').map((r) => [r.check, r.status])).toEqual([['users.lock.*', 'skip']]);
    expect(rows.map((r) => r.check)).toContain('events.read.*');
    expect(rows.find((r) => r.check === 'users.create.*')).toMatchObject({ status: 'ok', detail: 'granted (answered 400)' });
  });

  it.sequential('doctor: a users.read.* key: users ok, customers denied (exit 0)', async () => {
    const r = await box.run(['doctor', '-o', 'json'], as(readUsers));
    expect(r.code).toBe(0);
    const rows = Object.fromEntries(JSON.parse(r.stdout).map((x: { check: string; status: string }) => [x.check, x.status]));
    expect(rows['users.read.*']).toBe('ok');
    expect(rows['customers.read.*']).toBe('fail');
    expect(rows['customers.create.*']).toBe('fail');
    expect(rows['users.create.*']).toBe('fail');
  });

  it.sequential('doctor: a wrong secret is exit 3, an unreachable base URL exit 8', async () => {
    expect((await box.run(['doctor'], as({ id: readUsers.id, secret: 'x'.repeat(48) }))).code).toBe(3);
    const down = await box.run(['doctor', '--base-url', 'http://127.0.0.1:1/api/public/v2.0']);
    expect(down.code).toBe(8);
    expect(down.stderr).toContain('error: cannot reach http://127.0.0.1:1/api/public/v2.0');
  });
});
