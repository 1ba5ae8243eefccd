/**
 * `confctl admin backup` and `admin restore`: a local instance as one directory.
 *
 * A backup directory holds `confctl.db` (a `VACUUM INTO` snapshot, consistent even while `serve`
 * writes), `instance.json` (the URL-signing secret, so signed links made before still verify),
 * `media/` (every recording file) and `backup.json` (what it is, its schema version, when).
 * Media files are copied after the snapshot: a recording's file is in place before its row is
 * committed and is never removed, so every file the snapshot names is copied (newer ones too).
 * Everything is written owner-only into a temporary sibling and renamed into place at the end,
 * so a failed backup leaves no half-written PATH.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { copyPrivateFile, ensurePrivateDir, filesUnder, writePrivateFile } from '../media/files.js';
import { inspectDatabase, SCHEMA_VERSION, snapshotDatabase } from '../store/index.js';
import { AdminError } from './errors.js';

export const MANIFEST = 'backup.json';
const DATABASE = 'confctl.db';
const INSTANCE = 'instance.json';
const MEDIA = 'media';

/** `backup.json`. */
export interface Manifest {
  format: 'confctl-backup';
  schema_version: number;
  created_at: string;
  media_files: number;
}

/** What a backup would do (printed as is by `--dry-run`). */
export interface BackupPlan {
  from: string;
  /** Where the recording files come from: the data directory's `media/` or `--media`. */
  media: string;
  to: string;
  /** The database file and its write-ahead log, an upper bound of the snapshot's size. */
  database_bytes: number;
  media_files: number;
  media_bytes: number;
  /** True when `to` exists and `--force` replaces it. */
  replaces: boolean;
}

export interface RestorePlan {
  from: string;
  to: string;
  /** Where the recording files go: the restored directory's `media/` or `--media`. */
  media: string;
  schema_version: number;
  created_at: string;
  media_files: number;
}

const inside = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** Checks a backup of `dataDir` into `to` can run, and says what it would copy. */
export function planBackup(dataDir: string, to: string, options: { force: boolean; mediaDir?: string }): BackupPlan {
  const from = path.resolve(dataDir);
  const mediaDir = path.resolve(options.mediaDir ?? path.join(from, MEDIA));
  const target = path.resolve(to);
  const database = path.join(from, DATABASE);
  if (!existsSync(database)) throw new AdminError('not_found', `${from} holds no confctl instance (no ${DATABASE}).`);
  if (inside(target, from) || inside(from, target)) {
    throw new AdminError('invalid', `The backup ${target} and the data directory ${from} must not contain one another.`);
  }
  const replaces = existsSync(target);
  if (replaces && !options.force) throw new AdminError('conflict', `${target} already exists; pass --force to replace it.`);
  const media = filesUnder(mediaDir);
  return {
    from,
    media: mediaDir,
    to: target,
    // The write-ahead log holds committed pages not yet copied into the file.
    database_bytes: [database, `${database}-wal`].reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0),
    media_files: media.length,
    media_bytes: media.reduce((sum, f) => sum + statSync(path.join(mediaDir, f)).size, 0),
    replaces,
  };
}

