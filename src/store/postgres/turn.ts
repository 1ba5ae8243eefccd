import type pg from 'pg';
import type { Queryable } from './pool.js';

/**
 * Work asked for during one turn of the event loop, done once at its end (`setImmediate`): the
 * requests of a pipelined batch, read from many sockets in one turn, then share round trips to
 * PostgreSQL instead of making one each. Everything is sent after every caller of the turn asked,
 * so an answer never predates its question (a write committed before a request arrived is seen).
 */
export class TurnQueue<A, T> {
  private pending = new Map<string, Array<{ arg: A; resolve: (value: T) => void; reject: (err: unknown) => void }>>();
  private scheduled = false;

  /** `run` answers a group's askers, one value per argument, in the order they asked. */
  constructor(private readonly run: (args: A[]) => Promise<readonly T[]>) {}

  /** Asks with `arg` in the group `group` (one `run` each per turn); resolves with this caller's answer. */
  ask(group: string, arg: A): Promise<T> {
    let waiters = this.pending.get(group);
    if (!waiters) {
      waiters = [];
      this.pending.set(group, waiters);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    const list = waiters;
    return new Promise<T>((resolve, reject) => list.push({ arg, resolve, reject }));
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    for (const waiters of batch.values()) {
      this.run(waiters.map((w) => w.arg)).then(
        (values) => waiters.forEach((w, i) => w.resolve(values[i])),
        (err) => waiters.forEach((w) => w.reject(err)),
      );
    }
  }
}

/**
 * `read` shared by every caller of one turn of the event loop, the requests that the server's turns
 * start at the turn's end included (server/turns.ts starts its queued requests from `setImmediate`,
 * after a read scheduled by then would have gone): the first call of a turn sends it from the next
 * turn's `setImmediate`, and every caller until then gets the same promise and value, which callers
 * must not modify. An answer never predates a question: it is sent after every caller asked. For a
 * read every request makes, several times, as it starts (the change counters): one round trip and
 * one value for the whole batch, not one per caller or two per turn.
 */
export function oncePerTurn<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= new Promise<T>((resolve, reject) =>
      setImmediate(() =>
        setImmediate(() => {
          pending = undefined;
          read().then(resolve, reject);
        }),
      ),
    ));
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
  const reads = new TurnQueue<{ text: string; values?: unknown[] }, pg.QueryResult>(async (asked) => {
    const result = await db.query(asked[0].text, asked[0].values);
    return new Array<pg.QueryResult>(asked.length).fill(result);
  });
  return {
    query: (text, values) =>
      SHAREABLE.test(text) && !NOT_SHAREABLE.test(text)
        ? (reads.ask(values?.length ? `${text}\0${JSON.stringify(values)}` : text, { text, values }))
        : db.query(text, values),
  };
}
