import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir, writePrivateFile } from '../media/files.js';
import { instanceClock } from '../contract/clock.js';

/**
 * A local instance's data directory (decisions §8): `confctl.db` (SQLite, WAL), `media/`
 * (recording files, unless a media directory is given elsewhere) and `instance.json` (the
 * URL-signing secret, mode 0600).
 */
export interface DataDir {
  dir: string;
  database: string;
  mediaDir: string;
  instanceFile: string;
}

/** `--data`, else `CONFCTL_DATA`, else `$XDG_DATA_HOME/confctl` or `~/.local/share/confctl`. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return flag;
  if (env.CONFCTL_DATA) return env.CONFCTL_DATA;
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'confctl');
}

/**
 * The recording files' directory: `--media`, else `CONFCTL_MEDIA_DIR`, else the data directory's
 * `media/`. Several instances sharing one database share it too (a shared volume).
 */
export function resolveMediaDir(flag: string | undefined, env: NodeJS.ProcessEnv, dataDir: string): string {
  return flag || env.CONFCTL_MEDIA_DIR || join(dataDir, 'media');
}

/** The paths of a data directory, nothing created; `mediaDir` defaults to its `media/`. */
export function dataDirLayout(dir: string, mediaDir: string = join(dir, 'media')): DataDir {
  return { dir, database: join(dir, 'confctl.db'), mediaDir, instanceFile: join(dir, 'instance.json') };
}

/** Creates the directory layout (idempotent; what it creates is 0700) and answers its paths. */
export function prepareDataDir(dir: string, mediaDir?: string): DataDir {
  const layout = dataDirLayout(dir, mediaDir);
  ensurePrivateDir(layout.dir);
  ensurePrivateDir(layout.mediaDir);
  return layout;
}

interface InstanceFile {
  signing_secret: string;
  created_at: string;
}

/** Reads the instance's signing secret, creating `instance.json` (0600) on first use. */
export function instanceSecret(layout: DataDir, now: Date = instanceClock().now()): string {
  if (existsSync(layout.instanceFile)) {
    const parsed = JSON.parse(readFileSync(layout.instanceFile, 'utf8')) as Partial<InstanceFile>;
    if (typeof parsed.signing_secret === 'string' && parsed.signing_secret.length >= 32) return parsed.signing_secret;
    throw new Error(`${layout.instanceFile} has no valid signing_secret; remove it to create a new one`);
  }
  const content: InstanceFile = { signing_secret: randomBytes(32).toString('hex'), created_at: now.toISOString() };
  writePrivateFile(layout.instanceFile, `${JSON.stringify(content, null, 2)}\n`);
  return content.signing_secret;
}

/**
 * A warning when other users may list or read the data directory (group or other permission
 * bits set): the files in it are owner-only, but their names and any file copied in with a
 * wider mode are not. Undefined when the directory is private (or on Windows, which has no modes).
 */
export function exposureWarning(dir: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32') return undefined;
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  return `warning: the data directory ${dir} is accessible to other users (mode ${mode.toString(8).padStart(4, '0')}); run: chmod 700 '${dir}'`;
}
