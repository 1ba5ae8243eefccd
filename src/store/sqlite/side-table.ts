/**
 * A table built in a side database file while the main connection works on something else, then
 * copied into its empty counterpart (store/sqlite/bulk.ts loads the customers so at a large seed):
 * the rows are written into the side file through a connection of its own, its indexes are built
 * there by a worker thread (the second core) while the main thread goes on with the load, and the
 * copy is SQLite's transfer of a table with its indexes (`INSERT INTO t SELECT * FROM side.t`
 * into an empty table with no INSERT trigger and foreign keys not enforced): records and index
 * keys copied in order, no sort. The side file is owner-only, written without a journal or syncs
 * (it is scratch: a crash leaves the main database as it was), and deleted at `close`.
 */
import { closeSync, openSync, rmSync } from 'node:fs';
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Db } from './db.js';
import { spawnModuleWorker } from './module-worker.js';
import { realMs } from '../../contract/clock.js';

/** What the worker is given: the side file, the statements to run in one transaction, its pragmas, and where to mark its progress. */
export interface SideJob {
  file: string;
  statements: string[];
  pragmas: Record<string, number>;
  /** Slot 0: SIDE_BOOTING, SIDE_RUNNING or SIDE_ENDED. */
  state: Int32Array;
  /** Where the worker posts the message of the error it failed with, before it marks its end. */
  port: MessagePort;
}

export const SIDE_BOOTING = 0;
export const SIDE_RUNNING = 1;
export const SIDE_ENDED = 2;
/** How long a worker may take to start running its module before the load gives up on it (one that fails to load never marks its end). */
const BOOT_MS = 60_000;
/** The name the side file is attached under for the copy. */
const SIDE_SCHEMA = 'bulk_side';

export interface SideTable {
  /** The side file's connection, where the rows are written (closed by `build`). */
  readonly db: Db;
  /** Closes `db` and starts building the table's indexes on a worker thread with `pragmas`. */
  build(pragmas: Record<string, number>): void;
  /** Waits for the build (throwing the worker's error) and copies the table into the main database's, which must be empty. */
  copy(): void;
  /** Waits for a build still running, detaches and deletes the side file; run once the main connection's transaction has ended. */
  close(): void;
}

/** A side file for `table` of `main`, with the table as `main` creates it and without its indexes. */
export function sideTable(main: Db, table: string): SideTable {
  const schema = main.prepare("SELECT type, sql FROM sqlite_schema WHERE tbl_name = ? AND type IN ('table', 'index') AND sql IS NOT NULL ORDER BY rowid").all(table) as {
    type: string;
    sql: string;
  }[];
  const file = `${main.name}.bulk-${table}`;
  rmSync(file, { force: true });
  closeSync(openSync(file, 'wx', 0o600));
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  // better-sqlite3 enforces them by default; the parent tables are in the main database.
  db.pragma('foreign_keys = OFF');
  db.exec(schema.find((s) => s.type === 'table')!.sql);
  let wait = () => {};
  let attached = false;
  return {
    db,
    build(pragmas) {
      db.close();
      wait = startBuild(file, schema.filter((s) => s.type === 'index').map((s) => s.sql), pragmas);
    },
    copy() {
      wait();
      main.prepare(`ATTACH ? AS ${SIDE_SCHEMA}`).run(file);
      attached = true;
      if ((main.prepare(`SELECT count(*) FROM main."${table}"`).pluck().get() as number) !== 0) throw new Error(`the side copy of ${table} needs the table empty`);
      main.exec(`INSERT INTO main."${table}" SELECT * FROM ${SIDE_SCHEMA}."${table}"`);
    },
    close() {
      if (db.open) db.close();
      try {
        wait();
      } catch {
        // The load failed already (or fails on this error in `copy`); the file goes either way.
      }
      if (attached) main.exec(`DETACH ${SIDE_SCHEMA}`);
      rmSync(file, { force: true });
    },
  };
}

/** Starts the worker on `statements`; answers a wait for its end that throws its error (once; later calls return at once). */
function startBuild(file: string, statements: string[], pragmas: Record<string, number>): () => void {
  const state = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const { port1, port2 } = new MessageChannel();
  const job: SideJob = { file, statements, pragmas, state, port: port2 };
  const worker = spawnModuleWorker(import.meta.url, 'side-index-worker', { workerData: job, transferList: [port2] });
  worker.unref();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const started = realMs();
    try {
      for (let s = Atomics.load(state, 0); s !== SIDE_ENDED; s = Atomics.load(state, 0)) {
        if (s === SIDE_BOOTING && realMs() - started > BOOT_MS) throw new Error(`the index worker for ${file} did not start in ${BOOT_MS / 1000} s`);
        Atomics.wait(state, 0, s, 1000);
      }
      const failed = receiveMessageOnPort(port1)?.message as string | undefined;
      if (failed !== undefined) throw new Error(`building the indexes aside failed: ${failed}`);
    } finally {
      port1.close();
    }
  };
}
