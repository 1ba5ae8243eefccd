import type Database from 'better-sqlite3';
import type { Db } from './db.js';

const EXECUTING = ['run', 'get', 'all', 'iterate'] as const;

/**
 * Makes every write on `db` call `before()` first: each statement that is not read-only (on its
 * run, get, all and iterate), `exec`, and each transaction function. The reads of a turn share
 * one read transaction (`CommitGroups.read`), which `before` ends: a write run inside a deferred
 * read transaction would fail with SQLITE_BUSY_SNAPSHOT once another process had committed
 * since the transaction's first read, while on its own it waits for the lock as usual.
 * Read-only statements, the hot path, are left as they are.
 */
export function beforeWrites(db: Db, before: () => void): void {
  const prepare = db.prepare.bind(db) as (...args: unknown[]) => Database.Statement;
  db.prepare = ((...args: unknown[]) => guarded(prepare(...args), before)) as Db['prepare'];
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    before();
    return exec(sql);
  };
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = transaction(fn);
    const wrap = (run: (...args: unknown[]) => unknown) => (...args: unknown[]) => {
      before();
      return run(...args);
    };
    return Object.assign(wrap(tx), { default: wrap(tx.default), deferred: wrap(tx.deferred), immediate: wrap(tx.immediate), exclusive: wrap(tx.exclusive) });
  }) as Db['transaction'];
}

/** `stmt`, calling `before()` ahead of each execution unless it is read-only. Chained calls (`pluck()`, …) return the statement itself, so they keep it. */
function guarded(stmt: Database.Statement, before: () => void): Database.Statement {
  if (stmt.readonly) return stmt;
  const own = stmt as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of EXECUTING) {
    const method = own[name];
    own[name] = function (this: unknown, ...args: unknown[]) {
      before();
      return method.apply(this, args);
    };
  }
  return stmt;
}
