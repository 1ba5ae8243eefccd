import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/main.js';
import type { Keyring } from '../../src/config/keyring.js';
import { openProfiles } from '../../src/config/profiles.js';
import { memoryKeyring } from '../config/fake-keyring.js';
import { type Fake, fake, JSON_HEADERS, page, SECRET } from './helpers.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());

/** A fake whose profile store uses `keyring`. */
function withKeyring(keyring: Keyring, opts: Parameters<typeof fake>[0] = {}) {
  f = fake(opts);
  const ctx: CliContext = { ...f.ctx, config: () => openProfiles({ env: f.ctx.env, keyring }) };
  return { run: (args: string[]) => runCli(args, ctx), file: () => readFileSync(join(f.configDir, 'profiles.json'), 'utf8') };
}
const ADD = ['profile', 'add', 'acme', '--base-url', 'https://acme.test/api/public/v2.0', '--key-id', 'ak_1', '--secret-stdin', '--keyring'];

describe('profile add --keyring', () => {
  it('stores the secret in the keychain; show says where; commands read it from there; remove deletes it', async () => {
    const keyring = memoryKeyring();
    const k = withKeyring(keyring, { stdin: `${SECRET}\n` });
    expect(await k.run(ADD)).toBe(0);
    expect(f.stderr()).toContain('The secret is stored in the OS keychain.');
    expect(keyring.entries.get('ak_1')).toBe(SECRET);
    expect(k.file()).not.toContain(SECRET);

    expect(await k.run(['profile', 'show', '-o', 'json'])).toBe(0);
    expect(JSON.parse(f.stdout())).toMatchObject({ name: 'acme', key_id: 'ak_1', secret_store: 'keyring' });

    f.agent
      .get('https://acme.test')
      .intercept({ path: '/api/public/v2.0/users', method: 'GET', headers: { 'x-access-key-secret': SECRET } })
      .reply(200, page([]), JSON_HEADERS);
    expect(await k.run(['users', 'list', '-o', 'json'])).toBe(0);

    expect(await k.run(['profile', 'remove', 'acme'])).toBe(0);
    expect(keyring.entries.size).toBe(0);
  });

  it('without a keychain says so and stores the secret in the 0600 profile file instead', async () => {
    const k = withKeyring(memoryKeyring({ available: false }), { stdin: `${SECRET}\n` });
    expect(await k.run(ADD)).toBe(0);
    expect(f.stderr()).toMatch(/warning: no OS keychain is available \(.*\); the secret is stored in the profile file .*profiles\.json \(mode 0600\) instead/);
    expect(JSON.parse(k.file()).profiles.acme).toMatchObject({ secret: SECRET, secret_store: 'file' });
    expect(await k.run(['profile', 'show', '-o', 'json'])).toBe(0);
    expect(JSON.parse(f.stdout()).secret_store).toBe('file');
  });

  it('a keychain profile on a machine that lost its keychain fails with a message naming the keychain', async () => {
    const dir = fake().configDir;
    (await openProfiles({ dir, keyring: memoryKeyring() })).save('acme', { base_url: 'https://acme.test/api', key_id: 'ak_1', secret: 's' }, { keyring: true, activate: true });
    const k = withKeyring(memoryKeyring({ available: false }), { env: { CONFCTL_CONFIG_DIR: dir } });
    expect(await k.run(['users', 'list'])).toBe(2);
    expect(f.stderr()).toContain("the secret of profile 'acme' is in the OS keychain, but no OS keychain is available");
    expect(f.stderr()).toContain('hint: set CONFCTL_KEY_SECRET, or add the profile again without --keyring');
  });

  it('the hidden `profile names` prints saved names one a line (for completion scripts)', async () => {
    const k = withKeyring(memoryKeyring());
    const store = await f.ctx.config();
    store.save('zeta', { domain: 'z.test', key_id: 'ak_z', secret: 's' });
    store.save('alpha', { domain: 'a.test', key_id: 'ak_a', secret: 's' });
    expect(await k.run(['profile', 'names'])).toBe(0);
    expect(f.stdout()).toBe('alpha\nzeta\n');
    expect(await k.run(['profile', '--help'])).toBe(0);
    expect(f.stdout()).not.toMatch(/^\s+names/m);
  });
});
