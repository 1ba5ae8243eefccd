/**
 * How long a turn of the event loop should last while requests queue for one: the number started
 * per turn falls to what fitted in `TURN_MS` (at least halving) when a turn of queued requests
 * took longer, and doubles when it took under half, between 1 and `maxPerTurn`. A turn that
 * started fewer than that number (one, as a connection was accepted), and the turn in which
 * requests began to queue, lower it to what would have fitted at their pace: in the
 * pipelined-lists trial a fresh `GET` started with the first queued batch and waited for its 64
 * lists, after a turn that had parsed the pipelines of 200 connections or after 200 turns that
 * had started one list each. (A request's work runs on after the call that starts it, in promise
 * callbacks, so a queued batch is sized by how long the last turn took, not timed as its
 * requests start.)
 */
const TURN_MS = 10;
/** The number of requests a turn starts at first, and may start without looking at the clock. */
export const FIRST_PER_TURN = 64;
/**
 * The most a turn starts where requests wait on round trips (PostgreSQL): their few µs each on
 * the loop start as they arrive instead of in queued batches of 64 (see docs/performance.md).
 * Where a request's work is on the loop (SQLite) a turn starts at most `FIRST_PER_TURN`: larger
 * turns measured no less CPU there, and a few MB more peak RSS.
 */
export const MAX_PER_TURN = 512;

/** Of `count` requests that took `ms`, the number that fit in a turn: at least 1. */
const fitting = (count: number, ms: number): number => Math.max(1, Math.floor((count * TURN_MS) / ms));

/**
 * Spreads the start of requests over turns of the event loop, so that no burst of requests (one
 * connection's pipelined backlog, or the first requests of many connections at once) holds the
 * loop while other sockets wait. A turn starts at most its budget of requests, and past the first
 * `FIRST_PER_TURN` only while it has lasted under `TURN_MS` (the work of the requests it started
 * at once, whose promise callbacks run between two sockets' reads, is in that time; a turn that
 * lasted longer sets the budget to what fitted, so that a budget learnt on cheap requests does not
 * start a batch of costly ones). A turn in which a connection was accepted starts one request, of
 * an idle connection, or of the backlog only if none of it has started for `TURN_MS`: libuv
 * (since 1.45) accepts one connection per turn of the loop, so a connection queued behind others
 * is accepted only after as many turns, and turns that ran a batch of requests each kept a new
 * client waiting for seconds (docs/performance.md; in the pipelined-lists trial a list in each of
 * 200 such turns was most of the time that a fresh client's connection waited to be accepted).
 * The rest queue and start at the end of the turn (`setImmediate`), then the loop serves sockets
 * again:
 * - first the requests of idle connections (`idle`) that are still `alone` then: a connection
 *   whose pipeline was parsed behind its first request is not idle, though it was as that request
 *   came (in the pipelined-lists trial 200 such first requests, a list each, were started ahead of
 *   a fresh `GET /users/1`);
 * - then the others, one request per connection (`from`) in turn: a connection with many queued
 *   does not keep the others waiting, and a turn starts no more than one request of a client
 *   that has gone unseen (its socket not read; the write of an answer shows it).
 * The count starts again at the end of every turn. Requests of one connection keep their order,
 * and nothing starts at once while any is queued. `onDrained` is called at the end of the turn
 * that empties the queue, `onTurnEnd` at the end of every turn.
 */
