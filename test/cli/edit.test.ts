import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changedFields, sameJson } from '../../src/cli/edit/changes.js';
import { type Fake, JSON_HEADERS, ORIGIN, withProfile } from './helpers.js';
import { ADDRESS, CUSTOMER, customerBody, NINE_TO_FIVE as HOURS, USER, userBody, WORK_HOURS } from './update-fixtures.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const P = '/api/public/v2.0';

const getCustomer = () => f.agent.get(ORIGIN).intercept({ path: `${P}/customers/7`, method: 'GET' }).reply(200, { message: 'OK', data: CUSTOMER }, JSON_HEADERS);
/** A PATCH of customer 7 whose body must be the complete body with `changes`. */
const patchCustomer = (changes: Record<string, unknown>) =>
  f.agent
    .get(ORIGIN)
    .intercept({ path: `${P}/customers/7`, method: 'PATCH', body: JSON.stringify(customerBody(changes)) })
    .reply(200, { message: 'OK', data: { ...CUSTOMER, patched: true } }, JSON_HEADERS);
const getUser = (user: Record<string, unknown> = USER, times = 1) =>
  f.agent.get(ORIGIN).intercept({ path: `${P}/users/1`, method: 'GET' }).reply(200, { message: 'OK', data: user }, JSON_HEADERS).times(times);
const patchUser = (body: Record<string, unknown>) =>
  f.agent.get(ORIGIN).intercept({ path: `${P}/users/1`, method: 'PATCH', body: JSON.stringify(body) }).reply(200, { message: 'OK', data: USER }, JSON_HEADERS);

/** A fake editor: a node script that records what it was given and writes `replacement(json)` back. */
function editor(name: string, replacement: string): string {
  const script = join(f.configDir, `${name}.cjs`);
  writeFileSync(
    script,
    `const fs = require('fs'); const file = process.argv[2];
     fs.writeFileSync(${JSON.stringify(join(f.configDir, `${name}.seen`))}, JSON.stringify({ file, mode: fs.statSync(file).mode & 0o777, text: fs.readFileSync(file, 'utf8') }));
     const json = JSON.parse(fs.readFileSync(file, 'utf8'));
     fs.writeFileSync(file, (${replacement})(json));`,
  );
  return `node ${script}`;
}
const seen = (name: string) => JSON.parse(readFileSync(join(f.configDir, `${name}.seen`), 'utf8'));

describe('comparison', () => {
  it('deep, key order ignored, absent keys read as null (a sent object replaces the stored one)', () => {
    expect(sameJson({ a: 1, b: { c: [1, { d: 2 }] } }, { b: { c: [1, { d: 2 }] }, a: 1 })).toBe(true);
    expect(sameJson(ADDRESS, { city: 'London', country: 'UK' })).toBe(true);
    expect(sameJson(ADDRESS, { city: 'London' })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson(1, '1')).toBe(false);
    expect(changedFields(CUSTOMER, { first_name: 'Ada', middle_name: null, email: 'new@x.io', address: { country: 'UK', city: 'London' } })).toEqual({ email: 'new@x.io' });
  });
});

