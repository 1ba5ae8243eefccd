import { chmodSync, mkdirSync } from 'node:fs';

/** Output formats a profile may default to (decisions §9). */
export const OUTPUT_FORMATS = ['table', 'json', 'yaml', 'csv', 'ndjson'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** One saved profile: `domain` or `base_url`, the key pair, and an optional default output. */
export interface Profile {
  domain?: string;
  base_url?: string;
  key_id: string;
  secret: string;
  output?: OutputFormat;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Where the profiles live: `dir`, else `CONFCTL_CONFIG_DIR`, else conf's user config directory. */
export interface StoreLocation {
  dir?: string;
  env?: Env;
}

export interface ProfileStore {
  /** The config file's path. */
  readonly path: string;
  active(): string | undefined;
  get(name: string): Profile | undefined;
  /** Every profile, sorted by name. */
  list(): { name: string; profile: Profile; active: boolean }[];
  /** Creates or replaces a profile; `activate` makes it active, `activateIfNone` only when none is. */
  save(name: string, profile: Profile, options?: { activate?: boolean; activateIfNone?: boolean }): void;
  /** Makes a saved profile active; false when there is no such profile. */
  use(name: string): boolean;
  /** Removes a profile (and clears it if active); false when there is no such profile. */
  remove(name: string): boolean;
}

interface FileShape {
  active?: string;
  profiles?: Record<string, Profile>;
}

/** Opens the profile store (conf, file mode 0600, directory 0700). Loads conf lazily. */
export async function openProfiles(location: StoreLocation = {}): Promise<ProfileStore> {
  const { default: Conf } = await import('conf');
  const cwd = location.dir ?? (location.env ?? process.env).CONFCTL_CONFIG_DIR;
  if (cwd) mkdirSync(cwd, { recursive: true, mode: 0o700 });
  const conf = new Conf<FileShape>({
    projectName: 'confctl',
    projectSuffix: '',
    ...(cwd ? { cwd } : {}),
    configName: 'profiles',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
  });
  const profiles = () => ({ ...(conf.get('profiles') ?? {}) });
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
      write({ active: activate ? name : conf.get('active'), profiles: { ...profiles(), [name]: clean(profile) } });
    },
    use(name) {
      if (!profiles()[name]) return false;
      write({ ...conf.store, active: name });
      return true;
    },
    remove(name) {
      const all = profiles();
      if (!all[name]) return false;
      delete all[name];
      write({ active: conf.get('active') === name ? undefined : conf.get('active'), profiles: all });
      return true;
    },
  };
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
