import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE, type Fake, fake, JSON_HEADERS, ORIGIN, page, SECRET, TEXT_HEADERS, withProfile } from './helpers.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const file = () => join(f.configDir, 'profiles.json');

describe('profile commands', () => {
  it('add reads the secret from stdin, saves 0600 and activates the first profile', async () => {
    f = fake({ stdin: `${SECRET}\n` });
    expect(await f.run(['profile', 'add', 'acme', '--domain', 'acme.test', '--key-id', 'ak_1', '--secret-stdin'])).toBe(0);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ active: 'acme', profiles: { acme: { domain: 'acme.test', key_id: 'ak_1', secret: SECRET, secret_store: 'file' } } });
    expect(f.stderr()).toContain("Saved profile 'acme' (active)");
    expect(f.stdout() + f.stderr()).not.toContain(SECRET);
  });

  it('add in a pipe names the missing flags (exit 2) and never prompts', async () => {
    f = fake();
    expect(await f.run(['profile', 'add', 'acme', '--domain', 'acme.test'])).toBe(2);
    expect(f.stderr()).toContain('error: missing --key-id, --secret-stdin (or --secret)');
  });

  it('add on a terminal prompts for what is missing, the secret masked', async () => {
    const asked: string[] = [];
    f = fake({
      tty: true,
      prompter: {
        input: async (q) => (asked.push(q.message), 'ak_2'),
        password: async (q) => (asked.push(`password:${q.message}`), 'typed-secret'),
      },
    });
    expect(await f.run(['profile', 'add', 'p', '--base-url', 'http://localhost:8080/api/public/v2.0'])).toBe(0);
    expect(asked).toEqual(['Access key id', 'password:Access key secret']);
    expect((await f.ctx.config()).get('p')).toEqual({ base_url: 'http://localhost:8080/api/public/v2.0', key_id: 'ak_2', secret: 'typed-secret', secret_store: 'file' });
  });

  it('list and show never print the secret', async () => {
    f = await withProfile();
    (await f.ctx.config()).save('b', { domain: 'b.test', key_id: 'ak_b', secret: 'other-secret' });
    expect(await f.run(['profile', 'list'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual([
      { name: 'acme', active: true, base_url: BASE, key_id: 'ak_test', secret_store: 'file', output: null },
      { name: 'b', active: false, base_url: 'https://b.test/api/public/v2.0', key_id: 'ak_b', secret_store: 'file', output: null },
    ]);
    expect(await f.run(['profile', 'show', 'b', '-o', 'yaml'])).toBe(0);
    expect(f.stdout()).toContain('secret: "********"');
    for (const format of ['table', 'csv', 'yaml', 'ndjson']) await f.run(['profile', 'list', '-o', format]);
    expect(f.stdout()).not.toMatch(new RegExp(`${SECRET}|other-secret`));
  });

  it('use switches the active profile; remove deletes; unknown names are exit 2', async () => {
    f = await withProfile();
    (await f.ctx.config()).save('b', { domain: 'b.test', key_id: 'ak_b', secret: 's' });
    expect(await f.run(['profile', 'use', 'b'])).toBe(0);
    expect((await f.ctx.config()).active()).toBe('b');
    expect(await f.run(['profile', 'remove', 'b'])).toBe(0);
    expect((await f.ctx.config()).list().map((p) => p.name)).toEqual(['acme']);
    expect(await f.run(['profile', 'use', 'ghost'])).toBe(2);
  });
});

describe('login', () => {
  it('checks the key with one request, then saves and activates the profile', async () => {
    f = await withProfile({ stdin: 'new-secret\n' });
    f.agent
      .get('https://new.test')
      .intercept({ path: '/api/public/v2.0/users?page_size=1', method: 'GET', headers: { 'x-access-key-id': 'ak_new', 'x-access-key-secret': 'new-secret' } })
      .reply(200, page([]), JSON_HEADERS);
    expect(await f.run(['login', '--name', 'new', '--domain', 'new.test', '--key-id', 'ak_new', '--secret-stdin'])).toBe(0);
    const store = await f.ctx.config();
    expect(store.active()).toBe('new');
    expect(store.get('new')).toEqual({ domain: 'new.test', key_id: 'ak_new', secret: 'new-secret', secret_store: 'file' });
  });

  it('does not save a rejected key (exit 3)', async () => {
    f = fake({ stdin: 'bad\n' });
    f.agent.get(ORIGIN).intercept({ path: '/api/public/v2.0/users?page_size=1', method: 'GET' }).reply(401, 'Invalid or missing access key.', TEXT_HEADERS);
    expect(await f.run(['login', '--domain', 'acme.test', '--key-id', 'ak_x', '--secret-stdin'])).toBe(3);
    expect((await f.ctx.config()).list()).toEqual([]);
  });

  it('in a pipe, missing input is exit 2 naming the flags', async () => {
    f = fake();
    expect(await f.run(['login'])).toBe(2);
    expect(f.stderr()).toContain('error: missing --domain or --base-url, --key-id, --secret-stdin (or --secret)');
  });
});
