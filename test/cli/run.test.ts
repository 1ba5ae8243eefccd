import { RESOURCE_FIELDS } from '../../src/contract/resource-fields.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE, type Fake, fake, JSON_HEADERS, ORIGIN, page, SECRET, TEXT_HEADERS, USERS, withProfile } from './helpers.js';
import { CUSTOMER, customerBody, USER, userBody } from './update-fixtures.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const api = () => f.agent.get(ORIGIN);
const P = '/api/public/v2.0';

describe('users list', () => {
  it('prints the data array as JSON in a pipe, with the filter as query parameters', async () => {
    f = await withProfile();
    api()
      .intercept({ path: `${P}/users?filter_attribute=email&filter_operator=Contains&filter_value=%40acme.com&order_by=created_at&order_direction=desc`, method: 'GET', headers: { 'x-access-key-id': 'ak_test', 'x-access-key-secret': SECRET } })
      .reply(200, page(USERS), JSON_HEADERS);
    expect(await f.run(['users', 'list', '--filter', 'email~@acme.com', '--sort', '-created_at'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual(USERS);
    expect(f.stderr()).toBe('');
  });

  it('prints a table on a terminal, with a paging note on stderr', async () => {
    f = await withProfile({ tty: true, env: { NO_COLOR: '1' } });
    api().intercept({ path: `${P}/users?page_size=2`, method: 'GET' }).reply(200, page(USERS, { last: 3, total: 6 }), JSON_HEADERS);
    expect(await f.run(['users', 'list', '--page-size', '2'])).toBe(0);
    expect(f.stdout()).toMatch(/│ id │ name\s+│ email/);
    expect(f.stdout()).toContain('Grace Hopper');
    expect(f.stdout()).not.toContain('created_at');
    expect(f.stderr()).toContain('of 6 (page 1 of 3). Use --page 2 or --all for more.');
  });

  it('--all streams every page as ndjson', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/users?page_size=100`, method: 'GET' }).reply(200, page([USERS[0]], { last: 2, next: `${BASE}/users?page_number=2` }), JSON_HEADERS);
    api().intercept({ path: `${P}/users?page_number=2`, method: 'GET' }).reply(200, page([USERS[1]], { current: 2, last: 2 }), JSON_HEADERS);
    expect(await f.run(['users', 'list', '--all', '-o', 'ndjson', '--fields', 'id,email'])).toBe(0);
    expect(f.stdout()).toBe('{"id":1,"email":"ada@acme.com"}\n{"id":2,"email":"grace@acme.com"}\n');
  });

  it('--raw prints the whole envelope', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page(USERS, { total: 2 }), JSON_HEADERS);
    expect(await f.run(['users', 'list', '--raw'])).toBe(0);
    expect(JSON.parse(f.stdout())).toMatchObject({ total: 2, current_page: 1, data: USERS });
  });

  it('a bad filter is exit 2 and sends nothing', async () => {
    f = await withProfile();
    expect(await f.run(['users', 'list', '--filter', 'email'])).toBe(2);
    expect(f.stderr()).toContain("error: cannot read filter 'email'");
    expect(f.stdout()).toBe('');
  });
});

describe('exit codes from API answers', () => {
  it.each([
    [401, 'Invalid or missing access key.', 3],
    [404, 'Resource object does not exist.', 4],
    [409, 'Conflict.', 5],
    [429, 'Too many requests.', 7],
    [500, 'An unexpected error the service.', 1],
  ])('%i %s → exit %i', async (status, message, code) => {
    f = await withProfile();
    api().intercept({ path: `${P}/users/5`, method: 'GET' }).reply(status, message, TEXT_HEADERS).times(status >= 429 ? 5 : 1);
    expect(await f.run(['users', 'get', '5'])).toBe(code);
    // A retried answer (429, 5xx) says how many tries were made.
    expect(f.stderr().split('\n')[0]).toBe(`error: GET /users/5 failed (${status}): ${message}${status >= 429 ? ' (after 5 tries)' : ''}`);
    expect(f.stdout()).toBe('');
  });

  it('network failure → 8', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/users/5`, method: 'GET' }).replyWithError(new Error('ECONNREFUSED')).times(5);
    expect(await f.run(['users', 'get', '5'])).toBe(8);
    expect(f.stderr()).toContain('(after 5 tries)');
  });

  it('validation → 6 with one line per field, and no secret anywhere', async () => {
    f = await withProfile();
    const body = { message: 'The email has already been taken. (and 1 more error)', errors: { email: ['The email has already been taken.'], role: ['The selected role is invalid.'] } };
    api().intercept({ path: `${P}/users/1`, method: 'GET' }).reply(200, { message: 'OK', data: { ...USER, email: 'old@acme.com' } }, JSON_HEADERS);
    api().intercept({ path: `${P}/users/1`, method: 'PATCH', body: JSON.stringify(userBody({ email: 'ada@acme.com', role: 'Boss' })) }).reply(400, body, JSON_HEADERS);
    expect(await f.run(['users', 'update', '1', '--email', 'ada@acme.com', '--role', 'Boss', '--verbose'])).toBe(6);
    expect(f.stderr()).toContain('\nerror: PATCH /users/1 failed (400): The email has already been taken. (and 1 more error)\n  email: The email has already been taken.\n  role: The selected role is invalid.\n');
    expect(f.stderr()).toMatch(/hint: .*'confctl admin roles list' shows them\n$/);
    expect(f.stderr()).toContain('x-access-key-secret: ********');
    expect(f.stderr() + f.stdout()).not.toContain(SECRET);
  });
});

