/**
 * SQLite snapshots: one database file each, `snapshots/NAME.db` beside the live database. A save
 * is `VACUUM INTO` (one consistent read of the whole database, also while others write) plus two
 * tables of its own: the snapshot's facts and its recording files. A restore attaches that file
 * and, in one IMMEDIATE transaction, deletes every snapshot table's rows and copies the
 * snapshot's back; readers (serve's read workers, another process) see the old state or the new,
 * never a mix, and a writer meanwhile waits for the lock (serve: retries, then 503).
 */
import { realMs } from '../../contract/clock.js';
import { chmodSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../../media/files.js';
import { checkSnapshotName, SNAPSHOT_TABLES, SnapshotError, type SnapshotFile, type SnapshotInfo, type SnapshotStore } from '../snapshots.js';
import type { Db } from './db.js';
import { migrate, SCHEMA_VERSION } from './migrations.js';

const META = 'confctl_snapshot';
const FILES = 'confctl_snapshot_files';

/** What the store does around a snapshot on its connection. */
export interface SnapshotHooks {
  /** Commits the open commit group and ends the shared read transaction (VACUUM and ATTACH run outside any). */
  settle(): void;
  /** Moves the change tokens after a restore (the tenancy token does not see this connection's writes by itself). */
  replaced(): void;
}

/** The snapshots of the database at `location` (a file; `:memory:` has none). */
export function sqliteSnapshots(db: Db, location: string, hooks: SnapshotHooks): SnapshotStore {
  const dir = path.join(path.dirname(path.resolve(location)), 'snapshots');
  const fileOf = (name: string) => {
    if (location === ':memory:' || location === '') throw new SnapshotError('unsupported', 'An in-memory database has no snapshots.');
    return path.join(dir, `${checkSnapshotName(name)}.db`);
  };

  return {
    save(name, files, createdAt, replace) {
      const target = fileOf(name);
      if (existsSync(target) && !replace) throw new SnapshotError('exists', `A snapshot named '${name}' exists already.`);
      ensurePrivateDir(dir);
      const temp = path.join(dir, `.${name}.${process.pid}.${realMs()}.tmp`);
      try {
        hooks.settle();
        db.prepare('VACUUM INTO ?').run(temp);
        const info = writeExtras(temp, name, files, createdAt);
        chmodSync(temp, PRIVATE_FILE_MODE);
        renameSync(temp, target);
        return info;
      } finally {
        rmSync(temp, { force: true });
      }
    },

    restore(name, checkFiles) {
      const file = fileOf(name);
      if (!existsSync(file)) throw new SnapshotError('not_found', `There is no snapshot named '${name}'.`);
      const { info, files } = readSnapshot(file, name);
      checkFiles?.(files);
      hooks.settle();
      db.prepare('ATTACH DATABASE ? AS snapshot').run(file);
      try {
        db.transaction(() => {
          // Checked at COMMIT: the rows are consistent once all are back, not table by table.
          db.pragma('defer_foreign_keys = ON');
          for (const table of [...SNAPSHOT_TABLES].reverse()) db.prepare(`DELETE FROM main.${table}`).run();
          for (const table of SNAPSHOT_TABLES) {
            const columns = (db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(table) as string[]).map((c) => `"${c}"`).join(', ');
            db.prepare(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM snapshot.${table}`).run();
          }
        }).immediate();
      } finally {
        db.prepare('DETACH DATABASE snapshot').run();
        hooks.replaced();
      }
      return { info, files };
    },

    list() {
      if (location === ':memory:' || !existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((f) => f.endsWith('.db') && !f.startsWith('.'))
        .map((f) => readInfo(path.join(dir, f), f.slice(0, -'.db'.length)))
        .sort((a, b) => a.name.localeCompare(b.name));
    },

    remove(name) {
      const file = fileOf(name);
      if (!existsSync(file)) return false;
      rmSync(file);
      return true;
    },
  };
}

/** Adds the snapshot's facts and files to the copy at `file`. */
function writeExtras(file: string, name: string, files: readonly SnapshotFile[], createdAt: string): SnapshotInfo {
  const db = new Database(file);
  try {
    db.exec(`CREATE TABLE ${META} (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE ${FILES} (path TEXT PRIMARY KEY, content BLOB NOT NULL);`);
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    db.transaction(() => {
      db.prepare(`INSERT INTO ${META} (key, value) VALUES ('created_at', ?)`).run(createdAt);
      const add = db.prepare(`INSERT INTO ${FILES} (path, content) VALUES (?, ?)`);
      for (const f of files) add.run(f.path, f.content);
    })();
    return { name, created_at: createdAt, schema_version: schemaVersion, media_files: files.length };
  } finally {
    db.close();
  }
}

/** A snapshot's facts, without opening it for writing. */
function readInfo(file: string, name: string): SnapshotInfo {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      name,
      created_at: db.prepare(`SELECT value FROM ${META} WHERE key = 'created_at'`).pluck().get() as string,
      schema_version: db.pragma('user_version', { simple: true }) as number,
      media_files: db.prepare(`SELECT count(*) FROM ${FILES}`).pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

/**
 * The snapshot's facts and files, its schema first brought up to this build's (a snapshot of an
 * older confctl is upgraded in place, as its data directory would be); one of a newer build is
 * refused.
 */
function readSnapshot(file: string, name: string): { info: SnapshotInfo; files: SnapshotFile[] } {
  const info = readInfo(file, name);
  if (info.schema_version > SCHEMA_VERSION) {
    throw new SnapshotError('newer_schema', `The snapshot '${name}' has schema version ${info.schema_version}, newer than this confctl's ${SCHEMA_VERSION}: restore it with a newer confctl.`);
  }
  const db = new Database(file, { fileMustExist: true });
  try {
    if (info.schema_version < SCHEMA_VERSION) migrate(db);
    const files = db.prepare(`SELECT path, content FROM ${FILES} ORDER BY path`).all() as SnapshotFile[];
    return { info: { ...info, schema_version: SCHEMA_VERSION }, files };
  } finally {
    db.close();
  }
}
