import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Prompter } from '../../src/cli/context.js';
import { type AdminFake, adminFake } from './admin-helpers.js';
import { BASE, JSON_HEADERS, ORIGIN, SECRET } from './helpers.js';

let f: AdminFake;
afterEach(() => f.dispose());

const ELSEWHERE = { base_url: 'http://localhost:9999/api/public/v2.0', key_id: 'ak_elsewhere', secret: 'kept-secret' };

/** A prompter that answers each question in turn (Enter = the question's default) and records them. */
function scripted(answers: (string | undefined)[]): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const next = (q: { message: string; default?: string }) => {
    asked.push(q.message);
    if (!answers.length) return Promise.reject(new Error(`unexpected prompt: ${q.message}`));
    return Promise.resolve(answers.shift() ?? q.default ?? '');
  };
  return { asked, input: next, password: next };
}

/** A data directory not initialised, and a saved profile `local` that points at another instance. */
async function withForeignLocal(opts: Parameters<typeof adminFake>[0] = {}): Promise<AdminFake> {
  f = adminFake(opts);
  (await f.ctx.config()).save('local', ELSEWHERE, { activate: true });
  return f;
}
const tenants = () => (existsSync(join(f.dataDir, 'confctl.db')) ? f.inspect((l) => l.store.tenants.list().length) : 0);

describe('admin init and serve never replace a profile without consent', () => {
  it('in a script, init fails before creating the tenant or the key, and keeps the profile', async () => {
    await withForeignLocal();
    expect(await f.run(['admin', 'init'])).toBe(2);
    expect(f.stderr()).toContain("error: profile 'local' (http://localhost:9999/api/public/v2.0, key ak_elsewhere) already exists; not replacing it");
    expect(f.stderr()).toContain('hint: give --profile-name NAME to save the new key under another name, --force to replace the profile, or --no-profile');
    expect(tenants()).toBe(0);
    expect((await f.ctx.config()).get('local')).toEqual(ELSEWHERE);
    expect(f.stdout()).toBe('');
  });

  it('--profile-name saves the key under another name; --force replaces', async () => {
    await withForeignLocal();
    const r = await f.json(['admin', 'init', '--profile-name', 'dev']);
    const store = await f.ctx.config();
    expect(store.get('local')).toEqual(ELSEWHERE);
    expect(store.get('dev')).toMatchObject({ key_id: r.key_id, secret: r.secret, base_url: 'http://localhost:8080/api/public/v2.0' });
    expect(store.active()).toBe('local');

    f.dispose();
    await withForeignLocal();
    const forced = await f.json(['admin', 'init', '--force']);
    expect((await f.ctx.config()).get('local')).toMatchObject({ key_id: forced.key_id, secret: forced.secret });
  });

  it('on a terminal it asks: yes replaces, no keeps the profile and creates nothing', async () => {
    const no = scripted(['n']);
    await withForeignLocal({ tty: true, prompter: no });
    expect(await f.run(['admin', 'init'])).toBe(2);
    expect(no.asked).toEqual(["profile 'local' (http://localhost:9999/api/public/v2.0, key ak_elsewhere) already exists. Replace it? (y/N)"]);
    expect(f.stderr()).toContain("error: kept profile 'local'");
    expect(tenants()).toBe(0);
    f.dispose();

    const yes = scripted(['y']);
    await withForeignLocal({ tty: true, prompter: yes });
    expect(await f.run(['admin', 'init'])).toBe(0);
    const key = f.inspect((l) => l.store.keys.list()[0]);
    expect((await f.ctx.config()).get('local')?.key_id).toBe(key.id);
  });

  it('the first serve on an empty directory refuses the same way, before creating anything (the directory included)', async () => {
    await withForeignLocal();
    expect(await f.run(['serve', '--port', '0', '--log', 'off'])).toBe(2);
    expect(existsSync(f.dataDir)).toBe(false);
    expect(f.stderr()).toContain("error: profile 'local' (http://localhost:9999/api/public/v2.0, key ak_elsewhere) already exists; not replacing it");
    expect(tenants()).toBe(0);
    expect(f.stdout()).toBe('');
    expect((await f.ctx.config()).get('local')).toEqual(ELSEWHERE);
  });

  it('a refused serve on an existing but empty directory leaves its files as they were', async () => {
    await withForeignLocal();
    mkdirSync(f.dataDir);
    writeFileSync(join(f.dataDir, 'notes.txt'), 'mine');
    expect(await f.run(['serve', '--port', '0', '--log', 'off'])).toBe(2);
    expect(readdirSync(f.dataDir)).toEqual(['notes.txt']);
  });

  it('on a terminal a new directory is asked about once, then served', async () => {
    const yes = scripted(['y']);
    await withForeignLocal({ tty: true, prompter: yes });
    const serving = f.run(['serve', '--port', '0', '--log', 'off']);
    await vi.waitFor(() => expect(f.stdout()).toContain('Listening on'), { timeout: 10_000 });
    process.emit('SIGTERM');
    expect(await serving).toBe(0);
    expect(yes.asked).toHaveLength(1);
  });
});

