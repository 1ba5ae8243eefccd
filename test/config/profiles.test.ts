import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openProfiles, saveProfile } from '../../src/config/profiles.js';
import { baseUrlOf, resolveSettings, UnknownProfileError } from '../../src/config/settings.js';
import { tempDir } from '../tmp.js';

const tmp = () => tempDir('confctl-cfg-');
const A = { domain: 'acme.example', key_id: 'ak_a', secret: 'secret-a' };
const B = { base_url: 'http://127.0.0.1:8080/api/public/v2.0/', key_id: 'ak_b', secret: 'secret-b', output: 'yaml' as const };

describe('profile store', () => {
  it('writes the file with mode 0600 in CONFCTL_CONFIG_DIR', async () => {
    const dir = tmp();
    const store = await saveProfile('a', A, { env: { CONFCTL_CONFIG_DIR: dir } });
    expect(store.path).toBe(join(dir, 'profiles.json'));
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(store.path, 'utf8')).profiles.a).toEqual(A);
  });

  it('activates the first profile only (activateIfNone), use and remove switch it', async () => {
    const dir = tmp();
    await saveProfile('a', A, { dir });
    const store = await saveProfile('b', B, { dir });
    expect(store.active()).toBe('a');
    expect(store.list().map((p) => [p.name, p.active])).toEqual([['a', true], ['b', false]]);
    expect(store.use('b')).toBe(true);
    expect(store.use('nope')).toBe(false);
    expect((await openProfiles({ dir })).active()).toBe('b');
    expect(store.remove('b')).toEqual({ keyringError: undefined });
    expect(store.active()).toBeUndefined();
    expect(store.get('a')).toEqual(A);
  });
});

describe('settings', () => {
  it('derives the base URL from a domain, or trims a base_url', () => {
    expect(baseUrlOf(A)).toBe('https://acme.example/api/public/v2.0');
    expect(baseUrlOf(B)).toBe('http://127.0.0.1:8080/api/public/v2.0');
  });

  it('uses the active profile, CONFCTL_PROFILE, or --profile', async () => {
    const dir = tmp();
    await saveProfile('a', A, { dir });
    const store = await saveProfile('b', B, { dir });
    expect(resolveSettings(store, {})).toMatchObject({ profile: 'a', keyId: 'ak_a', baseUrl: 'https://acme.example/api/public/v2.0' });
    expect(resolveSettings(store, { CONFCTL_PROFILE: 'b' })).toMatchObject({ profile: 'b', keyId: 'ak_b', output: 'yaml' });
    expect(resolveSettings(store, { CONFCTL_PROFILE: 'b' }, { profile: 'a' }).profile).toBe('a');
    expect(() => resolveSettings(store, {}, { profile: 'zz' })).toThrow(UnknownProfileError);
  });

  it('lets CONFCTL_* variables override profile fields, and --base-url override all', async () => {
    const store = await saveProfile('a', A, { dir: tmp() });
    const env = { CONFCTL_DOMAIN: 'other.example', CONFCTL_KEY_ID: 'ak_env', CONFCTL_KEY_SECRET: 'env-secret', CONFCTL_OUTPUT: 'csv' };
    expect(resolveSettings(store, env)).toEqual({
      profile: 'a',
      baseUrl: 'https://other.example/api/public/v2.0',
      keyId: 'ak_env',
      secret: 'env-secret',
      output: 'csv',
    });
    expect(resolveSettings(store, { ...env, CONFCTL_BASE_URL: 'http://x/api' }).baseUrl).toBe('http://x/api');
    expect(resolveSettings(store, env, { baseUrl: 'http://flag/api/' }).baseUrl).toBe('http://flag/api');
  });

  it('works from the environment alone, without any profile', async () => {
    const store = await openProfiles({ dir: tmp() });
    expect(resolveSettings(store, { CONFCTL_BASE_URL: 'http://h/api', CONFCTL_KEY_ID: 'k', CONFCTL_KEY_SECRET: 's' })).toEqual({
      profile: undefined,
      baseUrl: 'http://h/api',
      keyId: 'k',
      secret: 's',
      output: undefined,
    });
  });
});
