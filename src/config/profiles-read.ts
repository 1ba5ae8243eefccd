/**
 * Reads the profile file directly, without conf (which loads ajv and more at every start): for the
 * commands that only use the active profile. conf keeps writing the file (openProfiles); this
 * reader finds it where conf puts it, and hands anything it cannot read plainly (a file that is
 * not a JSON object) to conf, so errors stay conf's.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { systemKeyring } from './keyring.js';
import { type Env, type FileShape, openProfiles, type ProfileReader, secretOf, type StoreLocation } from './profiles.js';

/** conf's directory for project `confctl` when no `cwd` is given (its env-paths `config` directory). */
export function defaultConfigDir(env: Env = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'confctl');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'confctl', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'confctl');
}

/** The profile file's path, as conf computes it for `openProfiles(location)`. */
export function profilesPath(location: StoreLocation = {}): string {
  const env = location.env ?? process.env;
  return join(location.dir ?? (env.CONFCTL_CONFIG_DIR || defaultConfigDir(env)), 'profiles.json');
}

/** The saved profiles for reading; no file yet reads as no profiles. */
export async function readProfiles(location: StoreLocation = {}): Promise<ProfileReader> {
  const path = profilesPath(location);
  let data: FileShape;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return openProfiles(location);
    data = parsed;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') data = {};
    else return openProfiles(location);
  }
  const profiles = data.profiles ?? {};
  let chosen = location.keyring;
  const keyring = () => (chosen ??= systemKeyring());
  const get = (name: string) => (Object.hasOwn(profiles, name) ? profiles[name] : undefined);
  return {
    path,
    active: () => (data.active && get(data.active) ? data.active : undefined),
    get,
    secret: (name) => secretOf(name, get(name), keyring),
  };
}
