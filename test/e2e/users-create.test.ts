import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

const HOURS = '{"sunday":[],"monday":[{"start":{"hour":9,"minute":0,"second":0},"end":{"hour":17,"minute":0,"second":0}}],"tuesday":[],"wednesday":[],"thursday":[],"friday":[],"saturday":[]}';
const FIELDS = (email: string) => ['--first-name', 'Ivy', '--last-name', 'Invite', '--email', email, '--timezone', 'Europe/Berlin', '--role', 'Member', '--work-hours', HOURS];

/**
 * `users create` through the built bin against a real `serve` with a temporary data directory:
 * flags, `--data`, `--activate --silent`, `--from-file`, the users.lock.* rule, the pipe that
 * never prompts, and the invitations the local instance records instead of mailing.
 */
describe.each(BACKENDS)('e2e: users create and the invitations outbox (on %s)', (backend) => {
  const box = new Sandbox(backend);
  let createOnly: { id: string; secret: string };
  const as = (k: { id: string; secret: string }) => ({ env: { CONFCTL_KEY_ID: k.id, CONFCTL_KEY_SECRET: k.secret } });
  const invitations = () => box.json<{ id: number; created_at: string; user_id: number; email: string; tenant: string }[]>(['admin', 'invitations', 'list']);

  beforeAll(async () => {
    await box.useDatabase();
    await box.json(['admin', 'init']);
    createOnly = await box.json(['admin', 'keys', 'create', '--name', 'create-only', '--permissions', 'users.create.*,users.read.*']);
    await box.serve(['--rate-limit', 'off']);
  });
  afterAll(() => box.dispose());

  it('flags create an inactive user with one invitation; --activate --silent an active one with none', async () => {
    const invited = await box.json(['users', 'create', ...FIELDS('ivy@example.com')]);
    expect(invited).toMatchObject({ first_name: 'Ivy', email: 'ivy@example.com', status: 0, department_id: null, timezone: 'Europe/Berlin' });
    const quiet = await box.json(['users', 'create', ...FIELDS('quiet@example.com'), '--activate', '--silent']);
    expect(quiet.status).toBe(1);
    const rows = await invitations();
    expect(rows.map((r) => [r.user_id, r.email, r.tenant])).toEqual([[invited.id, 'ivy@example.com', 'localhost']]);
    expect(rows[0].created_at).toBe(invited.created_at);
  });

  it('--data gives the body; a taken e-mail (any case) is exit 6; a deleted user’s is free', async () => {
    const body = { first_name: 'Dee', last_name: 'Data', email: 'dee@example.com', timezone: 'UTC', role: 'Admin', work_hours: JSON.parse(HOURS), activate: true };
    const created = await box.json(['users', 'create', '--data', JSON.stringify(body)]);
    expect(created).toMatchObject({ email: 'dee@example.com', role: 'Admin', status: 1 });
    const taken = await box.run(['users', 'create', ...FIELDS('DEE@Example.com')]);
    expect(taken.code).toBe(6);
    expect(taken.stderr).toContain('email: The email has already been taken.');
  });

  it('a key without users.lock.* may create but not activate (exit 3), and an invalid body is refused before sending (exit 2)', async () => {
    const denied = await box.run(['users', 'create', ...FIELDS('lock@example.com'), '--activate'], as(createOnly));
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain('Access denied.');
    const invalid = await box.run(['users', 'create', ...FIELDS('not-an-email'), '--activate'], as(createOnly));
    expect(invalid.code).toBe(2);
    expect((await box.json<any[]>(['users', 'list', '--filter', 'email=lock@example.com'])).length).toBe(0);
    expect((await box.json(['users', 'create', ...FIELDS('lock@example.com')], as(createOnly))).status).toBe(0);
  });

  it('--from-file creates each record, reports the refused ones with their lines (exit 6) and records their invitations only', async () => {
    const file = join(box.root, 'users.ndjson');
    const record = (email: string, extra: Record<string, unknown> = {}) => JSON.stringify({ first_name: 'Bulk', last_name: email, email, timezone: 'UTC', role: 'Member', work_hours: JSON.parse(HOURS), ...extra });
    writeFileSync(file, [record('b1@example.com'), record('b2@example.com', { role: 'Pilot' }), record('b3@example.com', { department_id: null })].join('\n'));
    const errors = join(box.root, 'errors.ndjson');
    const r = await box.run(['users', 'create', '--from-file', file, '--errors', errors, '-o', 'json']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('created 2, failed 1 of 3');
    const emails = (await invitations()).map((i) => i.email);
    expect(emails).toEqual(expect.arrayContaining(['b1@example.com', 'b3@example.com']));
    expect(emails).not.toContain('b2@example.com');
  });

  it('in a pipe it never prompts: the missing fields are named (exit 2) and nothing is sent', async () => {
    const before = (await invitations()).length;
    const r = await box.run(['users', 'create', '--email', 'pipe@example.com']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing required flags: --first-name, --last-name, --timezone, --work-hours, --role');
    expect((await invitations()).length).toBe(before);
  });

  it('admin invitations list prints a table with --fields and csv', async () => {
    const csv = await box.run(['admin', 'invitations', 'list', '-o', 'csv', '--fields', 'user_id,email']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe('user_id,email');
    expect(csv.stdout).toContain(',ivy@example.com');
  });
});
