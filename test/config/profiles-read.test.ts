import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyringSecretError } from '../../src/config/keyring.js';
import { defaultConfigDir, profilesPath, readProfiles } from '../../src/config/profiles-read.js';
import { openProfiles, saveProfile } from '../../src/config/profiles.js';
import { tempDir } from '../tmp.js';
import { memoryKeyring } from './fake-keyring.js';

const A = { domain: 'acme.example', key_id: 'ak_a', secret: 'secret-a' };
const B = { base_url: 'http://127.0.0.1:8080/api/public/v2.0', key_id: 'ak_b', secret: 'secret-b', output: 'yaml' as const };

describe('reading profiles without conf', () => {
  const xdg = process.env.XDG_CONFIG_HOME;
  afterEach(() => {
    if (xdg === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = xdg;
  });

  it("finds the file where conf writes it: CONFCTL_CONFIG_DIR, else conf's own directory", async () => {
    const dir = tempDir('confctl-read-');
    expect(profilesPath({ env: { CONFCTL_CONFIG_DIR: dir } })).toBe((await openProfiles({ env: { CONFCTL_CONFIG_DIR: dir } })).path);
    // conf reads XDG_CONFIG_HOME from the process's environment; the CLI passes that environment.
    process.env.XDG_CONFIG_HOME = tempDir('confctl-xdg-');
    expect(profilesPath({ env: process.env })).toBe((await openProfiles({ env: process.env })).path);
  });

  it("answers conf's directory on each platform (env-paths' config directory)", () => {
    expect(defaultConfigDir({}, 'linux', '/home/u')).toBe('/home/u/.config/confctl');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/u')).toBe('/x/confctl');
    expect(defaultConfigDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Preferences/confctl');
    expect(defaultConfigDir({ APPDATA: 'C:/AppData' }, 'win32', 'C:/Users/u')).toBe(join('C:/AppData', 'confctl', 'Config'));
  });

  it('reads what conf wrote: the active profile, each profile and its secret', async () => {
    const dir = tempDir('confctl-read-');
    await saveProfile('a', A, { dir });
    await saveProfile('b', B, { dir, activate: true });
    const reader = await readProfiles({ dir });
    expect(reader.active()).toBe('b');
    expect(reader.get('a')).toEqual(A);
    expect(reader.get('b')).toEqual(B);
    expect(reader.get('toString')).toBeUndefined();
    expect(reader.secret('a')).toBe('secret-a');
  });

  it('reads a keychain profile\'s secret from the keychain, and says when it is missing', async () => {
    const dir = tempDir('confctl-read-');
    const keyring = memoryKeyring();
    (await openProfiles({ dir, keyring })).save('k', A, { keyring: true });
    const reader = await readProfiles({ dir, keyring });
    expect(reader.get('k')).toEqual({ domain: A.domain, key_id: A.key_id, secret_store: 'keyring' });
    expect(reader.secret('k')).toBe('secret-a');
    keyring.entries.clear();
    expect(() => reader.secret('k')).toThrow(KeyringSecretError);
  });

  it('no file reads as no profiles, and creates nothing', async () => {
    const dir = join(tempDir('confctl-read-'), 'absent');
    const reader = await readProfiles({ dir });
    expect(reader.active()).toBeUndefined();
    expect(reader.get('a')).toBeUndefined();
    expect(reader.path).toBe(join(dir, 'profiles.json'));
  });

  it('leaves a file it cannot read plainly to conf, so the error is the same', async () => {
    const dir = tempDir('confctl-read-');
    writeFileSync(join(dir, 'profiles.json'), '{ not json');
    const viaConf = await openProfiles({ dir }).then(() => 'opened', (err: Error) => err.message);
    const viaReader = await readProfiles({ dir }).then(() => 'opened', (err: Error) => err.message);
    expect(viaReader).toBe(viaConf);
  });
});
