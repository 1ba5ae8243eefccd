import { type Keyring, KeyringUnavailableError } from '../../src/config/keyring.js';

/** An in-memory keychain; `available: false` makes every call fail like a machine without one. */
export function memoryKeyring(options: { available?: boolean } = {}): Keyring & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  const check = () => {
    if (options.available === false) throw new KeyringUnavailableError('no OS keychain is available (no Secret Service on the session bus)');
  };
  return {
    entries,
    set: (account, secret) => (check(), void entries.set(account, secret)),
    get: (account) => (check(), entries.get(account)),
    delete: (account) => (check(), entries.delete(account)),
  };
}
