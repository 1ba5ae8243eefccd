/**
 * Files a data directory holds (recordings, the instance file, backups) are the owner's only:
 * files 0600 and the directories we create 0700, whatever the process umask.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates `dir` and its missing parents (existing ones keep their mode); every recursive mkdir of
 * ours goes through here. A relative `dir` is made absolute first: Node's recursive mkdir of a
 * relative path loops for ever, at full CPU, once the working directory has been removed, where
 * resolving it fails at once (ENOENT, uv_cwd).
 */
export function makeDirs(dir: string, mode?: number): void {
  mkdirSync(path.resolve(dir), { recursive: true, mode });
}

/** Creates `dir` and its missing parents as 0700, whatever the umask (existing ones keep their mode). */
export function ensurePrivateDir(dir: string): void {
  makeDirs(dir, PRIVATE_DIR_MODE);
}

/** Writes `file` as 0600 (also when it existed with another mode), creating its directory. */
export function writePrivateFile(file: string, data: string | Uint8Array): void {
  ensurePrivateDir(path.dirname(file));
  writeFileSync(file, data, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
}

/** Copies `from` to `to` as 0600 (a plain copy would keep the source's mode). */
export function copyPrivateFile(from: string, to: string): void {
  ensurePrivateDir(path.dirname(to));
  copyFileSync(from, to);
  chmodSync(to, PRIVATE_FILE_MODE);
}

/** Relative paths of the files under `dir` (none when it is absent), skipping in-progress temp files (`.NAME….tmp`). */
export function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(prefix, e.name);
    if (e.isDirectory()) return filesUnder(path.join(dir, e.name), rel);
    return e.isFile() && !(e.name.startsWith('.') && e.name.endsWith('.tmp')) ? [rel] : [];
  });
}
