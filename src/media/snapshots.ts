/**
 * A snapshot is the store's rows plus the recording files (see store/snapshots.ts): saving reads
 * the media directory into it, restoring puts the store's rows back and then makes the media
 * directory hold exactly the snapshot's files. Both `admin snapshot` and `serve --test-controls`
 * run these.
 */
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { checkSnapshotName, SnapshotError, type SnapshotFile, type SnapshotInfo, type SnapshotStore } from '../store/snapshots.js';
import { ensurePrivateDir, filesUnder, PRIVATE_FILE_MODE } from './files.js';

/** What a restore did besides the rows. */
export interface Restored extends SnapshotInfo {
  /** Recording files written (absent or different before). */
  media_written: number;
  /** Recording files removed (not in the snapshot). */
  media_removed: number;
}

/** Saves the store's snapshot tables and every file under `mediaDir` as `name` (replacing one of that name only with `replace`). */
export async function saveSnapshot(snapshots: SnapshotStore, mediaDir: string, name: string, options: { now: Date; replace: boolean }): Promise<SnapshotInfo> {
  checkSnapshotName(name);
  const files = filesUnder(mediaDir).map((rel) => ({ path: rel.split(path.sep).join('/'), content: readFileSync(path.join(mediaDir, rel)) }));
  return snapshots.save(name, files, options.now.toISOString(), options.replace);
}

/**
 * Restores `name`: its files are checked first (a path leaving the media directory refuses the
 * snapshot before anything changes), then the rows are put back in one transaction, then the
 * media directory is made to hold exactly its files.
 */
export async function restoreSnapshot(snapshots: SnapshotStore, mediaDir: string, name: string): Promise<Restored> {
  checkSnapshotName(name);
  const { info, files } = await snapshots.restore(name, checkFiles);
  return { ...info, ...putFiles(mediaDir, files) };
}

function checkFiles(files: readonly SnapshotFile[]): void {
  const bad = files.find((f) => !safeMediaPath(f.path));
  if (bad) throw new SnapshotError('invalid_name', `The snapshot holds a file outside the media directory: ${bad.path}`);
}

/** Whether a snapshot's file path stays inside the media directory: relative, `/`-separated, no `.` or `..` segment. */
export function safeMediaPath(p: string): boolean {
  return p.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !segment.includes('\\')) && !path.isAbsolute(p);
}

/** Makes `mediaDir` hold exactly `files`: removes the others, writes each that is absent or different (to a temporary name, then renamed). */
function putFiles(mediaDir: string, files: readonly SnapshotFile[]): { media_written: number; media_removed: number } {
  const wanted = new Map(files.map((f) => [f.path, f.content]));
  let removed = 0;
  for (const rel of filesUnder(mediaDir)) {
    if (wanted.has(rel.split(path.sep).join('/'))) continue;
    rmSync(path.join(mediaDir, rel), { force: true });
    removed++;
  }
  let written = 0;
  for (const [p, content] of wanted) {
    const target = path.join(mediaDir, ...p.split('/'));
    if (sameContent(target, content)) continue;
    ensurePrivateDir(path.dirname(target));
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    writeFileSync(temp, content, { mode: PRIVATE_FILE_MODE });
    chmodSync(temp, PRIVATE_FILE_MODE);
    renameSync(temp, target);
    written++;
  }
  return { media_written: written, media_removed: removed };
}

function sameContent(file: string, content: Buffer): boolean {
  try {
    return readFileSync(file).equals(content);
  } catch {
    return false;
  }
}
