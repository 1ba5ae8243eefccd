/**
 * Profile secrets in the OS keychain (macOS Keychain, Windows Credential Manager, the Secret
 * Service on Linux) through @napi-rs/keyring, loaded only when a keychain profile is used.
 * Entries live under the service `confctl`, one per access key id.
 */
import { createRequire } from 'node:module';

/** A keychain; every method throws `KeyringUnavailableError` when there is none to use. */
export interface Keyring {
  set(account: string, secret: string): void;
  /** The stored secret, or undefined when there is no entry. */
  get(account: string): string | undefined;
  /** Deletes the entry; false when there was none. */
  delete(account: string): boolean;
}

/** No usable keychain: the module failed to load, or the platform store refused. */
export class KeyringUnavailableError extends Error {
  override name = 'KeyringUnavailableError';
}

/** A profile says its secret is in the keychain, but it cannot be read from there. */
export class KeyringSecretError extends Error {
  override name = 'KeyringSecretError';
}

export const KEYRING_SERVICE = 'confctl';

interface EntryLike {
  setPassword(password: string): void;
  getPassword(): string | null;
  deletePassword(): boolean;
}
type EntryClass = new (service: string, account: string, options?: { linux?: { store?: 'secret-service' | 'keyutils' } }) => EntryLike;

/**
 * The real keychain. On Linux only the Secret Service counts: the kernel keyring the library
 * would fall back to forgets everything at logout, which is no place for a profile's secret.
 */
export function systemKeyring(service = KEYRING_SERVICE): Keyring {
  let Entry: EntryClass | undefined;
  const entry = (account: string): EntryLike => {
    try {
      Entry ??= (createRequire(import.meta.url)('@napi-rs/keyring') as { Entry: EntryClass }).Entry;
      return new Entry(service, account, { linux: { store: 'secret-service' } });
    } catch (err) {
      throw unavailable(err);
    }
  };
  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      throw unavailable(err);
    }
  };
  return {
    set: (account, secret) => guard(() => entry(account).setPassword(secret)),
    get: (account) => guard(() => entry(account).getPassword() ?? undefined),
    delete: (account) => guard(() => entry(account).deletePassword()),
  };
}

function unavailable(err: unknown): KeyringUnavailableError {
  if (err instanceof KeyringUnavailableError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new KeyringUnavailableError(`no OS keychain is available (${message.split('\n')[0]})`, { cause: err });
}
