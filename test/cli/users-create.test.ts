import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OFFICE_HOURS, userCreateBody } from '../../src/cli/commands/users/create.js';
import { BASE, type Fake, JSON_HEADERS, ORIGIN, withProfile } from './helpers.js';
import { scripted } from './scripted-prompter.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const P = '/api/public/v2.0';
const KEYS = `-H 'X-Access-Key-Id: ak_test' -H 'X-Access-Key-Secret: ****' -H 'Content-Type: application/json'`;
const NO_HOURS = { sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
const FLAGS = ['--first-name', 'Grace', '--last-name', 'Hopper', '--email', 'grace@example.com', '--timezone', 'UTC', '--role', 'Member', '--work-hours', JSON.stringify(NO_HOURS)];
const COMPLETE = { department_id: null, first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', timezone: 'UTC', work_hours: NO_HOURS, role: 'Member', activate: false, is_silent: false };

/** Stubs POST /users `times` times, answering each body as the created user; returns the bodies sent. */
function stubCreate(times = 1, status = 200) {
  const sent: Record<string, unknown>[] = [];
  f.agent
    .get(ORIGIN)
    .intercept({ path: `${P}/users`, method: 'POST' })
    .reply((req) => {
      const body = JSON.parse(String(req.body));
      sent.push(body);
      if (status !== 200) return { statusCode: status, data: 'Access denied.', responseOptions: { headers: { 'content-type': 'text/plain' } } };
      return { statusCode: 200, data: { message: 'Success.', data: { id: sent.length, ...body, status: body.activate ? 1 : 0 } }, responseOptions: JSON_HEADERS };
    })
    .times(times);
  return sent;
}

describe('the complete body', () => {
  it('has every key; department_id null and the switches false unless given; other keys dropped; CSV text typed', () => {
    expect(userCreateBody({ first_name: 'A', id: 4, status: 1, name: 'A B' })).toEqual({
      department_id: null, first_name: 'A', last_name: null, email: null, timezone: null, work_hours: null, role: null, activate: false, is_silent: false,
    });
    expect(userCreateBody({ department_id: '3', work_hours: JSON.stringify(NO_HOURS), activate: 'true', is_silent: 'false' })).toMatchObject({
      department_id: 3, work_hours: NO_HOURS, activate: true, is_silent: false,
    });
    expect(userCreateBody({ department_id: 'x', work_hours: '{bad', activate: 'yes' })).toMatchObject({ department_id: 'x', work_hours: '{bad', activate: 'yes' });
    expect(userCreateBody({ activate: false }, { activate: true, silent: true })).toMatchObject({ activate: true, is_silent: true });
  });
});

describe('confctl users create', () => {
  it('sends the complete body from flags and prints the created user', async () => {
    f = await withProfile();
    const sent = stubCreate();
    expect(await f.run(['users', 'create', ...FLAGS, '--department-id', '2', '-o', 'json'])).toBe(0);
    expect(sent).toEqual([{ ...COMPLETE, department_id: 2 }]);
    expect(JSON.parse(f.stdout())).toMatchObject({ id: 1, email: 'grace@example.com', status: 0 });
  });

  it('--data gives the body, flags override its keys; --activate --silent set both switches', async () => {
    f = await withProfile();
    const sent = stubCreate();
    const data = { ...COMPLETE, first_name: 'Old', department_id: 5, activate: false };
    expect(await f.run(['users', 'create', '--data', JSON.stringify(data), '--first-name', 'New', '--activate', '--silent', '-o', 'json'])).toBe(0);
    expect(sent).toEqual([{ ...COMPLETE, first_name: 'New', department_id: 5, activate: true, is_silent: true }]);
    expect(JSON.parse(f.stdout()).status).toBe(1);
  });

  it('--silent without --activate is exit 2 before any request', async () => {
    f = await withProfile();
    expect(await f.run(['users', 'create', ...FLAGS, '--silent'])).toBe(2);
    expect(f.stderr()).toContain('error: --silent needs --activate');
  });

  it('in a pipe, missing required fields are named (exit 2) and nothing is sent or asked', async () => {
    const { prompter, asked } = scripted({});
    f = await withProfile({ prompter });
    expect(await f.run(['users', 'create', '--first-name', 'Grace', '--email', 'g@example.com'])).toBe(2);
    expect(f.stderr()).toContain('error: missing required flags: --last-name, --timezone, --work-hours, --role');
    expect(asked).toEqual([]);
  });

  it('--data - holds stdin, so even on a terminal nothing is asked', async () => {
    const { prompter, asked } = scripted({});
    f = await withProfile({ tty: true, prompter, stdin: JSON.stringify({ first_name: 'G' }) });
    expect(await f.run(['users', 'create', '--data', '-'])).toBe(2);
    expect(f.stderr()).toContain('missing required flags: --last-name, --email, --timezone, --work-hours, --role');
    expect(asked).toEqual([]);
  });

  it('on a terminal asks for each missing field in order, the time zone defaulting to the local one', async () => {
    const { prompter, asked } = scripted({ 'Last name': 'Hopper', 'E-mail': 'grace@example.com', 'Time zone': '', Role: 'Member', 'Work hours': OFFICE_HOURS });
    f = await withProfile({ tty: true, prompter, env: { NO_COLOR: '1' } });
    const sent = stubCreate();
    expect(await f.run(['users', 'create', '--first-name', 'Grace', '-o', 'json'])).toBe(0);
    const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(asked.map((q) => [q.kind, q.message.split(' (')[0]])).toEqual([
      ['input', 'Last name'], ['input', 'E-mail'], ['input', 'Time zone'], ['input', 'Role'], ['select', 'Work hours'],
    ]);
    expect(asked[2].default).toBe(local);
    expect(sent).toEqual([{ ...COMPLETE, timezone: local, work_hours: OFFICE_HOURS }]);
    expect(OFFICE_HOURS.monday).toEqual([{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 0, second: 0 } }]);
    expect(OFFICE_HOURS.sunday).toEqual([]);
  });

  it('an empty answer for a required field is exit 2 naming its flag', async () => {
    const { prompter } = scripted({ 'Last name': '  ' });
    f = await withProfile({ tty: true, prompter });
    expect(await f.run(['users', 'create', '--first-name', 'Grace'])).toBe(2);
    expect(f.stderr()).toContain('error: last name is required');
    expect(f.stderr()).toContain('--last-name');
  });

  it('--dry-run prints the curl line of the complete body and sends nothing', async () => {
    f = await withProfile();
    expect(await f.run(['users', 'create', ...FLAGS, '--activate', '--dry-run'])).toBe(0);
    expect(f.stdout()).toBe(`curl -X POST ${BASE}/users ${KEYS} --data-raw '${JSON.stringify({ ...COMPLETE, activate: true })}'\n`);
  });

  it('a refused activation (401) is exit 3', async () => {
    f = await withProfile();
    stubCreate(1, 401);
    expect(await f.run(['users', 'create', ...FLAGS, '--activate'])).toBe(3);
    expect(f.stderr()).toContain('Access denied.');
  });
});

describe('confctl users create --from-file', () => {
  it('sends one complete body per record (CSV typed), switches applied to each; summary on stderr', async () => {
    f = await withProfile();
    const sent = stubCreate(2);
    const csv = join(f.configDir, 'users.csv');
    writeFileSync(csv, `first_name,last_name,email,timezone,role,department_id,work_hours\nAda,L,ada@example.com,UTC,Member,3,"${JSON.stringify(NO_HOURS).replace(/"/g, '""')}"\nBob,B,bob@example.com,UTC,Admin,,"${JSON.stringify(NO_HOURS).replace(/"/g, '""')}"\n`);
    expect(await f.run(['users', 'create', '--from-file', csv, '--activate', '--concurrency', '1', '-o', 'json'])).toBe(0);
    expect(sent).toEqual([
      { ...COMPLETE, first_name: 'Ada', last_name: 'L', email: 'ada@example.com', department_id: 3, activate: true },
      { ...COMPLETE, first_name: 'Bob', last_name: 'B', email: 'bob@example.com', role: 'Admin', activate: true },
    ]);
    expect(f.stderr()).toBe('created 2, failed 0 of 2\n');
  });

  it('does not combine with field flags; --silent alone is refused there too', async () => {
    f = await withProfile();
    expect(await f.run(['users', 'create', '--from-file', 'x.json', '--role', 'Member'])).toBe(2);
    expect(f.stderr()).toContain('--from-file does not go with --role');
    expect(await f.run(['users', 'create', '--from-file', 'x.json', '--silent'])).toBe(2);
    expect(f.stderr()).toContain('--silent needs --activate');
  });
});
