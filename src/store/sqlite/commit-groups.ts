import type { CommitGroups } from '../port.js';
import { type Db, noteRollback } from './db.js';

/** Thrown to the members of a group whose transaction SQLite itself rolled back (after an I/O error, say) before its COMMIT. */
export class GroupLost extends Error {
  override name = 'GroupLost';
  constructor() {
    super('the commit group was rolled back before its COMMIT');
  }
}

interface Group {
  /** Groups are numbered from 1 in the order they open. */
  number: number;
  committed: Promise<void>;
  settle(error?: unknown): void;
}

function group(number: number): Group {
  let settle!: Group['settle'];
  const committed = new Promise<void>((resolve, reject) => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a group fails with what its failing member threw, whatever it is
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  // Its members await it; a group nobody waits for must not fail as an unhandled rejection.
  committed.catch(() => undefined);
  return { number, committed, settle };
}

/**
 * The most turns of the event loop a group stays open (`serve`'s store): its COMMIT runs at the end
 * of the first turn in which no write joined it, and at the latest in the third, so that under load
 * the writes of the requests started in the next two turns join it. A group writes each page it
 * dirtied once: under the bench's `POST /customers` (50 × 10 pipelined, turns of 64 requests)
 * the WAL's page writes fell from 2.9 to 1.9 per created customer and the checkpoints' `fsync`s
 * from 35 to 22 per 10,000 in six alternated pairs of runs; the server's CPU per request fell by
 * 8-29 % in four of them and not in two (docs/performance.md). A lone write commits at the end of
 * its turn.
 */
export const GROUP_TURNS = 3;

/**
 * Group commit on one connection (see `CommitGroups` in port.ts). The first `join` opens a
 * transaction with `BEGIN IMMEDIATE`, and its `COMMIT` runs at the end of a turn (`schedule`:
 * the server's `setImmediate`) in which no other `join` came, or of the `turns`th; later `join`s
 * until then share it. Every other statement on the connection meanwhile runs inside it
 * too: a single statement that fails is undone alone (SQLite's statement rollback), and
 * `Store.transaction` becomes a savepoint that undoes only itself. When the COMMIT fails, the
 * group is rolled back whole, its `settled` promises reject with the COMMIT's error, and the
 * connection's change signals move (caches may hold what was rolled back).
 *
 * `read` does the same for reads: the first opens a deferred read transaction, and the reads
 * until it ends share its snapshot instead of each taking and releasing SQLite's locks (about
 * 5 µs of a 6.2 µs primary-key read here, 1.2 µs inside a transaction). Only the requests that
 * began in the synchronous run that opened it share it (a pipelined batch parsed from one read:
 * they had all arrived before its first read, so a commit it does not see is concurrent with
 * them); a request of a later run ends it and opens its own, and `schedule` ends it at the
 * latest. `join` ends it before it begins a group, and so does every other write (`endRead`,
 * called through `beforeWrites`): none ever runs inside it.
 */
export function commitGroups(
  db: Db,
  schedule: (end: () => void) => void = setImmediate,
  turns = 1,
): CommitGroups & { flush(): void; endRead(): void } {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const beginRead = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  let opened = 0;
  let open: Group | undefined;
  /** Another write joined the open group since it opened or since its last turn ended. */
  let joined = false;
  let failed: { number: number; error: unknown } = { number: 0, error: undefined };
  /** The open read transaction's number (see `read`), 0 when none is open. */
  let reading = 0;
  let reads = 0;
  /** The open read transaction began in this synchronous run of the event loop (reset by a microtask). */
  let fresh = false;

  /** Ends the shared read transaction, if one is open: it wrote nothing, so its COMMIT only lets go of the snapshot. */
  function endRead(): void {
    if (reading === 0) return;
    reading = 0;
    if (db.inTransaction) commit.run();
  }

  /** At the end of a turn: commits `g` unless a write joined it in that turn and turns are `left`. */
  function endOfTurn(g: Group, left: number): void {
    if (open !== g) return;
    if (joined && left > 1) {
      joined = false;
      schedule(() => endOfTurn(g, left - 1));
    } else end(g);
  }

  function end(g: Group): void {
    if (open !== g) return;
    open = undefined;
    try {
      if (!db.inTransaction) throw new GroupLost();
      commit.run();
      g.settle();
    } catch (err) {
      if (db.inTransaction) rollback.run();
      failed = { number: g.number, error: err };
      noteRollback(db);
      g.settle(err);
    }
  }

  return {
    join() {
      endRead();
      if (open && !db.inTransaction) end(open);
      if (open) {
        joined = true;
        return;
      }
      begin.run();
      const g = group(++opened);
      open = g;
      joined = false;
      schedule(() => endOfTurn(g, turns));
    },
    read() {
      // Shared only by the requests that began in the run that opened it (see above).
      if (reading !== 0 && !fresh) endRead();
      if (reading !== 0 || db.inTransaction) return;
      beginRead.run();
      const number = (reading = ++reads);
      fresh = true;
      queueMicrotask(() => void (fresh = false));
      schedule(() => {
        if (reading === number) endRead();
      });
    },
    endRead,
    mark: () => (open ? opened : opened + 1),
    settled(mark) {
      if (failed.number >= mark) return Promise.reject(failed.error);
      return open?.committed;
    },
    /** Commits the open group now, and ends the shared read transaction (before the connection closes). */
    flush() {
      endRead();
      if (open) end(open);
    },
  };
}