describe('writes', () => {
  it('customers create merges --data @file under field flags and prints the data object', async () => {
    f = await withProfile();
    const file = join(f.configDir, 'body.json');
    writeFileSync(file, JSON.stringify({ first_name: 'X', last_name: 'Lovelace', email: 'ada@example.com' }));
    const created = { id: 7, name: 'Ada Lovelace', email: 'ada@example.com' };
    api()
      .intercept({ path: `${P}/customers`, method: 'POST', body: '{"first_name":"Ada","middle_name":null,"last_name":"Lovelace","email":"ada@example.com","contact_number":null,"address":{}}' })
      .reply(200, { message: 'Customer created.', data: created }, JSON_HEADERS);
    expect(await f.run(['customers', 'create', '--data', `@${file}`, '--first-name', 'Ada'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual(created);
  });

  it('customers update reads --data - from stdin, --clear as null, and sends them with the fetched fields', async () => {
    f = await withProfile({ stdin: '{"address":{"city":"Berlin"}}' });
    api().intercept({ path: `${P}/customers/7`, method: 'GET' }).reply(200, { message: 'OK', data: { ...CUSTOMER, middle_name: 'M', address: null } }, JSON_HEADERS);
    api()
      .intercept({ path: `${P}/customers/7`, method: 'PATCH', body: JSON.stringify(customerBody({ middle_name: null, address: { city: 'Berlin' } })) })
      .reply(200, { message: 'OK', data: { id: 7 } }, JSON_HEADERS);
    expect(await f.run(['customers', 'update', '7', '--data', '-', '--clear', 'middle_name', '-o', 'yaml'])).toBe(0);
    expect(f.stdout()).toBe('id: 7\n');
  });

  it('an update without fields is exit 2', async () => {
    f = await withProfile();
    expect(await f.run(['customers', 'update', '7'])).toBe(2);
    expect(f.stderr()).toContain('error: nothing to update');
  });
});

describe('program', () => {
  it('commander usage errors are exit 2; --help and --version are 0', async () => {
    f = fake();
    expect(await f.run(['users', 'list', '--nope'])).toBe(2);
    expect(f.stderr()).toContain("unknown option '--nope'");
    expect(await f.run(['customers', 'get', '7', '--help'])).toBe(0);
    expect(f.stdout()).toContain('$ confctl customers get 7');
    expect(await f.run(['--version'])).toBe(0);
    expect(await f.run(['nope'])).toBe(2);
  });

  it('without a profile or environment, API commands are exit 2 with a hint', async () => {
    f = fake();
    expect(await f.run(['users', 'get', '1'])).toBe(2);
    expect(f.stderr()).toContain("hint: run 'confctl login'");
  });

  it('CONFCTL_* variables work without a profile, CONFCTL_OUTPUT picks the format', async () => {
    f = fake({ env: { CONFCTL_BASE_URL: BASE, CONFCTL_KEY_ID: 'ak_env', CONFCTL_KEY_SECRET: 'env-secret', CONFCTL_OUTPUT: 'csv' } });
    api().intercept({ path: `${P}/users/1`, method: 'GET', headers: { 'x-access-key-id': 'ak_env' } }).reply(200, { message: 'OK', data: { id: 1, email: 'a@b.c' } }, JSON_HEADERS);
    expect(await f.run(['users', 'get', '1'])).toBe(0);
    // CSV's header is the User schema's: a field the answer lacks is an empty cell.
    const row: Record<string, string> = { id: '1', email: 'a@b.c' };
    expect(f.stdout()).toBe(`${RESOURCE_FIELDS.User.join(',')}\n${RESOURCE_FIELDS.User.map((k) => row[k] ?? '').join(',')}\n`);
  });

  it('an unknown --profile is exit 2', async () => {
    f = await withProfile();
    expect(await f.run(['--profile', 'ghost', 'users', 'get', '1'])).toBe(2);
    expect(f.stderr()).toContain("no profile named 'ghost'");
  });
});