describe('update sends the complete writable body when something changes', () => {
  it('customers: the fetched fields with the changes merged in', async () => {
    f = await withProfile();
    getCustomer();
    // The given values are sent as given (the partial address equals the stored one; it is sent as written).
    patchCustomer({ last_name: 'Byron', address: { country: 'UK', city: 'London' } });
    const args = ['customers', 'update', '7', '--first-name', 'Ada', '--last-name', 'Byron', '--address', '{"country":"UK","city":"London"}', '--clear', 'middle_name'];
    expect(await f.run(args)).toBe(0);
    expect(JSON.parse(f.stdout())).toMatchObject({ patched: true });
  });

  it('a partial address that differs is sent whole (its missing parts are cleared by the server)', async () => {
    f = await withProfile();
    getCustomer();
    patchCustomer({ address: { city: 'Paris' } });
    expect(await f.run(['customers', 'update', '7', '--address', '{"city":"Paris"}'])).toBe(0);
  });

  it('a customer without an address sends the address as {} (an object, as the hosted service types it)', async () => {
    f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/customers/7`, method: 'GET' }).reply(200, { message: 'OK', data: { ...CUSTOMER, address: null } }, JSON_HEADERS);
    patchCustomer({ email: 'new@x.io', address: {} });
    expect(await f.run(['customers', 'update', '7', '--email', 'new@x.io'])).toBe(0);
  });

  it('nothing differs: no PATCH, the stored resource printed, "nothing to change", exit 0', async () => {
    f = await withProfile();
    getCustomer();
    expect(await f.run(['customers', 'update', '7', '--email', 'ada@example.com', '--fields', 'id,email'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual({ id: 7, email: 'ada@example.com' });
    expect(f.stderr()).toBe('nothing to change\n');
  });

  it('users: work hours compare deeply (key order ignored)', async () => {
    f = await withProfile();
    getUser(USER, 2);
    const same = { ...WORK_HOURS, monday: [{ end: { second: 0, minute: 0, hour: 17 }, start: { hour: 9, second: 0, minute: 0 } }] };
    expect(await f.run(['users', 'update', '1', '--work-hours', JSON.stringify(same)])).toBe(0);
    expect(f.stderr()).toBe('nothing to change\n');
    const later = { ...WORK_HOURS, monday: [{ ...HOURS, end: { hour: 18, minute: 0, second: 0 } }] };
    patchUser(userBody({ work_hours: later }));
    expect(await f.run(['users', 'update', '1', '--work-hours', JSON.stringify(later), '--timezone', 'Europe/London'])).toBe(0);
  });
});

describe('JSON field flags read @FILE (docs/users-customers-conferences.md: --work-hours @hours.json)', () => {
  it('users --work-hours @FILE and customers --address @FILE send the file\'s JSON', async () => {
    f = await withProfile();
    const later = { ...WORK_HOURS, monday: [{ ...HOURS, end: { hour: 18, minute: 0, second: 0 } }] };
    const hours = join(f.configDir, 'hours.json');
    writeFileSync(hours, JSON.stringify(later));
    getUser();
    patchUser(userBody({ work_hours: later }));
    expect(await f.run(['users', 'update', '1', '--work-hours', `@${hours}`])).toBe(0);
    const address = join(f.configDir, 'address.json');
    writeFileSync(address, '{"city":"Paris"}');
    getCustomer();
    patchCustomer({ address: { city: 'Paris' } });
    expect(await f.run(['customers', 'update', '7', '--address', `@${address}`])).toBe(0);
  });

  it('a missing file is exit 2 naming the flag and the file, before any request', async () => {
    f = await withProfile();
    expect(await f.run(['users', 'update', '1', '--work-hours', '@/nonexistent/hours.json'])).toBe(2);
    expect(f.stderr()).toBe('error: cannot read --work-hours file /nonexistent/hours.json: ENOENT\n');
  });
});

describe('update --edit', () => {
  it('opens the writable fields (flags applied) in $EDITOR, mode 0600, and sends the whole body with the edits', async () => {
    f = await withProfile();
    getCustomer();
    patchCustomer({ last_name: 'Byron', email: 'ada@byron.io', address: { ...ADDRESS, city: 'Paris' } });
    const env = { EDITOR: editor('ed', `(j) => JSON.stringify({ ...j, email: 'ada@byron.io', address: { ...j.address, city: 'Paris' } })`) };
    f.ctx.env = { ...f.ctx.env, ...env };
    expect(await f.run(['customers', 'update', '7', '--edit', '--last-name', 'Byron'])).toBe(0);
    const given = seen('ed');
    expect(given.mode).toBe(0o600);
    expect(JSON.parse(given.text)).toEqual({ first_name: 'Ada', middle_name: null, last_name: 'Byron', email: 'ada@example.com', contact_number: null, address: ADDRESS });
    expect(given.text).toContain('\n  "first_name": "Ada",\n');
    expect(existsSync(given.file)).toBe(false);
  });

  it('$VISUAL wins over $EDITOR; an unchanged file sends nothing', async () => {
    f = await withProfile();
    getCustomer();
    f.ctx.env = { ...f.ctx.env, VISUAL: editor('vis', '(j) => JSON.stringify(j)'), EDITOR: 'false' };
    expect(await f.run(['customers', 'update', '7', '--edit'])).toBe(0);
    expect(f.stderr()).toBe('nothing to change\n');
    expect(seen('vis').file).toMatch(/customer-7\.json$/);
  });

  it('invalid JSON after editing: exit 2, nothing sent, the edited file kept and named', async () => {
    f = await withProfile();
    getCustomer();
    f.ctx.env = { ...f.ctx.env, EDITOR: editor('bad', `(j) => JSON.stringify(j).replace('"Ada"', '"Ada",,')`) };
    expect(await f.run(['customers', 'update', '7', '--edit'])).toBe(2);
    const { file } = seen('bad');
    expect(f.stderr()).toContain('error: the edited JSON is not valid');
    expect(f.stderr()).toContain(`hint: your edit is kept in ${file}`);
    expect(readFileSync(file, 'utf8')).toContain('"Ada",,');
    expect(f.stdout()).toBe('');
    rmSync(dirname(file), { recursive: true, force: true });
  });

  it('a failing editor sends nothing (exit 1)', async () => {
    f = await withProfile();
    getCustomer();
    f.ctx.env = { ...f.ctx.env, EDITOR: 'exit 3;' };
    expect(await f.run(['customers', 'update', '7', '--edit'])).toBe(1);
    expect(f.stderr()).toContain('exited with code 3; nothing sent');
    const kept = /the file is kept: (\S+)/.exec(f.stderr());
    expect(kept).not.toBeNull();
    rmSync(dirname(kept![1]), { recursive: true, force: true });
  });

  it('without a terminal and without $VISUAL/$EDITOR: exit 2 before any request', async () => {
    f = await withProfile(); // no interceptor: a request would fail with exit 8
    expect(await f.run(['customers', 'update', '7', '--edit'])).toBe(2);
    expect(f.stderr()).toContain('--edit needs a terminal on stdin and stdout');
  });
});
