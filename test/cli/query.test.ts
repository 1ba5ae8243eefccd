import { describe, expect, it } from 'vitest';
import { type Fake, JSON_HEADERS, ORIGIN, page, USERS, withProfile } from './helpers.js';

const P = '/api/public/v2.0';
const api = (f: Fake) => f.agent.get(ORIGIN);

/** `--query`: JMESPath over what would print as JSON (after --fields and --raw). */
describe('--query', () => {
  it('list: applied to the data array; the result prints as json', async () => {
    const f = await withProfile();
    api(f).intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page(USERS), JSON_HEADERS);
    expect(await f.run(['users', 'list', '--query', '[?status==`1`].email'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual(['ada@acme.com']);
  });

  it('runs after --fields, and prints yaml with -o yaml', async () => {
    const f = await withProfile();
    api(f).intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page(USERS), JSON_HEADERS);
    expect(await f.run(['users', 'list', '--fields', 'id,email', '--query', '[0]', '-o', 'yaml'])).toBe(0);
    expect(f.stdout()).toBe('id: 1\nemail: ada@acme.com\n');
  });

  it('get: applied to the resource; with --raw to the envelope', async () => {
    const f = await withProfile();
    api(f).intercept({ path: `${P}/users/1`, method: 'GET' }).reply(200, { message: 'OK', data: USERS[0] }, JSON_HEADERS).times(2);
    expect(await f.run(['users', 'get', '1', '--query', 'email'])).toBe(0);
    expect(f.stdout()).toBe('"ada@acme.com"\n');
    const g = await withProfile();
    api(g).intercept({ path: `${P}/users/1`, method: 'GET' }).reply(200, { message: 'OK', data: USERS[0] }, JSON_HEADERS);
    expect(await g.run(['users', 'get', '1', '--raw', '--query', '{m: message, id: data.id}'])).toBe(0);
    expect(JSON.parse(g.stdout())).toEqual({ m: 'OK', id: 1 });
  });

  it('--all: the whole result is collected, then queried once (also --raw: the array of envelopes)', async () => {
    const f = await withProfile();
    api(f).intercept({ path: `${P}/users?page_size=100`, method: 'GET' }).reply(200, page([USERS[0]], { last: 2, total: 2, next: `${ORIGIN}${P}/users?page_number=2` }), JSON_HEADERS);
    api(f).intercept({ path: `${P}/users?page_number=2`, method: 'GET' }).reply(200, page([USERS[1]], { current: 2, last: 2, total: 2 }), JSON_HEADERS);
    expect(await f.run(['users', 'list', '--all', '--query', 'length(@)'])).toBe(0);
    expect(f.stdout()).toBe('2\n');
    const g = await withProfile();
    api(g).intercept({ path: `${P}/users?page_size=100`, method: 'GET' }).reply(200, page([USERS[0]], { last: 2, total: 2, next: `${ORIGIN}${P}/users?page_number=2` }), JSON_HEADERS);
    api(g).intercept({ path: `${P}/users?page_number=2`, method: 'GET' }).reply(200, page([USERS[1]], { current: 2, last: 2, total: 2 }), JSON_HEADERS);
    expect(await g.run(['users', 'list', '--all', '--raw', '--query', '[].current_page'])).toBe(0);
    expect(JSON.parse(g.stdout())).toEqual([1, 2]);
  });

  it('on a local command too (profile list), even when stdout is a terminal', async () => {
    const f = await withProfile({ tty: true });
    expect(await f.run(['profile', 'list', '--query', '[].name'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual(['acme']);
  });

  it('an invalid expression is exit 2 with the parser message, before any request', async () => {
    const f = await withProfile();
    expect(await f.run(['users', 'list', '--query', '[?status=='])).toBe(2);
    expect(f.stderr()).toMatch(/error: invalid --query '\[\?status==': Syntax error/);
    expect(f.stdout()).toBe('');
    f.agent.assertNoPendingInterceptors();
  });

  it.each(['table', 'csv', 'ndjson'])('-o %s with --query is a usage error, before any request', async (format) => {
    const f = await withProfile();
    expect(await f.run(['users', 'list', '-o', format, '--query', '[].id'])).toBe(2);
    expect(f.stderr()).toContain(`--query prints json or yaml, not ${format}`);
  });

  it('a type error while evaluating is a usage error naming the query', async () => {
    const f = await withProfile();
    api(f).intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page(USERS), JSON_HEADERS);
    expect(await f.run(['users', 'list', '--query', 'length(`1`)'])).toBe(2);
    expect(f.stderr()).toMatch(/--query 'length\(`1`\)' failed: .*length\(\)/);
  });

  it('confctl api: applied to the JSON body (and to --paginate\'s array); an error body prints as it came', async () => {
    await apiQueries(withProfile);
  });
});

/** `confctl api --query` cases; `withProfile` gives fakes whose profile points at the file's scripted server. */
async function apiQueries(withProfile: () => Promise<Fake>) {
  const f = await withProfile();
  api(f).intercept({ path: `${P}/users?page_size=2`, method: 'GET' }).reply(200, page(USERS), JSON_HEADERS);
  expect(await f.run(['api', '/users?page_size=2', '--query', 'data[].id'])).toBe(0);
  expect(JSON.parse(f.stdout())).toEqual([1, 2]);
  const g = await withProfile();
  api(g).intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page(USERS), JSON_HEADERS);
  expect(await g.run(['api', '--paginate', '/users', '--query', '[].email'])).toBe(0);
  expect(JSON.parse(g.stdout())).toEqual(['ada@acme.com', 'grace@acme.com']);
  const h = await withProfile();
  api(h).intercept({ path: `${P}/users/9`, method: 'GET' }).reply(404, 'Resource object does not exist.', { headers: { 'content-type': 'text/plain' } });
  expect(await h.run(['api', '/users/9', '--query', 'data.id'])).toBe(4);
  expect(h.stdout()).toBe('Resource object does not exist.\n');
  const i = await withProfile();
  expect(await i.run(['api', '-i', '/users', '--query', 'data'])).toBe(2);
}
