import { chmodSync, closeSync, existsSync, linkSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { migrate } from './migrations.js';

export type Db = Database.Database;

/** How long a connection waits for another writer by default (admin commands, start-up). */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating if needed) the SQLite database and brings its schema up to date.
 *
 * Pragmas: WAL for file databases (readers never block the writer); `foreign_keys=ON`;
 * `busy_timeout` (default 5000 ms) so a concurrent writer (e.g. an admin command while `serve`
 * runs) waits instead of failing; `synchronous=NORMAL`, chosen over FULL because in WAL mode it
 * measured about 3.7x the insert rate here while still keeping every committed transaction
 * across a process crash. Only a power loss or OS crash can lose the last transactions (never
 * corrupt). `temp_store=MEMORY` keeps statement journals in memory: every statement of a
 * transaction that holds others (a commit group) opens a savepoint, and the statement that
 * writes the pending trigram texts (trigram.ts) rewrites pages the transaction's earlier
 * statements dirtied; when FTS5 wrote each insert's texts at its own savepoint, the journal of
 * those pages went to a temporary file past 64 KiB, and a `POST /customers` cost about 60 µs more
 * CPU (docs/performance.md). Such a journal holds at most the pages its transaction dirtied;
 * SQLite's sorter spills to files whatever this setting.
 *
 * The database file is created owner-only (0600) whatever the umask, and an existing one (with
 * its `-wal` and `-shm` files) readable by others is narrowed to 0600; SQLite gives the `-wal`
 * and `-shm` files it creates the database file's mode.
 */
export function openDatabase(location: string): Db {
  const isFile = location !== ':memory:' && location !== '';
  if (isFile) {
    startFromImage(location);
    ownerOnly(location);
  }
  const db = location === ':memory:' ? new Database(migratedImage()) : new Database(location);
  if (isFile) db.pragma('journal_mode = WAL');
  connectionPragmas(db);
  migrate(db);
  return db;
}

function connectionPragmas(db: Db): void {
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${DEFAULT_BUSY_TIMEOUT_MS}`);
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
}

let image: Buffer | undefined;

/**
 * A database with every migration applied and nothing else, serialized once per process: a new
 * database starts as a copy of it (in memory, or written as the new file) instead of running the
 * twenty migrations one after another, about 12 ms of CPU each time (the test suite makes about a
 * thousand). Made by the same `migrate` on a connection set up as `openDatabase` sets one up, so
 * a copy holds what the migrations leave: the same schema, rows and `user_version`.
 */
function migratedImage(): Buffer {
  if (!image) {
    const db = new Database(':memory:');
    try {
      connectionPragmas(db);
      migrate(db);
      image = db.serialize();
    } finally {
      db.close();
    }
  }
  return image;
}

/**
 * Writes the migrated image as the database at `location` when nothing is there yet (no database,
 * no `-wal` or `-shm` left behind). The image goes to a file of its own first and is then linked
 * into place, which fails if another process created the database meanwhile: a database being
 * opened or migrated elsewhere is never written over. Any failure (a missing or read-only
 * directory) leaves the path as it was, for the plain open to create, or to report as it does.
 */
function startFromImage(location: string): void {
  if ([location, `${location}-wal`, `${location}-shm`].some((file) => existsSync(file))) return;
  const staged = `${location}.${process.pid}.new`;
  try {
    writeFileSync(staged, migratedImage(), { mode: 0o600, flag: 'wx' });
    linkSync(staged, location);
  } catch {
    // Another process's database, or a path the plain open reports on.
  } finally {
    rmSync(staged, { force: true });
  }
}

function ownerOnly(database: string): void {
  closeSync(openSync(database, 'a', 0o600));
  for (const file of [database, `${database}-wal`, `${database}-shm`]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
}

/**
 * Runs `fn` in a write transaction that takes the write lock at `BEGIN IMMEDIATE`, before its
 * first read. A deferred `BEGIN` reads under a snapshot and then fails with SQLITE_BUSY when
 * another connection committed in between, whatever the busy timeout (SQLite cannot upgrade a
 * stale snapshot to a write). Nested calls become savepoints of the outer transaction.
 */
export function immediate<A extends unknown[], T>(db: Db, fn: (...args: A) => T): (...args: A) => T {
  const tx = db.transaction(fn);
  return (...args: A) => tx.immediate(...args);
}

/** Rolled-back commit groups per connection (`noteRollback`): the change signals move with them too. */
const rollbacks = new WeakMap<Db, number>();

/**
 * Records that a commit group on `db` was rolled back whole (see commit-groups.ts): what it wrote
 * is gone though `total_changes()` counted it, so caches filled meanwhile must be dropped.
 */
export function noteRollback(db: Db): void {
  rollbacks.set(db, (rollbacks.get(db) ?? 0) + 1);
}

/** Records that the database's rows were replaced on `db` (a snapshot restored): the change signals move as after a rollback. */
export const noteReplaced = noteRollback;

/**
 * A cheap signal that moves whenever the database may have changed: `PRAGMA data_version`
 * moves with other connections' commits (an admin command beside `serve`), `total_changes()`
 * with this connection's own writes, `noteRollback` with its rolled-back commit groups. One
 * prepared single-row read (the pragma as a table-valued function), a microsecond or two;
 * compare the strings it returns to know when a cache drawn from the database must be dropped.
 */
export function changeSignal(db: Db): () => string {
  const signal = db.prepare("SELECT data_version || ':' || total_changes() FROM pragma_data_version").pluck();
  return () => `${signal.get() as string}:${rollbacks.get(db) ?? 0}`;
}

/** A change signal narrowed to the tables whose writers call `wrote()` (see `narrowChangeSignal`). */
export interface NarrowSignal {
  token: () => string;
  wrote: () => void;
}

/**
 * `changeSignal` narrowed to the tables whose writers call the returned `wrote()`: the token moves
 * with other connections' commits (`PRAGMA data_version`), with each `wrote()` of this
 * connection (a write rolled back afterwards only costs an extra refresh) and with its
 * rolled-back commit groups. The pragma is read
 * once per synchronous run of the event loop and reused until its microtasks start. The requests
 * handled in one run (a pipelined batch parsed from one read) had all arrived before the run
 * began, so a commit the first read did not see finished after every one of them was sent: it
 * is concurrent with them, and the next run sees it. The read was about 7 % of the server's CPU
 * for `GET /users/{id}` under pipelined load. `narrow()` makes another signal, for other tables,
 * that shares the pragma's read.
 */
export function narrowChangeSignal(db: Db): NarrowSignal & { narrow: () => NarrowSignal } {
  const version = db.prepare('PRAGMA data_version').pluck();
  let current: number | undefined;
  const forget = () => void (current = undefined);
  const versionNow = () => {
    if (current === undefined) {
      current = version.get() as number;
      queueMicrotask(forget);
    }
    return current;
  };
  const narrow = (): NarrowSignal => {
    let writes = 0;
    return {
      token: () => `${versionNow()}:${writes}:${rollbacks.get(db) ?? 0}`,
      wrote: () => void writes++,
    };
  };
  return { ...narrow(), narrow };
}

