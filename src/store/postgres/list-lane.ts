import type pg from 'pg';
import { StoreBusy } from '../util.js';
import { createPool, type Queryable } from './pool.js';
import { sharingReads } from './turn.js';

export interface ListLaneOptions {
  /** Lists that run at once, each on connections of the lane's own pool (its page and its count side by side). */
  lists: number;
  /** Lists that may wait for a running one to end; one more is refused with `StoreBusy`. */
  queue: number;
  /** The `Retry-After` (seconds) of a refused list. */
  retryAfterSeconds: number;
  /** PostgreSQL's `statement_timeout` of the lane's connections: a list statement running longer is cancelled (503). */
  statementTimeoutMs: number;
}

/**
 * `serve`'s lane (docs/instances-and-postgresql.md): 2 lists at a time, 16 waiting, as SQLite's
 * read pool; a list statement is cancelled after 30 s.
 */
export const LIST_LANE_DEFAULTS: ListLaneOptions = { lists: 2, queue: 16, retryAfterSeconds: 1, statementTimeoutMs: 30_000 };

/** PostgreSQL's query_canceled: what a statement past its `statement_timeout` fails with. */
const QUERY_CANCELED = '57014';

/**
 * Where the large lists (users, customers, conferences) run: a pool of their own, so that
 * point reads and writes, on the store's main pool, never wait for a connection behind a flood of
 * lists that scan a million rows (`GET /users/{id}` waited behind them). At most `lists` run at
 * once and `queue` more wait; one more is refused at once with `StoreBusy` (503 with
 * `Retry-After`), never queued without bound, as on SQLite. A statement past the lane's
 * `statement_timeout` is refused the same way, so no list holds its place for ever.
 */
export class ListLane {
  readonly pool: pg.Pool;
  /** The lane's connections, identical reads of one turn shared (see `sharingReads`). */
  private readonly db: Queryable;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    url: string,
    private readonly options: ListLaneOptions = LIST_LANE_DEFAULTS,
  ) {
    // Two connections a list: its page and its count are read side by side.
    this.pool = createPool(url, 2 * options.lists, { statement_timeout: options.statementTimeoutMs });
    this.db = sharingReads(this.pool);
  }

  /** Runs `work` on the lane's connections once a place is free; refuses with `StoreBusy` when the queue is full. */
  async run<T>(work: (db: Queryable) => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await work(this.db);
    } catch (err) {
      if ((err as { code?: unknown }).code === QUERY_CANCELED) throw new StoreBusy(this.options.retryAfterSeconds, 'a list ran past its statement timeout');
      throw err;
    } finally {
      this.leave();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private enter(): Promise<void> {
    if (this.running < this.options.lists) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.options.queue) return Promise.reject(new StoreBusy(this.options.retryAfterSeconds, 'every list place is taken and the queue is full'));
    // The place is handed over by `leave`, so `running` counts it still.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
