import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Fake, JSON_HEADERS, ORIGIN, TEXT_HEADERS, withProfile } from './helpers.js';
import { CONFERENCE, USER, userBody } from './update-fixtures.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const P = '/api/public/v2.0';
const api = () => f.agent.get(ORIGIN);

const getUser = (user: Record<string, unknown>) => api().intercept({ path: `${P}/users/1`, method: 'GET' }).reply(200, { message: 'OK', data: user }, JSON_HEADERS);
const patchUser = (body: Record<string, unknown>) =>
  api().intercept({ path: `${P}/users/1`, method: 'PATCH', body: JSON.stringify(body) }).reply(200, { message: 'OK', data: { ...USER, ...body } }, JSON_HEADERS);
const getConference = () => api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(200, { message: 'OK', data: CONFERENCE }, JSON_HEADERS);
const patchConference = (body: Record<string, unknown>) =>
  api().intercept({ path: `${P}/online_conferences/3`, method: 'PATCH', body: JSON.stringify(body) }).reply(200, { message: 'OK', data: { ...CONFERENCE, ...body } }, JSON_HEADERS);

/** A non-interactive editor: a node script that writes `replacement(json)` back. */
function editor(replacement: string): string {
  const script = join(f.configDir, 'editor.cjs');
  writeFileSync(
    script,
    `const fs = require('fs'); const file = process.argv[2];
     fs.writeFileSync(${JSON.stringify(join(f.configDir, 'edited-file'))}, file);
     fs.writeFileSync(file, (${replacement})(JSON.parse(fs.readFileSync(file, 'utf8'))));`,
  );
  return `node ${script}`;
}

describe('users update sends all seven writable fields', () => {
  it('a key removed in the editor keeps its fetched value', async () => {
    f = await withProfile();
    getUser(USER);
    patchUser(userBody({ role: 'Manager' }));
    f.ctx.env = { ...f.ctx.env, EDITOR: editor(`(j) => { delete j.timezone; delete j.work_hours; return JSON.stringify({ ...j, role: 'Manager' }); }`) };
    expect(await f.run(['users', 'update', '1', '--edit'])).toBe(0);
  });

  it('department_id null is sent as is', async () => {
    f = await withProfile();
    getUser({ ...USER, department_id: null });
    patchUser(userBody({ department_id: null, role: 'Manager' }));
    expect(await f.run(['users', 'update', '1', '--role', 'Manager'])).toBe(0);
    expect(JSON.parse(f.stdout())).toMatchObject({ role: 'Manager', department_id: null });
  });

  it.each([
    ['timezone', '--timezone'],
    ['work_hours', '--work-hours'],
    ['role', '--role'],
  ])('a fetched user whose %s is null: exit 2 before any PATCH, naming the field and %s', async (field, flag) => {
    f = await withProfile(); // no PATCH interceptor: a PATCH would fail the run with exit 8
    getUser({ ...USER, [field]: null });
    expect(await f.run(['users', 'update', '1', '--email', 'new@acme.com'])).toBe(2);
    expect(f.stderr()).toBe(
      `error: cannot update user 1 without ${field}: an update sends every field, and the service requires it; nothing sent\nhint: give ${flag}\n`,
    );
    expect(f.stdout()).toBe('');
  });

  it('several null fields are named together; supplying them sends the update', async () => {
    f = await withProfile();
    getUser({ ...USER, timezone: null, work_hours: null });
    expect(await f.run(['users', 'update', '1', '--role', 'Member'])).toBe(2);
    expect(f.stderr()).toContain('without timezone and work_hours: an update sends every field, and the service requires them');
    expect(f.stderr()).toContain('hint: give --timezone and --work-hours\n');
    getUser({ ...USER, timezone: null, work_hours: null });
    patchUser(userBody({ timezone: 'Europe/Paris', role: 'Member', work_hours: USER.work_hours }));
    expect(await f.run(['users', 'update', '1', '--role', 'Member', '--timezone', 'Europe/Paris', '--work-hours', JSON.stringify(USER.work_hours)])).toBe(0);
  });

  it('--clear of a field the service requires is refused the same way', async () => {
    f = await withProfile();
    getUser(USER);
    expect(await f.run(['users', 'update', '1', '--clear', 'timezone'])).toBe(2);
    expect(f.stderr()).toContain('error: cannot update user 1 without timezone');
  });

  it('nothing changes: exit 0 even when a field is null (nothing is sent)', async () => {
    f = await withProfile();
    getUser({ ...USER, timezone: null });
    expect(await f.run(['users', 'update', '1', '--role', USER.role])).toBe(0);
    expect(f.stderr()).toBe('nothing to change\n');
  });

  it('an edit that changes something but leaves a required field null keeps the file and sends nothing', async () => {
    f = await withProfile();
    getUser({ ...USER, role: null });
    f.ctx.env = { ...f.ctx.env, EDITOR: editor(`(j) => JSON.stringify({ ...j, first_name: 'Augusta' })`) };
    expect(await f.run(['users', 'update', '1', '--edit'])).toBe(2);
    const file = readFileSync(join(f.configDir, 'edited-file'), 'utf8');
    expect(f.stderr()).toContain('error: cannot update user 1 without role');
    expect(f.stderr()).toContain(`hint: your edit is kept in ${file}`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ first_name: 'Augusta', role: null });
    rmSync(dirname(file), { recursive: true });
  });

  it('a key that is not a writable field is exit 2 before any request (--data and the editor)', async () => {
    f = await withProfile();
    expect(await f.run(['users', 'update', '1', '--data', '{"status":0}'])).toBe(2);
    expect(f.stderr()).toContain("error: --data: 'status' is not a writable field of a user (writable: first_name, last_name, email, department_id, timezone, role, work_hours)");
    getUser(USER);
    f.ctx.env = { ...f.ctx.env, EDITOR: editor(`(j) => JSON.stringify({ ...j, nickname: 'Ada' })`) };
    expect(await f.run(['users', 'update', '1', '--edit'])).toBe(2);
    expect(f.stderr()).toContain("error: the edited JSON: 'nickname' is not a writable field of a user");
    const kept = readFileSync(join(f.configDir, 'edited-file'), 'utf8');
    expect(existsSync(kept)).toBe(true);
    rmSync(dirname(kept), { recursive: true });
  });

  it('the read-modify-write window: a field changed elsewhere after the read is sent back as it was read', async () => {
    f = await withProfile();
    getUser(USER); // what the read saw; someone else then changes the e-mail on the server
    let sentEmail: unknown;
    api()
      .intercept({ path: `${P}/users/1`, method: 'PATCH' })
      .reply((req) => {
        sentEmail = JSON.parse(String(req.body)).email;
        return { statusCode: 200, data: { message: 'OK', data: USER }, responseOptions: JSON_HEADERS };
      });
    expect(await f.run(['users', 'update', '1', '--role', 'Member'])).toBe(0);
    expect(sentEmail).toBe(USER.email);
  });

  it('every field given: sent without reading the user', async () => {
    f = await withProfile(); // no GET interceptor
    const body = userBody({ role: 'Member' });
    patchUser(body);
    expect(await f.run(['users', 'update', '1', '--data', JSON.stringify(body)])).toBe(0);
  });
});