export function createTurns<From = undefined>(
  onDrained: () => void = () => {},
  now: () => number = () => performance.now(),
  maxPerTurn = FIRST_PER_TURN,
  onTurnEnd: () => void = () => {},
  alone: (from: From) => boolean = () => true,
) {
  /** Requests of connections that were idle when they were queued. */
  const fresh: { start: () => void; from: From }[] = [];
  /** The other requests by connection, in the order connections are served (a served one moves last). */
  const pipelined = new Map<From, (() => void)[]>();
  let queued = 0;
  let perTurn = FIRST_PER_TURN;
  /** Requests started in this turn. */
  let started = 0;
  /** When this turn's first request started or was queued, or the last turn ended with some queued; `endTurn` is scheduled since. */
  let began: number | undefined;
  /** When the last queued batch began, while batches follow one another. */
  let lastBatch: number | undefined;
  /** A connection was accepted in this turn (`connected`). */
  let accepting = false;
  /** When a batch last took requests of the backlog (not of idle connections), or could have. */
  let backlogStarted = -Infinity;

  /** At the end of a turn: the next queued batch starts, and begins the next turn's count. */
  const endTurn = () => {
    const at = now();
    if (started && lastBatch !== undefined) {
      const took = at - lastBatch;
      if (took > TURN_MS) perTurn = Math.max(1, Math.min(perTurn >> 1, fitting(started, took)));
      else if (started < perTurn) perTurn = Math.min(perTurn, fitting(started, took));
      else if (took < TURN_MS / 2) perTurn = Math.min(maxPerTurn, perTurn * 2);
    } else if (started && queued) perTurn = Math.min(perTurn, fitting(started, at - began!));
    const wasQueued = queued;
    const backlog = !accepting || at - backlogStarted >= TURN_MS;
    const batch = takeBatch(accepting ? 1 : perTurn, backlog);
    if (batch.length && backlog) backlogStarted = at;
    accepting = false;
    started = batch.length;
    queued -= started;
    for (const start of batch) start();
    lastBatch = queued ? at : undefined;
    began = started || queued ? at : undefined;
    if (began !== undefined) setImmediate(endTurn);
    if (wasQueued && !queued) onDrained();
    onTurnEnd();
  };

  /**
   * Takes up to `limit` queued requests: those of idle connections still alone, then, with
   * `backlog`, the others, one per connection in turn.
   */
  const takeBatch = (limit: number, backlog: boolean): (() => void)[] => {
    const batch: (() => void)[] = [];
    for (const entry of fresh.splice(0)) {
      if (!alone(entry.from)) queueOf(entry.from).unshift(entry.start); // it came before the others
      else if (batch.length < limit) batch.push(entry.start);
      else fresh.push(entry);
    }
    for (const [from, queue] of pipelined) {
      if (batch.length === limit || !backlog) break;
      batch.push(queue.shift()!);
      pipelined.delete(from);
      if (queue.length) pipelined.set(from, queue);
    }
    return batch;
  };

  /** The queue of `from`'s requests not started, made the last served if it is new. */
  const queueOf = (from: From): (() => void)[] => {
    let queue = pipelined.get(from);
    if (!queue) pipelined.set(from, (queue = []));
    return queue;
  };

  const hasRoom = (): boolean => {
    if (started >= perTurn || queued) return false;
    if (started === 0) return true;
    if (accepting) return false;
    if (started < FIRST_PER_TURN) return true;
    const lasted = now() - began!;
    if (lasted < TURN_MS) return true;
    perTurn = fitting(started, lasted);
    return false;
  };

  /** Schedules the end of this turn, which starts what is queued then. */
  const beginTurn = () => {
    if (began !== undefined) return;
    began = now();
    setImmediate(endTurn);
  };

  return {
    /** Requests queued for a later turn. */
    queued: (): number => queued,
    /** A connection was accepted: this turn starts no more requests, and its end at most one (see `createTurns`). */
    connected(): void {
      accepting = true;
      beginTurn();
    },
    /** The most requests the next turn starts. */
    budget: (): number => perTurn,
    /**
     * Calls `start` now if this turn has room and nothing is queued, else queues it; `idle`: its
     * connection `from` has nothing else in flight.
     */
    run(start: () => void, idle: boolean, from?: From): void {
      beginTurn();
      if (hasRoom()) {
        started++;
        return start();
      }
      queued++;
      if (idle) fresh.push({ start, from: from as From });
      else queueOf(from as From).push(start);
    },
  };
}
