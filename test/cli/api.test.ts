import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Fake, JSON_HEADERS, ORIGIN, page, SECRET, TEXT_HEADERS, USERS, withProfile } from './helpers.js';

// `confctl api` sends to the profile's base URL: the file's scripted server (helpers.ts).
let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const P = '/api/public/v2.0';
async function setup(opts: Parameters<typeof withProfile>[0] = {}) {
  f = await withProfile(opts);
  return f.agent.get(ORIGIN);
}

describe('confctl api', () => {
  it('GETs a path under the base URL with the key headers and pretty-prints JSON', async () => {
    const api = await setup();
    api
      .intercept({ path: `${P}/users?page_size=5`, method: 'GET', headers: { 'x-access-key-id': 'ak_test', 'x-access-key-secret': SECRET } })
      .reply(200, JSON.stringify(page(USERS)), JSON_HEADERS);
    expect(await f.run(['api', '/users?page_size=5'])).toBe(0);
    expect(f.stdout()).toBe(`${JSON.stringify(page(USERS), null, 2)}\n`);
  });

  it('GET fields go to the query string, typed or raw', async () => {
    const api = await setup();
    api.intercept({ path: `${P}/customers?page_size=2&filter_attribute=email&with_trashed=true&filter_value=007`, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
    const args = ['api', 'get', '/customers?page_size=2', '-F', 'filter_attribute=email', '-F', 'with_trashed=true', '-f', 'filter_value=007'];
    expect(await f.run(args)).toBe(0);
  });

  it('other methods send the fields as a typed JSON body, nested keys and @file included', async () => {
    const api = await setup();
    const note = join(f.configDir, 'note.txt');
    writeFileSync(note, 'from a file');
    // Typed fields first, then raw ones (commander keeps each flag's values apart).
    const body = { first_name: 'Ada', count: 3, ok: false, none: null, address: { city: 'London', line_1: 'from a file' }, tags: ['a', 'b'], zip: '00123' };
    api
      .intercept({ path: `${P}/customers`, method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
      .reply(200, { message: 'OK', data: { id: 9 } }, JSON_HEADERS);
    const args = ['api', 'POST', '/customers', '-F', 'first_name=Ada', '-f', 'zip=00123', '-F', 'count=3', '-F', 'ok=false', '-F', 'none=null'];
    args.push('-F', 'address[city]=London', '-F', `address[line_1]=@${note}`, '-F', 'tags[]=a', '-F', 'tags[]=b');
    expect(await f.run(args)).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual({ message: 'OK', data: { id: 9 } });
  });

  it('--data takes JSON text or stdin and sends it as given; --header adds headers', async () => {
    const api = await setup({ stdin: '{"title":"piped"}' });
    api.intercept({ path: `${P}/online_conferences/3`, method: 'PATCH', body: '{"title":"piped"}', headers: { 'x-request-id': 'mine' } }).reply(200, { data: { id: 3 } }, JSON_HEADERS);
    expect(await f.run(['api', 'PATCH', '/online_conferences/3', '--data', '-', '-H', 'X-Request-ID: mine'])).toBe(0);
  });

  it('-i prints the status line and headers first; plain text prints as is', async () => {
    const api = await setup();
    api.intercept({ path: `${P}/openapi.json`, method: 'GET' }).reply(200, 'hello', { headers: { 'content-type': 'text/plain', 'x-process-id': 'p1' } });
    expect(await f.run(['api', '-i', '/openapi.json'])).toBe(0);
    expect(f.stdout()).toBe('HTTP/1.1 200 OK\ncontent-type: text/plain\nx-process-id: p1\n\nhello\n');
  });

  it.each([
    [401, 'Access denied.', 3],
    [404, 'Resource object does not exist.', 4],
    [409, 'Cannot modify an online conference that has started.', 5],
    [500, 'An unexpected error the service.', 1],
  ])('a %i answer (%s) prints its body on stdout and exits %i', async (status, text, code) => {
    const api = await setup();
    api.intercept({ path: `${P}/online_conferences/1`, method: 'PATCH' }).reply(status, text, TEXT_HEADERS);
    expect(await f.run(['api', 'PATCH', '/online_conferences/1', '-F', 'title=x'])).toBe(code);
    expect(f.stdout()).toBe(`${text}\n`);
    expect(f.stderr()).toContain(`error: PATCH /api/public/v2.0/online_conferences/1 answered ${status}`);
  });

  it('a 400 prints the validation JSON and exits 6; 429 is retried after Retry-After, then exit 7', async () => {
    const api = await setup();
    const invalid = { message: 'The email field is required.', errors: { email: ['The email field is required.'] } };
    api.intercept({ path: `${P}/customers`, method: 'POST' }).reply(400, invalid, JSON_HEADERS);
    expect(await f.run(['api', 'POST', '/customers', '--data', '{}'])).toBe(6);
    expect(JSON.parse(f.stdout())).toEqual(invalid);
    api.intercept({ path: `${P}/users`, method: 'GET' }).reply(429, 'Too many requests.', { headers: { 'retry-after': '0' } }).times(5);
    expect(await f.run(['api', '/users'])).toBe(7);
  });

  it('--paginate follows next_page_url and prints all data as one array; --raw keeps the envelopes', async () => {
    const api = await setup();
    const second = `${ORIGIN}${P}/users?page_number=2&page_size=1`;
    for (let i = 0; i < 2; i++) {
      api.intercept({ path: `${P}/users?page_size=1`, method: 'GET' }).reply(200, page([USERS[0]], { next: second, last: 2 }), JSON_HEADERS);
      api.intercept({ path: `${P}/users?page_number=2&page_size=1`, method: 'GET' }).reply(200, page([USERS[1]], { current: 2, last: 2 }), JSON_HEADERS);
    }
    expect(await f.run(['api', '--paginate', '/users', '-F', 'page_size=1'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual(USERS);
    const before = f.stdout().length;
    expect(await f.run(['api', '--paginate', '--raw', '/users?page_size=1'])).toBe(0);
    expect(JSON.parse(f.stdout().slice(before)).map((e: any) => e.current_page)).toEqual([1, 2]);
  });

  it('--dry-run prints a curl line with the secret masked (unless --show-secret) and sends nothing', async () => {
    await setup();
    expect(await f.run(['api', 'POST', '/customers', '-F', 'email=a@b.c', '-H', 'X-Request-ID: r1', '--dry-run'])).toBe(0);
    expect(f.stdout()).toBe(
      `curl -X POST ${ORIGIN}${P}/customers -H 'X-Access-Key-Id: ak_test' -H 'X-Access-Key-Secret: ****' -H 'Content-Type: application/json' --data-raw '{"email":"a@b.c"}' -H 'x-request-id: r1'\n`,
    );
    expect(await f.run(['api', '/users', '--dry-run', '--show-secret'])).toBe(0);
    expect(f.stdout()).toContain(`X-Access-Key-Secret: ${SECRET}`);
  });

  it('refuses other origins, bad methods, bad fields and headers (exit 2); network failures are exit 8', async () => {
    await setup();
    for (const args of [
      ['api', 'GET', 'https://evil.test/steal'],
      ['api', 'FETCH', '/users'],
      ['api', 'POST', '/customers', '-F', 'novalue'],
      ['api', '/users', '-H', 'no colon'],
      ['api', 'POST', '/customers', '--paginate'],
      ['api', 'POST', '/customers', '-F', 'a=1', '--data', '{}'],
    ]) expect(await f.run(args), args.join(' ')).toBe(2);
    expect(await f.run(['api', '/users', '--base-url', 'http://127.0.0.1:1/api'])).toBe(8);
    expect(f.stderr()).toMatch(/error: GET http:\/\/127\.0\.0\.1:1\/api\/users: /);
  });

  it('a method without a path is exit 2 (not a GET of the path "/POST")', async () => {
    await setup();
    expect(await f.run(['api', 'POST'])).toBe(2);
    expect(f.stderr()).toBe('error: missing the path after POST\nhint: e.g. confctl api POST /users\n');
  });
});