describe('conferences update sends title and is_public', () => {
  it('one flag: reads the conference and sends the other field as it is', async () => {
    f = await withProfile();
    getConference();
    patchConference({ title: 'Moved', is_public: false });
    expect(await f.run(['conferences', 'update', '3', '--title', 'Moved'])).toBe(0);
    expect(JSON.parse(f.stdout())).toMatchObject({ title: 'Moved', is_public: false });
  });

  it('both flags: sent without reading (a key without read permission works)', async () => {
    f = await withProfile(); // no GET interceptor: a read would fail the run
    patchConference({ title: 'Moved', is_public: true });
    expect(await f.run(['conferences', 'update', '3', '--title', 'Moved', '--public'])).toBe(0);
  });

  it('a 401 on the read says that read permission is needed, and how to do without', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(401, 'Access denied.', TEXT_HEADERS);
    expect(await f.run(['conferences', 'update', '3', '--public'])).toBe(3);
    expect(f.stderr()).toBe(
      'error: an update reads the conference first, to send every writable field, and reading it failed (401): Access denied.\n' +
        'hint: the access key needs online_conferences.read.* as well; or give every field (--title and --public or --private) to update without reading\n',
    );
  });

  it('nothing differs: no PATCH, nothing to change', async () => {
    f = await withProfile();
    getConference();
    expect(await f.run(['conferences', 'update', '3', '--private', '--fields', 'id,title'])).toBe(0);
    expect(f.stderr()).toBe('nothing to change\n');
    expect(JSON.parse(f.stdout())).toEqual({ id: 3, title: CONFERENCE.title });
  });

  it('--edit opens title and is_public and sends both', async () => {
    f = await withProfile();
    getConference();
    patchConference({ title: 'Weekly sync', is_public: true });
    f.ctx.env = { ...f.ctx.env, EDITOR: editor(`(j) => JSON.stringify({ ...j, is_public: true })`) };
    expect(await f.run(['conferences', 'update', '3', '--edit'])).toBe(0);
  });
});
