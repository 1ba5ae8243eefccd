import type pg from 'pg';
import type { Queryable } from './pool.js';

/**
 * Work asked for during one turn of the event loop, done once at its end (`setImmediate`): the
 * requests of a pipelined batch, read from many sockets in one turn, then share round trips to
 * PostgreSQL instead of making one each. Everything is sent after every caller of the turn asked,
 * so an answer never predates its question (a write committed before a request arrived is seen).
 */
export class TurnQueue<K, T> {
  private pending = new Map<string, { key: K; waiters: Array<{ resolve: (value: T) => void; reject: (err: unknown) => void }> }>();
  private scheduled = false;

  /** `run` answers one entry's value for all its askers; `n` is how many asked for it this turn. */
  constructor(private readonly run: (key: K, n: number) => Promise<readonly T[]>) {}

  /** Asks for `key` (grouped by `id`); resolves with this caller's share of the answer. */
  ask(id: string, key: K): Promise<T> {
    let entry = this.pending.get(id);
    if (!entry) {
      entry = { key, waiters: [] };
      this.pending.set(id, entry);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    const waiters = entry.waiters;
    return new Promise<T>((resolve, reject) => waiters.push({ resolve, reject }));
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    for (const { key, waiters } of batch.values()) {
      this.run(key, waiters.length).then(
        (values) => waiters.forEach((w, i) => w.resolve(values[i])),
        (err) => waiters.forEach((w) => w.reject(err)),
      );
    }
  }
}

/** Reads that are safe to share: plain `SELECT`s that lock nothing and call no function with side effects. */
const SHAREABLE = /^SELECT\b/;
const NOT_SHAREABLE = /\bFOR (UPDATE|SHARE|NO KEY UPDATE|KEY SHARE)\b|pg_advisory|nextval|setval/i;

/**
 * `db` with identical reads (the same `SELECT` text and values) asked in one turn of the event
 * loop sent once, their askers sharing the result: concurrent requests for the same page, user or
 * change counters cost one round trip. Writes and locking reads go straight through; callers must
 * not modify the rows they get, as other callers share them.
 */
export function sharingReads(db: Queryable): Queryable {
  const reads = new TurnQueue<{ text: string; values?: unknown[] }, pg.QueryResult>(async ({ text, values }, n) => {
    const result = await db.query(text, values);
    return new Array<pg.QueryResult>(n).fill(result);
  });
  return {
    query: (text, values) =>
      SHAREABLE.test(text) && !NOT_SHAREABLE.test(text)
        ? (reads.ask(values?.length ? `${text}\0${JSON.stringify(values)}` : text, { text, values }) as Promise<pg.QueryResult<any>>)
        : db.query(text, values),
  };
}
