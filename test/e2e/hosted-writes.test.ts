import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incompleteKeys } from '../../src/contract/complete-bodies.js';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * Writes that the hosted service would accept, through the built bin against `serve --demo`:
 * the bodies actually sent (`--verbose` traces them) are complete, and the stored state is what
 * was asked for, nothing else. Run against the default server and against `serve --strict`,
 * which enforces the hosted complete-body rules: the same commands pass unchanged.
 */
describe.each(
  BACKENDS.flatMap((backend) => [
    ['lenient', [], backend],
    ['--strict', ['--strict'], backend],
  ] as const),
)('e2e: complete bodies against a real server (%s, on %s)', (_mode, flags, backend) => {
  const box = new Sandbox(backend);

  /** The JSON request bodies in a `--verbose` trace, in order. */
  const sent = (stderr: string) => stderr.split('\n').filter((l) => /^> [[{]/.test(l)).map((l) => JSON.parse(l.slice(2)));

  beforeAll(async () => {
    await box.serve(['--demo', '--rate-limit', 'off', ...flags]);
  });
  afterAll(() => box.dispose());

  it('users update 3 --role Manager sends all seven fields and changes only the role', async () => {
    const before = await box.json(['users', 'get', '3']);
    const r = await box.run(['users', 'update', '3', '--role', 'Manager', '--verbose', '-o', 'json']);
    expect(r.code).toBe(0);
    const [body] = sent(r.stderr);
    expect(incompleteKeys('updateUser', body)).toEqual([]);
    expect(body).toEqual({
      department_id: before.department_id,
      first_name: before.first_name,
      last_name: before.last_name,
      email: before.email,
      timezone: before.timezone,
      work_hours: before.work_hours,
      role: 'Manager',
    });
    const after = await box.json(['users', 'get', '3']);
    expect({ ...after, updated_at: before.updated_at }).toEqual({ ...before, role: 'Manager' });
  });

  it('users create sends all nine keys (department_id null, switches false) and stores an inactive, invited user', async () => {
    const email = `hosted-${flags.length}@example.com`;
    const r = await box.run(['users', 'create', '--first-name', 'Hal', '--last-name', 'Hosted', '--email', email, '--timezone', 'UTC', '--role', 'Member',
      '--work-hours', '{"sunday":[],"monday":[],"tuesday":[],"wednesday":[],"thursday":[],"friday":[],"saturday":[]}', '--verbose', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const [body] = sent(r.stderr);
    expect(Object.keys(body)).toEqual(['department_id', 'first_name', 'last_name', 'email', 'timezone', 'work_hours', 'role', 'activate', 'is_silent']);
    expect(body).toMatchObject({ department_id: null, activate: false, is_silent: false });
    const created = JSON.parse(r.stdout);
    expect(await box.json(['users', 'get', String(created.id)])).toMatchObject({ email, status: 0, department_id: null });
    const invitations = await box.json<any[]>(['admin', 'invitations', 'list']);
    expect(invitations.filter((i) => i.user_id === created.id).map((i) => i.email)).toEqual([email]);
  });

  it('a user without a department is sent with department_id null', async () => {
    const r = await box.run(['users', 'update', '6', '--first-name', 'Den', '--verbose']);
    expect(r.code).toBe(0);
    expect(sent(r.stderr)[0]).toMatchObject({ department_id: null, first_name: 'Den' });
    expect(await box.json(['users', 'get', '6'])).toMatchObject({ department_id: null, first_name: 'Den' });
  });

  it('a user whose timezone is null: exit 2 naming --timezone, nothing sent or stored', async () => {
    const before = await box.json(['users', 'get', '8']);
    expect(before.timezone).toBeNull();
    const r = await box.run(['users', 'update', '8', '--role', 'Manager', '--verbose']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: cannot update user 8 without timezone: an update sends every field, and the service requires it; nothing sent\nhint: give --timezone\n');
    expect(r.stderr).not.toContain('> PATCH');
    expect(await box.json(['users', 'get', '8'])).toEqual(before);
  });

  it('with --timezone given, that user is updated', async () => {
    expect(await box.json(['users', 'update', '8', '--role', 'Manager', '--timezone', 'Europe/Oslo'])).toMatchObject({ role: 'Manager', timezone: 'Europe/Oslo' });
  });

  it('--dry-run reads the user, prints the complete PATCH as a --data-raw curl line, and stores nothing', async () => {
    const before = await box.json(['users', 'get', '3']);
    const r = await box.run(['--dry-run', 'users', 'update', '3', '--timezone', 'Europe/Paris']);
    expect(r.code).toBe(0);
    const m = /^curl -X PATCH \S+\/users\/3 .* --data-raw '(.*)'\n$/.exec(r.stdout);
    expect(m).not.toBeNull();
    expect(JSON.parse(m![1])).toMatchObject({ timezone: 'Europe/Paris', role: before.role, email: before.email, work_hours: before.work_hours });
    expect(incompleteKeys('updateUser', JSON.parse(m![1]))).toEqual([]);
    expect(await box.json(['users', 'get', '3'])).toEqual(before);
  });

  it('a 400 on role keeps the message and hints at admin roles list', async () => {
    const r = await box.run(['users', 'update', '3', '--role', 'Boss']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('error: PATCH /users/3 failed (400): The selected role is invalid.\n  role: The selected role is invalid.\n');
    expect(r.stderr).toContain("'confctl admin roles list'");
  });

  it('customers create sends all six keys (address {}) and stores no address', async () => {
    const r = await box.run(['customers', 'create', '--first-name', 'Ada', '--last-name', 'Lovelace', '--email', 'ada@example.com', '--verbose', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(sent(r.stderr)).toEqual([{ first_name: 'Ada', middle_name: null, last_name: 'Lovelace', email: 'ada@example.com', contact_number: null, address: {} }]);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'Ada Lovelace', middle_name: null, contact_number: null, address: null });
  });

  it('customers create --from-file sends complete bodies for every record', async () => {
    const file = join(box.root, 'new.csv');
    writeFileSync(file, 'first_name,middle_name,last_name,email,address.city\nBo,,Ek,bo@example.com,Oslo\nCy,Ann,Fu,cy@example.com,\n');
    const r = await box.run(['customers', 'create', '--from-file', file, '--concurrency', '1', '--verbose', '-o', 'json']);
    expect(r.code).toBe(0);
    const bodies = sent(r.stderr);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(incompleteKeys('createCustomer', body)).toEqual([]);
    expect(bodies[0]).toEqual({ first_name: 'Bo', middle_name: null, last_name: 'Ek', email: 'bo@example.com', contact_number: null, address: { city: 'Oslo' } });
    expect(bodies[1]).toEqual({ first_name: 'Cy', middle_name: 'Ann', last_name: 'Fu', email: 'cy@example.com', contact_number: null, address: {} });
    expect(JSON.parse(r.stdout).map((c: any) => [c.name, c.address?.city ?? null])).toEqual([['Bo Ek', 'Oslo'], ['Cy Ann Fu', null]]);
  });

  it('conferences update --title sends the visibility it read', async () => {
    const r = await box.run(['conferences', 'update', '1', '--title', 'Weekly sync (moved)', '--verbose', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(sent(r.stderr)).toEqual([{ title: 'Weekly sync (moved)', is_public: true }]);
    expect(await box.json(['conferences', 'get', '1'])).toMatchObject({ title: 'Weekly sync (moved)', is_public: true });
  });

  describe('a key that may update conferences but not read them', () => {
    let as: { env: Record<string, string> };
    beforeAll(async () => {
      const key = await box.json(['admin', 'keys', 'create', '--name', 'update-only', '--permissions', 'online_conferences.update.*']);
      as = { env: { CONFCTL_KEY_ID: key.id, CONFCTL_KEY_SECRET: key.secret } };
    });

    it('one flag needs the read: exit 3 saying so', async () => {
      const denied = await box.run(['conferences', 'update', '2', '--private'], as);
      expect(denied.code).toBe(3);
      expect(denied.stderr).toContain('error: an update reads the conference first, to send every writable field, and reading it failed (401): Access denied.');
      expect(denied.stderr).toContain('hint: the access key needs online_conferences.read.* as well; or give every field (--title and --public or --private) to update without reading');
    });

    it('both flags are sent without reading', async () => {
      const both = await box.run(['conferences', 'update', '2', '--title', 'Private planning', '--private', '-o', 'json'], as);
      expect(both.code).toBe(0);
      expect(JSON.parse(both.stdout)).toMatchObject({ title: 'Private planning', is_public: false });
    });

    it('a started conference (demo conference 3 is running) still answers 409', async () => {
      const started = await box.run(['conferences', 'update', '3', '--title', 'Too late', '--public'], as);
      expect(started.code).toBe(5);
      expect(started.stderr).toContain('Cannot modify an online conference that has started.');
    });
  });

  it(`a partial body sent by hand is ${flags.length ? 'refused (400, exit 6)' : 'accepted'}`, async () => {
    const r = await box.run(['api', 'PATCH', '/online_conferences/2', '-F', 'title=Only the title']);
    if (flags.length) {
      expect(r.code).toBe(6);
      expect(JSON.parse(r.stdout).errors).toEqual({ is_public: ['The is_public field is required.'] });
      expect(await box.json(['conferences', 'get', '2'])).not.toMatchObject({ title: 'Only the title' });
    } else {
      expect(r.code).toBe(0);
      expect(await box.json(['conferences', 'get', '2'])).toMatchObject({ title: 'Only the title' });
    }
  });

  it('--attendee with a bare e-mail adds an attendee named by the address', async () => {
    const added = await box.json<any[]>(['conferences', 'attendees', 'add', '2', '--attendee', 'grace@example.com']);
    expect(added).toMatchObject([{ name: 'grace@example.com', email: 'grace@example.com' }]);
  });
});
