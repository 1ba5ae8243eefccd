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
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  // Its members await it; a group nobody waits for must not fail as an unhandled rejection.
  committed.catch(() => undefined);
  return { number, committed, settle };
}

/**
 * Group commit on one connection (see `CommitGroups` in port.ts). The first `join` opens a
 * transaction with `BEGIN IMMEDIATE` and schedules its `COMMIT` with `schedule` (the server's:
 * `setImmediate`, once the requests parsed in this turn of the event loop have run); later
 * `join`s until then share it. Every other statement on the connection meanwhile runs inside it
 * too: a single statement that fails is undone alone (SQLite's statement rollback), and
 * `Store.transaction` becomes a savepoint that undoes only itself. When the COMMIT fails, the
 * group is rolled back whole, its `settled` promises reject with the COMMIT's error, and the
 * connection's change signals move (caches may hold what was rolled back).
 */
export function commitGroups(db: Db, schedule: (commit: () => void) => void = setImmediate): CommitGroups & { flush(): void } {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  let opened = 0;
  let open: Group | undefined;
  let failed: { number: number; error: unknown } = { number: 0, error: undefined };

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
      if (open && !db.inTransaction) end(open);
      if (open) return;
      begin.run();
      const g = group(++opened);
      open = g;
      schedule(() => end(g));
    },
    mark: () => (open ? opened : opened + 1),
    settled(mark) {
      if (failed.number >= mark) return Promise.reject(failed.error);
      return open?.committed;
    },
    /** Commits the open group now (before the connection closes). */
    flush() {
      if (open) end(open);
    },
  };
}
