import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KeyringSecretError, KeyringUnavailableError, systemKeyring } from '../../src/config/keyring.js';
import { openProfiles } from '../../src/config/profiles.js';
import { resolveSettings } from '../../src/config/settings.js';
import { memoryKeyring } from './fake-keyring.js';
import { tempDir } from '../tmp.js';

const tmp = () => tempDir('confctl-kr-');
const P = { domain: 'acme.example', key_id: 'ak_k', secret: 'top-secret' };
const fileOf = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('keychain secrets', () => {
  it('keeps the secret out of the file and reads it back from the keychain', async () => {
    const keyring = memoryKeyring();
    const store = await openProfiles({ dir: tmp(), keyring });
    expect(store.save('a', P, { keyring: true, activate: true })).toEqual({ secret_store: 'keyring', keyringError: undefined });
    expect(fileOf(store.path).profiles.a).toEqual({ domain: 'acme.example', key_id: 'ak_k', secret_store: 'keyring' });
    expect(readFileSync(store.path, 'utf8')).not.toContain('top-secret');
    expect(keyring.entries.get('ak_k')).toBe('top-secret');
    expect(store.secret('a')).toBe('top-secret');
    expect(resolveSettings(store, {})).toMatchObject({ profile: 'a', keyId: 'ak_k', secret: 'top-secret' });
  });

  it('falls back to the 0600 file when there is no keychain, and says why', async () => {
    const store = await openProfiles({ dir: tmp(), keyring: memoryKeyring({ available: false }) });
    const saved = store.save('a', P, { keyring: true });
    expect(saved.secret_store).toBe('file');
    expect(saved.keyringError).toMatch(/no OS keychain is available/);
    expect(fileOf(store.path).profiles.a).toEqual({ ...P, secret_store: 'file' });
    expect(store.secret('a')).toBe('top-secret');
  });

  it('a keychain profile whose keychain is gone is a clear error; CONFCTL_KEY_SECRET needs no keychain', async () => {
    const dir = tmp();
    (await openProfiles({ dir, keyring: memoryKeyring() })).save('a', P, { keyring: true });
    const elsewhere = await openProfiles({ dir, keyring: memoryKeyring({ available: false }) });
    expect(() => elsewhere.secret('a')).toThrow(KeyringSecretError);
    expect(() => elsewhere.secret('a')).toThrow(/profile 'a' is in the OS keychain, but no OS keychain is available/);
    expect(resolveSettings(elsewhere, { CONFCTL_KEY_SECRET: 'env' }).secret).toBe('env');
    const emptied = await openProfiles({ dir, keyring: memoryKeyring() });
    expect(() => emptied.secret('a')).toThrow(/missing from the OS keychain \(key ak_k\)/);
  });

  it('remove deletes the keychain entry unless another profile shares the key', async () => {
    const keyring = memoryKeyring();
    const store = await openProfiles({ dir: tmp(), keyring });
    store.save('a', P, { keyring: true });
    store.save('b', P, { keyring: true });
    expect(store.remove('a')).toEqual({ keyringError: undefined });
    expect(keyring.entries.has('ak_k')).toBe(true);
    store.remove('b');
    expect(keyring.entries.has('ak_k')).toBe(false);
  });

  it('replacing a keychain profile by a file one deletes the old entry; keeping the key keeps it', async () => {
    const keyring = memoryKeyring();
    const store = await openProfiles({ dir: tmp(), keyring });
    store.save('a', P, { keyring: true });
    const existing = store.get('a')!;
    store.save('a', { ...existing, base_url: 'http://127.0.0.1:1/api', domain: undefined });
    expect(store.secret('a')).toBe('top-secret');
    store.save('a', { ...P, secret: 'new' });
    expect(keyring.entries.size).toBe(0);
    expect(store.secret('a')).toBe('new');
  });

  it('a failed keychain delete on remove is reported, the profile still goes', async () => {
    const dir = tmp();
    (await openProfiles({ dir, keyring: memoryKeyring() })).save('a', P, { keyring: true });
    const store = await openProfiles({ dir, keyring: memoryKeyring({ available: false }) });
    expect(store.remove('a')).toEqual({ keyringError: expect.stringMatching(/no OS keychain/) });
    expect(store.get('a')).toBeUndefined();
  });

  it('the system keychain on a machine without one (this sandbox, CI) is unavailable, not a crash', () => {
    const real = systemKeyring('confctl-test');
    let outcome: unknown;
    try {
      outcome = real.get('ak_probe');
    } catch (err) {
      outcome = err;
    }
    // With a keychain the probe answers undefined (no such entry); without, a KeyringUnavailableError.
    if (outcome !== undefined) expect(outcome).toBeInstanceOf(KeyringUnavailableError);
  });
});
