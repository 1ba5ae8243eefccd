import { setFlagsFromString } from 'node:v8';

/** V8 flags that size the heap: given by the user (`NODE_OPTIONS` or the command line), none of ours is set. */
const HEAP_FLAGS = /--(max|min)-semi-space-size|--semi-space-growth-factor|--max-heap-size|--heap-growing-percent|--(max|initial)-old-space-size/;

const NO_GROWTH = '--semi-space-growth-factor=1';
/**
 * After each full collection, the old generation may grow to 1.5 times what survived it before the
 * next: V8's own factor (1.1 to 4, by how fast it collects) let the promoted garbage of
 * requests queued across turns take the old space of the bench's `GET /users/{id}` scenario to
 * 41 MB against 19 MB, and `serve` to 115-125 MB of peak RSS against 99-104, with no change in
 * CPU per request measurable over six interleaved rounds. More full collections cost CPU where
 * much is promoted: so `--all`'s deep pages in id order, each asked for once, are not kept
 * (`ListRunner`; docs/performance.md).
 */
const OLD_GENERATION_GROWTH = '--heap-growing-percent=50';

/** Whether worker threads' starts are watched already (see `keepHeapSmall`). */
let watchingWorkers = false;

/**
 * Keeps V8's heap small for `serve` on SQLite. The young generation stays at its initial size
 * (two 1 MiB semi-spaces): under hundreds of requests in flight V8 otherwise grows it to two
 * 16 MiB semi-spaces, about 20-30 MB of peak RSS that buys no measurable CPU there, since
 * SQLite answers each request within one turn and little survives a scavenge. Not on
 * PostgreSQL: there a request's objects live across its round trips, a small young generation
 * promotes them, and the old generation's collections cost more CPU and memory than they save
 * (see docs/performance.md).
 * The size is fixed when Node starts, but its growth factor is read at each growth, so setting it
 * to 1 stops the growth. V8 sets the (process-wide) factor back to 2 whenever it creates an
 * isolate (`Heap::ConfigureHeap` raises any factor under 2), so each worker thread's start, such
 * as the read pool's, undoes it: it is set again once the worker runs, its isolate made by then.
 * The old generation grows by OLD_GENERATION_GROWTH after each full collection (read by V8 at each
 * collection; a worker's start leaves it be). Does nothing, and answers false, when the user sized
 * the heap.
 */
export function keepHeapSmall(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  if (HEAP_FLAGS.test(`${execArgv.join(' ')} ${nodeOptions}`)) return false;
  setFlagsFromString(NO_GROWTH);
  setFlagsFromString(OLD_GENERATION_GROWTH);
  if (!watchingWorkers) {
    watchingWorkers = true;
    process.on('worker', (worker) => worker.once('online', () => setFlagsFromString(NO_GROWTH)));
  }
  return true;
}
