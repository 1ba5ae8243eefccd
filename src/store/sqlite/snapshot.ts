/**
 * Whole-database copies for backups, kept in the store because only it knows the backend.
 *
 * `VACUUM INTO` writes one consistent snapshot (a single read transaction) even while other
 * processes keep writing; SQLite's page-by-page backup API instead restarts whenever another
 * connection writes, and may never finish under load. The copy is compact (a vacuumed file).
 */
import { closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { DEFAULT_BUSY_TIMEOUT_MS } from './db.js';

/** What a database file says about itself. */
export interface DatabaseInfo {
  schemaVersion: number;
  /** `ok`, or the first problems `PRAGMA integrity_check` names. */
  integrity: string;
}

/** Copies the database at `source` (which must exist) into the new file `target`, created 0600. */
export function snapshotDatabase(source: string, target: string): DatabaseInfo {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${DEFAULT_BUSY_TIMEOUT_MS}`);
    closeSync(openSync(target, 'wx', 0o600));
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  return inspectDatabase(target);
}

/** Reads a database file's schema version and checks its integrity, without changing it. */
export function inspectDatabase(file: string): DatabaseInfo {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    const problems = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    return { schemaVersion, integrity: problems.map((p) => p.integrity_check).slice(0, 3).join('; ') };
  } finally {
    db.close();
  }
}
