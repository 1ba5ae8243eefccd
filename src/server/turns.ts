/**
 * How long a turn of the event loop should last while requests queue for one: the number started
 * per turn halves when a turn took longer and doubles when it took under half, between 1 and
 * `MAX_PER_TURN`. (A request's work runs on after the call that starts it, in promise callbacks,
 * so the number is sized by how long the last turn took, not timed as requests start.)
 */
const TURN_MS = 10;
const MAX_PER_TURN = 64;

/**
 * Spreads the start of requests over turns of the event loop, so that no burst of requests (one
 * connection's pipelined backlog, or the first requests of many connections at once) holds the
 * loop while other sockets wait. A turn starts at most its budget of requests; the rest queue and
 * start at the end of the turn (`setImmediate`), requests of idle connections before those of
 * connections with others in flight, then the loop serves sockets again. Requests queued once
 * keep their order: nothing starts at once while any is queued. `onDrained` is called at the end of
 * the turn that empties the queue.
 */
export function createTurns(onDrained: () => void = () => {}) {
  const fresh: (() => void)[] = [];
  const pipelined: (() => void)[] = [];
  let perTurn = MAX_PER_TURN;
  let started = 0;
  let scheduled = false;
  /** When the last queued batch began, while batches follow one another; 0 otherwise. */
  let lastBatch = 0;

  const pump = () => {
    const now = performance.now();
    if (lastBatch) {
      const took = now - lastBatch;
      if (took > TURN_MS) perTurn = Math.max(1, perTurn >> 1);
      else if (took < TURN_MS / 2) perTurn = Math.min(MAX_PER_TURN, perTurn * 2);
    }
    started = 0;
    for (const queue of [fresh, pipelined]) {
      const batch = queue.splice(0, perTurn - started);
      started += batch.length;
      for (const start of batch) start();
    }
    scheduled = fresh.length + pipelined.length > 0;
    lastBatch = scheduled ? now : 0;
    if (scheduled) setImmediate(pump);
    else onDrained();
  };

  return {
    /** Requests queued for a later turn. */
    queued: (): number => fresh.length + pipelined.length,
    /** Calls `start` now if this turn has room and nothing is queued, else queues it; `idle`: its connection has nothing else in flight. */
    run(start: () => void, idle: boolean): void {
      if (started < perTurn && !fresh.length && !pipelined.length) {
        started++;
        return start();
      }
      (idle ? fresh : pipelined).push(start);
      if (!scheduled) {
        scheduled = true;
        setImmediate(pump);
      }
    },
  };
}
