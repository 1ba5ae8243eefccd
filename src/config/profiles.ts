import { chmodSync } from 'node:fs';
import { ensurePrivateDir } from '../media/files.js';
import { type Keyring, KeyringSecretError, KeyringUnavailableError, systemKeyring } from './keyring.js';

/** Output formats a profile may default to (decisions §9). */
export const OUTPUT_FORMATS = ['table', 'json', 'yaml', 'csv', 'ndjson'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Where a profile's secret lives: the profile file (the default when absent) or the OS keychain. */
export type SecretStore = 'file' | 'keyring';

/**
 * One saved profile: `domain` or `base_url`, the key pair, and an optional default output. A
 * `secret_store: 'keyring'` profile has no `secret` in the file: it is in the keychain under its key id.
 */
export interface Profile {
  domain?: string;
  base_url?: string;
  key_id: string;
  secret?: string;
  secret_store?: SecretStore;
  output?: OutputFormat;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Where the profiles live: `dir`, else `CONFCTL_CONFIG_DIR`, else conf's user config directory. */
export interface StoreLocation {
  dir?: string;
  env?: Env;
  /** The keychain for `secret_store: 'keyring'` profiles (default: the OS one); tests inject a fake. */
  keyring?: Keyring;
}

/** Where `save` put the secret; `keyringError` says why the keychain was not used or not cleaned. */
export interface SaveResult {
  secret_store: SecretStore;
  keyringError?: string;
}

/** The reading half of the profile store: all a command that only uses a profile needs. */
export interface ProfileReader {
  /** The config file's path. */
  readonly path: string;
  active(): string | undefined;
  get(name: string): Profile | undefined;
  /** A profile's secret, from the file or the keychain; throws `KeyringSecretError` when unreadable. */
  secret(name: string): string | undefined;
}

export interface ProfileStore extends ProfileReader {
  /** Every profile, sorted by name. */
  list(): { name: string; profile: Profile; active: boolean }[];
  /**
   * Creates or replaces a profile; `activate` makes it active, `activateIfNone` only when none is.
   * With `keyring`, the secret goes to the keychain, or to the file when there is no keychain.
   */
  save(name: string, profile: Profile, options?: { activate?: boolean; activateIfNone?: boolean; keyring?: boolean }): SaveResult;
  /** Makes a saved profile active; false when there is no such profile. */
  use(name: string): boolean;
  /** Removes a profile (and clears it if active) and its keychain entry; false when there is no such profile. */
  remove(name: string): false | { keyringError?: string };
}

export interface FileShape {
  active?: string;
  profiles?: Record<string, Profile>;
}

/** Opens the profile store (conf, file mode 0600, directory 0700). Loads conf lazily. */
export async function openProfiles(location: StoreLocation = {}): Promise<ProfileStore> {
  const { default: Conf } = await import('conf');
  const cwd = location.dir ?? (location.env ?? process.env).CONFCTL_CONFIG_DIR;
  if (cwd) ensurePrivateDir(cwd);
  const conf = new Conf<FileShape>({
    projectName: 'confctl',
    projectSuffix: '',
    ...(cwd ? { cwd } : {}),
    configName: 'profiles',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
  });
  const profiles = () => ({ ...(conf.get('profiles') ?? {}) });
  let chosen = location.keyring;
  const keyring = () => (chosen ??= systemKeyring());
  // conf only applies the mode when it creates the file; keep an older file private too.
  const write = (data: FileShape) => {
    conf.store = data;
    chmodSync(conf.path, 0o600);
  };
  const active = () => {
    const name = conf.get('active');
    return name && profiles()[name] ? name : undefined;
  };
  return {
    path: conf.path,
    active,
    get: (name) => profiles()[name],
    list: () =>
      Object.entries(profiles())
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, profile]) => ({ name, profile, active: name === active() })),
    save(name, profile, options = {}) {
      const activate = options.activate || (options.activateIfNone && !active());
      const previous = profiles()[name];
      const placed = placeSecret(keyring(), profile, Boolean(options.keyring));
      write({ active: activate ? name : conf.get('active'), profiles: { ...profiles(), [name]: clean(placed.profile) } });
      // A keychain entry the replaced profile used and the new one does not is deleted.
      const kept = placed.profile.secret_store === 'keyring' && previous?.key_id === placed.profile.key_id;
      const cleanup = kept ? undefined : forget(previous, name);
      return { secret_store: placed.profile.secret_store ?? 'file', keyringError: placed.keyringError ?? cleanup };
    },
    secret: (name) => secretOf(name, profiles()[name], keyring),
    use(name) {
      if (!profiles()[name]) return false;
      write({ ...conf.store, active: name });
      return true;
    },
    remove(name) {
      const all = profiles();
      const removed = all[name];
      if (!removed) return false;
      delete all[name];
      write({ active: conf.get('active') === name ? undefined : conf.get('active'), profiles: all });
      return { keyringError: forget(removed, name) };
    },
  };

  /** Deletes a keychain entry no other profile uses; answers the error, if deleting failed. */
  function forget(p: Profile | undefined, except: string): string | undefined {
    if (p?.secret_store !== 'keyring') return undefined;
    const shared = Object.entries(profiles()).some(([n, o]) => n !== except && o.secret_store === 'keyring' && o.key_id === p.key_id);
    if (shared) return undefined;
    try {
      keyring().delete(p.key_id);
      return undefined;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }
}

/** A profile's secret, from the profile or the keychain; throws `KeyringSecretError` when unreadable. */
export function secretOf(name: string, p: Profile | undefined, keyring: () => Keyring): string | undefined {
  if (p?.secret_store !== 'keyring') return p?.secret;
  try {
    const secret = keyring().get(p.key_id);
    if (secret === undefined) throw new KeyringSecretError(`the secret of profile '${name}' is missing from the OS keychain (key ${p.key_id})`);
    return secret;
  } catch (err) {
    if (err instanceof KeyringUnavailableError) throw new KeyringSecretError(`the secret of profile '${name}' is in the OS keychain, but ${err.message}`, { cause: err });
    throw err;
  }
}

/** Moves the secret to the keychain when asked and possible; otherwise it stays in the profile. */
function placeSecret(keyring: Keyring, profile: Profile, wantKeyring: boolean): { profile: Profile; keyringError?: string } {
  if (!wantKeyring || !profile.secret) return { profile };
  try {
    keyring.set(profile.key_id, profile.secret);
    return { profile: { ...profile, secret: undefined, secret_store: 'keyring' } };
  } catch (err) {
    if (!(err instanceof KeyringUnavailableError)) throw err;
    return { profile: { ...profile, secret_store: 'file' }, keyringError: err.message };
  }
}

function clean(profile: Profile): Profile {
  return Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined && v !== '')) as unknown as Profile;
}

/**
 * Saves a profile (used by `profile add`, `login`, and `serve`/`admin init` for the local key).
 * With `activateIfNone` (the default) it becomes active only when no profile is active.
 */
export async function saveProfile(
  name: string,
  profile: Profile,
  options: StoreLocation & { activate?: boolean; activateIfNone?: boolean } = {},
): Promise<ProfileStore> {
  const store = await openProfiles(options);
  store.save(name, profile, { activate: options.activate, activateIfNone: options.activateIfNone ?? true });
  return store;
}
