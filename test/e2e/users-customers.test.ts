import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * The first vertical slice end to end: the built bin initialises a data directory, serves it on
 * a free port, and manages customers and users through the saved profile.
 */
describe.each(BACKENDS)('e2e: users and customers through the built CLI (on %s)', (backend) => {
  const box = new Sandbox(backend);
  let key: { tenant: string; key_id: string; secret: string };
  let baseUrl: string;

  beforeAll(async () => {
    await box.useDatabase();
    key = await box.json(['admin', 'init']);
    expect(await box.json(['admin', 'seed', '--users', '40', '--customers', '5'])).toMatchObject({ users: 40, customers: 5 });
    ({ baseUrl } = await box.serve(['--rate-limit', 'off']));
  });
  afterAll(() => box.dispose());

  it('admin init printed exactly the tenant and the key, and saved the profile local', async () => {
    expect(Object.keys(key).sort()).toEqual(['key_id', 'secret', 'tenant']);
    expect(key.tenant).toBe('localhost');
    expect(key.key_id).toMatch(/^ak_[A-Za-z0-9]{24}$/);
    expect(key.secret).toMatch(/^[A-Za-z0-9]{48}$/);
    const profiles = await box.run(['profile', 'list', '-o', 'json']);
    expect(profiles.code).toBe(0);
    expect(profiles.stdout).toContain('local');
    expect(profiles.stdout).not.toContain(key.secret);
    const again = await box.run(['admin', 'init']);
    expect(again.code).toBe(5);
  });

  it('serve pointed the profile at the port it listens on', async () => {
    const show = await box.json<Record<string, unknown>>(['profile', 'show', 'local']);
    expect(JSON.stringify(show)).toContain(baseUrl);
    expect(JSON.stringify(show)).not.toContain(key.secret);
  });

  it('customers create, update and get', async () => {
    const created = await box.json(['customers', 'create', '--first-name', 'Ada', '--last-name', 'Lovelace', '--email', 'ada@example.com', '--contact-number', '+441234567890']);
    expect(created).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', name: 'Ada Lovelace', contact_number: '+441234567890' });

    const updated = await box.json(['customers', 'update', String(created.id), '--middle-name', 'King', '--address', '{"city":"London","country":"United Kingdom"}']);
    expect(updated).toMatchObject({ id: created.id, name: 'Ada King Lovelace', email: 'ada@example.com' });
    expect(updated.address).toMatchObject({ city: 'London', country: 'United Kingdom', line_1: null });

    const fetched = await box.json(['customers', 'get', String(created.id)]);
    expect(fetched).toEqual(updated);

    const listed = await box.json<any[]>(['customers', 'list', '--filter', 'city_country=London, United Kingdom']);
    expect(listed.map((c) => c.id)).toEqual([created.id]);
  });

  it('a body the contract refuses is exit 2 before sending; the server’s own checks exit 6; nothing is stored', async () => {
    const local = await box.run(['customers', 'create', '--first-name', 'Ada', '--last-name', 'Again', '--email', 'ADA@example.com', '--contact-number', '12']);
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('error: The contact_number field format is invalid.\n  contact_number: The contact_number field format is invalid.\n');
    const r = await box.run(['customers', 'create', '--first-name', 'Ada', '--last-name', 'Again', '--email', 'ADA@example.com']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('email: The email has already been taken.');
    const all = await box.json<any[]>(['customers', 'list', '--filter', 'last_name=Again']);
    expect(all).toEqual([]);
  });

  it('users list filters, sorts and selects fields as JSON', async () => {
    const users = await box.json<any[]>(['users', 'list', '--filter', 'email~.1', '--sort', '-id', '--page-size', '100']);
    expect(users.length).toBeGreaterThan(0);
    for (const u of users) expect(u.email).toContain('.1');
    expect(users.map((u) => u.id)).toEqual([...users.map((u) => u.id)].sort((a, b) => b - a));

    const some = await box.json<any[]>(['users', 'list', '--filter', 'id<=3', '--fields', 'id,email']);
    expect(some.map((u) => Object.keys(u))).toEqual([['id', 'email'], ['id', 'email'], ['id', 'email']].slice(0, some.length));
    expect(some.map((u) => u.id)).toEqual([1, 2, 3].slice(0, some.length));
  });

  it('users list --all follows every page', async () => {
    const all = await box.json<any[]>(['users', 'list', '--all', '--page-size', '7', '--with-trashed']);
    expect(all).toHaveLength(40);
    expect(new Set(all.map((u) => u.id)).size).toBe(40);
  });

  it('users get and update; an unknown id exits 4', async () => {
    const user = await box.json(['users', 'get', '2']);
    expect(user.id).toBe(2);
    // An update sends every field, so work hours the seed may have left null are given too.
    const hours = { sunday: [], monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 0, second: 0 } }], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
    const updated = await box.json(['users', 'update', '2', '--timezone', 'Europe/Paris', '--role', 'Manager', '--work-hours', JSON.stringify(hours)]);
    expect(updated).toMatchObject({ id: 2, timezone: 'Europe/Paris', role: 'Manager', email: user.email, work_hours: hours });
    expect(await box.json(['users', 'get', '2'])).toMatchObject({ timezone: 'Europe/Paris', role: 'Manager' });

    const missing = await box.run(['users', 'get', '999999']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('Resource object does not exist.');

    const badRole = await box.run(['users', 'update', '2', '--role', 'Wizard']);
    expect(badRole.code).toBe(6);
    expect(badRole.stderr).toContain('The selected role is invalid.');
  });

  it('a wrong secret exits 3, a key without the permission exits 3, a bad filter exits 2', async () => {
    const wrong = await box.run(['users', 'list'], { env: { CONFCTL_KEY_SECRET: 'x'.repeat(48) } });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('Invalid or missing access key.');
    expect(wrong.stderr).not.toContain('x'.repeat(48));

    const limited = await box.json(['admin', 'keys', 'create', '--name', 'readonly', '--permissions', 'customers.read.*']);
    const denied = await box.run(['users', 'list'], { env: { CONFCTL_KEY_ID: limited.id, CONFCTL_KEY_SECRET: limited.secret } });
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain('Access denied.');

    const bad = await box.run(['users', 'list', '--filter', 'email?x']);
    expect(bad.code).toBe(2);
  });
});
