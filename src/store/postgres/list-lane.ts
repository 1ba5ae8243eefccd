import { availableParallelism } from 'node:os';
import type pg from 'pg';
import { StoreBusy } from '../util.js';
import { createPool, inTransaction, type Queryable } from './pool.js';
import { TurnQueue } from './turn.js';

export interface ListLaneOptions {
  /** Lists that run at once, each on a connection of the lane's own pool. */
  lists: number;
  /**
   * Lists whose total is cached that may run beside those, on as many more connections: each is
   * one statement reading a page, no count (`ListTotals.readKnown`).
   */
  quick: number;
  /** Lists that may wait for a running one to end; one more is refused with `StoreBusy`. */
  queue: number;
  /** The `Retry-After` (seconds) of a refused list. */
  retryAfterSeconds: number;
  /** PostgreSQL's `statement_timeout` of the lane's connections: a list statement running longer is cancelled (503). */
  statementTimeoutMs: number;
}

/**
 * The lists `serve`'s lane runs at once on a machine of `cores` cores: 2, but 1 on a machine of 2
 * cores or fewer. A list that counts a million rows keeps a core of the database's busy; with the
 * database on the same machine, two of them left `serve` and the point reads' own PostgreSQL
 * processes waiting for a core: on 2 cores, the head-of-line probe of `npm run bench:scale` (a
 * `GET /users/{id}` beside 4 clients sending cold `Contains` lists of a million users) had a p99
 * of 32-37 ms with 2 lists at once and 13-19 ms with 1, in three interleaved rounds (the lists
 * answered meanwhile: 64-69 and 34-36).
 */
export const laneLists = (cores: number = availableParallelism()): number => (cores > 2 ? 2 : 1);

/**
 * `serve`'s lane (docs/instances-and-postgresql.md): `laneLists()` lists at a time and one more
 * whose total is cached, 16 waiting, as SQLite's read pool; a list statement is cancelled after 30 s.
 * The quick place wins back what one list at a time cost lists that count nothing: `npm run
 * bench`'s PostgreSQL page of 15 (500 identical pipelined lists, total cached) took 100.5 µs of
 * `serve`'s CPU per request with one place against 91.0 with two, as its requests waited longer
 * and more of them outlived the young generation's collections.
 */
export const LIST_LANE_DEFAULTS: ListLaneOptions = { lists: laneLists(), quick: 1, queue: 16, retryAfterSeconds: 1, statementTimeoutMs: 30_000 };

/**
 * The askers of one shared list answered per turn of the event loop. A flood of one list joins
 * its one read (200 connections each pipelining pages of 100 customers: thousands of askers), and
 * answering them all from one resolution held the event loop for up to a few hundred ms; the
 * askers that joined past the first slice get the answer one turn later per slice, so the point
 * reads and new connections of everyone else are served between slices. Only joined lists are
 * sliced: the askers of one turn are answered together (`serve` starts at most 64 requests a
 * turn, see server/turns.ts).
 */
const DELIVERY_SLICE = 256;

/**
 * `value` once the event loop has polled for I/O `turns` times: one `setImmediate` after another,
 * the first of them still in the turn that asked (no poll comes between it and the asking).
 */
function afterTurns<T>(turns: number, value: T): Promise<T> {
  return new Promise((resolve) => {
    const next = (left: number) => (left ? setImmediate(next, left - 1) : resolve(value));
    next(turns + 1);
  });
}

/** PostgreSQL's query_canceled: what a statement past its `statement_timeout` fails with. */
const QUERY_CANCELED = '57014';

/**
 * The lane's connections' settings. The planner's cost of a page read out of order: 1.1
 * (PostgreSQL's default, 4, is for spinning disks) as for data that is cached or on SSD. A list
 * reads its tenant's covering indexes whole; at 4 the planner scanned the whole customers table
 * instead of their first names' index, which is a quarter of its size, for a `Contains` of two
 * letters (count 450 ms against 260 ms at 1,000,000 customers). And no JIT compilation: on a
 * PostgreSQL built with LLVM, a statement planned above `jit_above_cost` (100,000 by default: a
 * scan of the users' table of a million rows is planned at about 150,000) is compiled each time
 * it runs, which pays off for long analytical queries, not for lists answered in milliseconds. The
 * embedded PostgreSQL has no JIT, so there it changes nothing.
 */
const LANE_SETTINGS = '-c random_page_cost=1.1 -c jit=off';

/** A statement cancelled past the lane's timeout as `StoreBusy`; any other error as it is. */
const busyIfCanceled = (err: unknown, retryAfterSeconds: number): unknown =>
  (err as { code?: unknown }).code === QUERY_CANCELED ? new StoreBusy(retryAfterSeconds, 'a list ran past its statement timeout') : err;

/** One snapshot for every statement of the transaction, which writes nothing. */
const READ_SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** A list's one statement while its total is cached: its answer, or undefined when that total is not current. */
export type Quick<T> = (once: Queryable) => Promise<T | undefined>;

/** What a list does in its place in the lane: statements each in a snapshot of its own, or a snapshot transaction. */
export interface LaneReads {
  /** One statement at a time, each its own (implicit) transaction: one snapshot per statement. */
  once: Queryable;
  /** `work` in one read-only REPEATABLE READ transaction. */
  snapshot<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
}