/** Runs a planned backup; answers its manifest. */
export function runBackup(plan: BackupPlan, now: Date): Manifest {
  const suffix = randomBytes(4).toString('hex');
  const temp = `${plan.to}.partial-${suffix}`;
  const old = `${plan.to}.replaced-${suffix}`;
  try {
    ensurePrivateDir(temp);
    const { schemaVersion, integrity } = snapshotDatabase(path.join(plan.from, DATABASE), path.join(temp, DATABASE));
    if (integrity !== 'ok') throw new AdminError('invalid', `The database of ${plan.from} fails its integrity check: ${integrity}`);
    if (existsSync(path.join(plan.from, INSTANCE))) copyPrivateFile(path.join(plan.from, INSTANCE), path.join(temp, INSTANCE));
    ensurePrivateDir(path.join(temp, MEDIA));
    const media = filesUnder(plan.media);
    for (const f of media) copyPrivateFile(path.join(plan.media, f), path.join(temp, MEDIA, f));
    const manifest: Manifest = { format: 'confctl-backup', schema_version: schemaVersion, created_at: now.toISOString(), media_files: media.length };
    writePrivateFile(path.join(temp, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // A replaced PATH is moved aside first and removed only once the new backup is in place.
    if (existsSync(plan.to)) renameSync(plan.to, old);
    renameSync(temp, plan.to);
    return manifest;
  } catch (err) {
    if (existsSync(old) && !existsSync(plan.to)) renameSync(old, plan.to);
    throw err;
  } finally {
    rmSync(temp, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

function readManifest(from: string): Manifest {
  let manifest: Partial<Manifest> | undefined;
  try {
    manifest = JSON.parse(readFileSync(path.join(from, MANIFEST), 'utf8')) as Partial<Manifest>;
  } catch {
    // reported below
  }
  if (manifest?.format !== 'confctl-backup' || !existsSync(path.join(from, DATABASE))) {
    throw new AdminError('not_found', `${from} is not a confctl backup (no valid ${MANIFEST} and ${DATABASE}).`);
  }
  return manifest as Manifest;
}

/**
 * Checks a restore of the backup `from` into `dataDir` can run: the backup is whole and not of a
 * newer schema than this confctl knows, and `dataDir` is absent or empty.
 */
export function planRestore(from: string, dataDir: string, mediaDir?: string): RestorePlan {
  const source = path.resolve(from);
  const to = path.resolve(dataDir);
  const media = path.resolve(mediaDir ?? path.join(to, MEDIA));
  const manifest = readManifest(source);
  let info: ReturnType<typeof inspectDatabase>;
  try {
    info = inspectDatabase(path.join(source, DATABASE));
  } catch (err) {
    throw new AdminError('invalid', `The backup's database cannot be read: ${(err as Error).message}`);
  }
  if (info.schemaVersion > SCHEMA_VERSION) {
    throw new AdminError('conflict', `The backup has schema version ${info.schemaVersion}, newer than this confctl's ${SCHEMA_VERSION}; restore it with a newer confctl.`);
  }
  if (info.integrity !== 'ok') throw new AdminError('invalid', `The backup's database fails its integrity check: ${info.integrity}`);
  if (existsSync(to) && (!statSync(to).isDirectory() || readdirSync(to).length > 0)) {
    throw new AdminError('conflict', `${to} is not empty; restore into a new or empty directory.`);
  }
  if (mediaDir !== undefined && existsSync(media) && (!statSync(media).isDirectory() || readdirSync(media).length > 0)) {
    throw new AdminError('conflict', `${media} is not empty; restore the recording files into a new or empty directory.`);
  }
  return { from: source, to, media, schema_version: info.schemaVersion, created_at: manifest.created_at, media_files: filesUnder(path.join(source, MEDIA)).length };
}

/**
 * Runs a planned restore. The database is copied last and renamed into place, so the directory
 * never looks like a whole instance before it is one; on failure everything written is removed.
 * An older schema is brought up to date the first time the instance is opened.
 */
export function runRestore(plan: RestorePlan): void {
  const created = !existsSync(plan.to);
  try {
    ensurePrivateDir(plan.media);
    for (const f of filesUnder(path.join(plan.from, MEDIA))) copyPrivateFile(path.join(plan.from, MEDIA, f), path.join(plan.media, f));
    if (existsSync(path.join(plan.from, INSTANCE))) copyPrivateFile(path.join(plan.from, INSTANCE), path.join(plan.to, INSTANCE));
    const partial = path.join(plan.to, `.${DATABASE}.partial`);
    copyPrivateFile(path.join(plan.from, DATABASE), partial);
    renameSync(partial, path.join(plan.to, DATABASE));
  } catch (err) {
    if (created) rmSync(plan.to, { recursive: true, force: true });
    else for (const entry of readdirSync(plan.to)) rmSync(path.join(plan.to, entry), { recursive: true, force: true });
    throw err;
  }
}