describe('profile add and login over an existing name', () => {
  it('profile add: exit 2 in a script, --force replaces, a terminal asks', async () => {
    f = adminFake({ stdin: `${SECRET}\n` });
    (await f.ctx.config()).save('acme', ELSEWHERE);
    const add = ['profile', 'add', 'acme', '--base-url', BASE, '--key-id', 'ak_new', '--secret-stdin'];
    expect(await f.run(add)).toBe(2);
    expect(f.stderr()).toContain("error: profile 'acme' (http://localhost:9999/api/public/v2.0, key ak_elsewhere) already exists; not replacing it");
    expect((await f.ctx.config()).get('acme')).toEqual(ELSEWHERE);
    f.dispose();

    f = adminFake({ stdin: `${SECRET}\n` });
    (await f.ctx.config()).save('acme', ELSEWHERE);
    expect(await f.run([...add, '--force'])).toBe(0);
    expect((await f.ctx.config()).get('acme')).toMatchObject({ key_id: 'ak_new', secret: SECRET });
    f.dispose();

    const yes = scripted([SECRET, 'yes']);
    f = adminFake({ tty: true, prompter: yes });
    (await f.ctx.config()).save('acme', ELSEWHERE);
    expect(await f.run(['profile', 'add', 'acme', '--base-url', BASE, '--key-id', 'ak_new'])).toBe(0);
    expect(yes.asked[1]).toMatch(/^profile 'acme' .* already exists\. Replace it\? \(y\/N\)$/);
    expect((await f.ctx.config()).get('acme')).toMatchObject({ key_id: 'ak_new' });
  });

  it('login over an existing name fails in a script before any request', async () => {
    f = adminFake({ stdin: `${SECRET}\n` });
    (await f.ctx.config()).save('acme', ELSEWHERE);
    // No interceptor: a request would fail with exit 8, not 2.
    expect(await f.run(['login', '--name', 'acme', '--base-url', BASE, '--key-id', 'ak_new', '--secret-stdin'])).toBe(2);
    expect(f.stderr()).toContain("profile 'acme'");
    expect((await f.ctx.config()).get('acme')).toEqual(ELSEWHERE);
  });
});

describe('flags that write a file that exists', () => {
  it('customers create --errors FILE: exit 2 before sending, the file kept; --force replaces it', async () => {
    f = adminFake();
    (await f.ctx.config()).save('acme', { base_url: BASE, key_id: 'ak_test', secret: SECRET }, { activate: true });
    const records = join(f.configDir, 'c.ndjson');
    writeFileSync(records, '{"first_name":"A","last_name":"L","email":"taken@example.com"}\n');
    const errors = join(f.configDir, 'failed.ndjson');
    writeFileSync(errors, 'earlier failures\n');
    expect(await f.run(['customers', 'create', '--from-file', records, '--errors', errors])).toBe(2);
    expect(f.stderr()).toContain(`error: the file ${errors} already exists; not replacing it`);
    expect(f.stderr()).toContain('hint: give --force to replace it, or another --errors FILE');
    expect(readFileSync(errors, 'utf8')).toBe('earlier failures\n');

    f.agent
      .get(ORIGIN)
      .intercept({ path: '/api/public/v2.0/customers', method: 'POST' })
      .reply(400, { message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } }, JSON_HEADERS);
    expect(await f.run(['customers', 'create', '--from-file', records, '--errors', errors, '--force'])).toBe(6);
    expect(JSON.parse(readFileSync(errors, 'utf8'))).toMatchObject({ line: 1, status: 400 });
  });

  it('recordings url --download FILE: exit 2 before any request; --force without --download, or -o with it, is exit 2', async () => {
    f = adminFake();
    (await f.ctx.config()).save('acme', { base_url: BASE, key_id: 'ak_test', secret: SECRET }, { activate: true });
    const file = join(f.configDir, 'talk.wav');
    writeFileSync(file, 'an earlier download');
    expect(await f.run(['recordings', 'url', '3', '5', '--download', file])).toBe(2);
    expect(f.stderr()).toContain(`error: the file ${file} already exists; not replacing it`);
    expect(readFileSync(file, 'utf8')).toBe('an earlier download');
    expect(await f.run(['recordings', 'url', '3', '5', '--force'])).toBe(2);
    expect(f.stderr()).toContain('error: --force goes with --download FILE');
    expect(await f.run(['recordings', 'url', '3', '5', '--download', join(f.configDir, 'new.wav'), '-o', 'yaml'])).toBe(2);
    expect(f.stderr()).toContain('error: -o, --fields and --raw do not go with --download');
  });
});