/**
 * Where the large lists (users, customers, conferences) run: a pool of their own, so that
 * point reads and writes, on the store's main pool, never wait for a connection behind a flood of
 * lists that scan a million rows (`GET /users/{id}` waited behind them). At most `lists` run at
 * once and `queue` more wait; one more is refused at once with `StoreBusy` (503 with
 * `Retry-After`), never queued without bound, as on SQLite. A statement past the lane's
 * `statement_timeout` is refused the same way, so no list holds its place for ever.
 *
 * A list of several statements (the change counters, the count, the page) is one read-only
 * REPEATABLE READ transaction: they all read the snapshot its first statement took, which is at
 * least as new as every write acknowledged before the request began; a list of one statement (a
 * page and the counters its cached total is checked against) needs none. So a page and its total
 * always show one state, however many writes commit meanwhile.
 */
export class ListLane {
  readonly pool: pg.Pool;
  private running = 0;
  /** Quick lists running in the places beside the lane's (see `shared`). */
  private quickRunning = 0;
  private readonly waiting: Array<() => void> = [];
  /**
   * The shared lists waiting for a place, by key, with the askers that joined each: an identical
   * list asked for meanwhile joins one instead of waiting too.
   */
  private readonly queued = new Map<string, { answer: Promise<unknown>; askers: number }>();
  /** Identical lists asked for in one turn of the event loop: read once, their askers sharing the answer. */
  private readonly turn = new TurnQueue<{ key: string; work: (lane: LaneReads) => Promise<unknown>; quick?: Quick<unknown> }, unknown>(async (asked) => {
    const value = await this.joinable(asked[0].key, asked[0].work, asked[0].quick, asked.length);
    return new Array<unknown>(asked.length).fill(value);
  });

  constructor(
    url: string,
    private readonly options: ListLaneOptions = LIST_LANE_DEFAULTS,
  ) {
    this.pool = createPool(url, options.lists + options.quick, { statement_timeout: options.statementTimeoutMs, options: LANE_SETTINGS });
  }

  private readonly reads: LaneReads = {
    once: { query: (text, values) => this.pool.query(text, values) },
    snapshot: (work) => inTransaction(this.pool, work, READ_SNAPSHOT),
  };

  /** Runs `work` in a read snapshot on a connection of the lane once a place is free; refuses with `StoreBusy` when the queue is full. */
  run<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.place((lane) => lane.snapshot(work));
  }

  /**
   * Runs `work` with the lane's reads once a place is free (then calls `begun`); refuses with
   * `StoreBusy` when the queue is full.
   */
  private async place<T>(work: (lane: LaneReads) => Promise<T>, begun?: () => void): Promise<T> {
    await this.enter();
    begun?.();
    try {
      return await work(this.reads);
    } catch (err) {
      throw busyIfCanceled(err, this.options.retryAfterSeconds);
    } finally {
      this.leave();
    }
  }

  /**
   * `work` in a place of the lane, shared by the callers that ask with the same `key` (the same page of the same list) in
   * one turn of the event loop, or while an identical list waits for its place: one of them reads,
   * every one gets its answer, which callers must not modify. A list that has begun is never
   * joined, as its snapshot may predate the caller's request. So a flood of one list (pipelined
   * first pages) takes one place in the queue, not one each.
   *
   * `quick`, the list's one statement while its total is cached (undefined when it is not, or no
   * longer current), is tried first, so `work` runs only when it answers undefined. When every
   * place of the lane is taken it runs at once in one of the `quick` places beside them, if one is
   * free: lists that count nothing do not wait behind those that count a million rows.
   */
  shared<T>(key: string, work: (lane: LaneReads) => Promise<T>, quick?: Quick<T>): Promise<T> {
    return this.turn.ask(key, { key, work, quick }) as Promise<T>;
  }

  /** `work`'s answer for `askers` callers, or the answer of the identical list waiting for a place, which they join. */
  private joinable(key: string, work: (lane: LaneReads) => Promise<unknown>, quick: Quick<unknown> | undefined, askers: number): Promise<unknown> {
    const waiting = this.queued.get(key);
    if (waiting) {
      const slice = Math.floor(waiting.askers / DELIVERY_SLICE);
      waiting.askers += askers;
      return slice ? waiting.answer.then((value) => afterTurns(slice, value)) : waiting.answer;
    }
    const willWait = this.running >= this.options.lists;
    if (quick && willWait && this.quickRunning < this.options.quick) return this.quickly(key, work, quick, askers);
    const answer = this.place(async (lane) => (quick && (await quick(lane.once))) ?? work(lane), () => this.queued.delete(key));
    if (willWait) {
      this.queued.set(key, { answer, askers });
      // Refused (the queue was full): the next identical list asks for a place again.
      answer.catch(() => this.queued.get(key)?.answer === answer && this.queued.delete(key));
    }
    return answer;
  }

  /** `quick` in a place beside the lane's; when it answers undefined, `work` in a place of the lane. */
  private async quickly(key: string, work: (lane: LaneReads) => Promise<unknown>, quick: Quick<unknown>, askers: number): Promise<unknown> {
    this.quickRunning++;
    let answer: unknown;
    try {
      answer = await quick(this.reads.once);
    } catch (err) {
      throw busyIfCanceled(err, this.options.retryAfterSeconds);
    } finally {
      this.quickRunning--;
    }
    return answer ?? this.joinable(key, work, undefined, askers);
  }

  /** Lists waiting for a place (tests watch it). */
  get waitingLists(): number {
    return this.waiting.length;
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
