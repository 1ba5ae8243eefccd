import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Fake, JSON_HEADERS, ORIGIN, withProfile } from './helpers.js';
import { tempDir } from '../tmp.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const P = '/api/public/v2.0';

describe('writes are checked against the contract before any request (exit 2, the server\'s messages)', () => {
  it('customers create: required and malformed fields, every message, nothing sent', async () => {
    f = await withProfile();
    expect(await f.run(['customers', 'create', '--first-name', 'Ada', '--email', 'not-an-email', '--contact-number', '12'])).toBe(2);
    expect(f.agent.requests).toEqual([]);
    const lines = f.stderr().split('\n');
    expect(lines[0]).toBe('error: The last_name field is required. (and 2 more errors)');
    expect(lines).toContain('  email: The email field must be a valid email address.');
    expect(lines).toContain('  contact_number: The contact_number field format is invalid.');
    expect(f.stderr()).toMatch(/hint: .*nothing was sent/);
  });

  it('--dry-run checks too: no curl line for a body the server would refuse', async () => {
    f = await withProfile();
    expect(await f.run(['--dry-run', 'customers', 'create', '--first-name', 'Ada', '--last-name', 'L', '--email', 'x'])).toBe(2);
    expect(f.stdout()).toBe('');
    expect(f.stderr()).toContain('error: The email field must be a valid email address.');
  });

  it('conferences update with both fields (no read): an empty title is refused locally', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'update', '5', '--title', '', '--public'])).toBe(2);
    expect(f.agent.requests).toEqual([]);
    expect(f.stderr()).toContain('error: The title field is required.');
  });

  it('customers update: the merged body is checked after the read, before the PATCH', async () => {
    f = await withProfile();
    const current = { id: 3, first_name: 'Ada', middle_name: null, last_name: 'L', email: 'ada@example.com', contact_number: null, address: null };
    f.agent.get(ORIGIN).intercept({ path: `${P}/customers/3` }).reply(200, { message: 'OK', data: current }, JSON_HEADERS);
    expect(await f.run(['customers', 'update', '3', '--contact-number', '0044'])).toBe(2);
    expect(f.agent.requests.map((r) => r.method)).toEqual(['GET']);
    expect(f.stderr()).toContain('error: The contact_number field format is invalid.');
  });

  it('conferences attendees add: a bad e-mail in the array names its index', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'attendees', 'add', '5', '--data', JSON.stringify([{ name: 'A', email: 'a@example.com' }, { name: 'B', email: 'b' }])])).toBe(2);
    expect(f.agent.requests).toEqual([]);
    expect(f.stderr()).toContain('error: The 1.email field must be a valid email address.');
  });

  it('--from-file: a record the contract refuses fails alone with its messages; the others are sent', async () => {
    f = await withProfile();
    const dir = tempDir();
    const file = join(dir, 'c.ndjson');
    writeFileSync(file, `${JSON.stringify({ first_name: 'A', last_name: 'B', email: 'a@example.com' })}\n${JSON.stringify({ first_name: 'C', last_name: 'D', email: 'nope' })}\n`);
    f.agent.get(ORIGIN).intercept({ path: `${P}/customers`, method: 'POST' }).reply(200, { message: 'OK', data: { id: 1, email: 'a@example.com' } }, JSON_HEADERS);
    expect(await f.run(['customers', 'create', '--from-file', file, '-o', 'json'])).toBe(2);
    expect(f.agent.requests).toHaveLength(1);
    expect(f.stderr()).toContain('line 2: failed: The email field must be a valid email address.');
    expect(f.stderr()).toContain('  email: The email field must be a valid email address.');
  });
});

describe('--fields names are checked before any request', () => {
  it('a write with a misspelt field is refused before it is sent, with a did-you-mean', async () => {
    f = await withProfile();
    expect(await f.run(['customers', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'a@example.com', '--fields', 'id,emial'])).toBe(2);
    expect(f.agent.requests).toEqual([]);
    expect(f.stderr()).toContain('error: unknown field for --fields: emial (did you mean email?)');
  });

  it('a read too', async () => {
    f = await withProfile();
    expect(await f.run(['users', 'list', '--fields', 'id,frist_name'])).toBe(2);
    expect(f.agent.requests).toEqual([]);
    expect(f.stderr()).toContain('did you mean first_name?');
  });
});

describe('filters say "did you mean"', () => {
  it('a misspelt attribute', async () => {
    f = await withProfile();
    expect(await f.run(['users', 'list', '--filter', 'emial~acme'])).toBe(2);
    expect(f.stderr()).toContain("error: cannot filter by 'emial' (did you mean email?)");
  });
});

describe('confctl api on a 400', () => {
  it('prints the validation message on stderr besides the body on stdout', async () => {
    f = await withProfile();
    const body = { message: 'The email field is required.', errors: { email: ['The email field is required.'] } };
    f.agent.get(ORIGIN).intercept({ path: `${P}/customers`, method: 'POST' }).reply(400, body, JSON_HEADERS);
    expect(await f.run(['api', 'POST', '/customers', '-F', 'first_name=A'])).toBe(6);
    expect(JSON.parse(f.stdout())).toEqual(body);
    expect(f.stderr()).toContain('error: POST /api/public/v2.0/customers answered 400 Bad Request: The email field is required.');
    expect(f.stderr()).toContain('  email: The email field is required.');
  });
});
