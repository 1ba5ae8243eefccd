import { setFlagsFromString } from 'node:v8';

/** V8 flags that size the young generation: given by the user (`NODE_OPTIONS` or the command line), they are left alone. */
const YOUNG_GENERATION_FLAGS = /--(max|min)-semi-space-size|--semi-space-growth-factor|--max-heap-size/;

const NO_GROWTH = '--semi-space-growth-factor=1';

/** Whether worker threads' starts are watched already (see `keepYoungGenerationSmall`). */
let watchingWorkers = false;

/**
 * Keeps V8's young generation at its initial size for `serve` on SQLite (two 1 MiB semi-spaces):
 * under hundreds of requests in flight V8 otherwise grows it to two 16 MiB semi-spaces, about
 * 20-30 MB of peak RSS that buys no measurable CPU there, since SQLite answers each request
 * within one turn and little survives a scavenge. Not on PostgreSQL: there a request's objects
 * live across its round trips, a small young generation promotes them, and the old generation's
 * collections cost more CPU and memory than they save (see docs/performance.md).
 * The size is fixed when Node starts, but its growth factor is read at each growth, so setting it
 * to 1 stops the growth. V8 sets the (process-wide) factor back to 2 whenever it creates an
 * isolate (`Heap::ConfigureHeap` raises any factor under 2), so each worker thread's start, such
 * as the read pool's, undoes it: it is set again once the worker runs, its isolate made by then.
 * Does nothing, and answers false, when the user sized the young generation.
 */
export function keepYoungGenerationSmall(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  if (YOUNG_GENERATION_FLAGS.test(`${execArgv.join(' ')} ${nodeOptions}`)) return false;
  setFlagsFromString(NO_GROWTH);
  if (!watchingWorkers) {
    watchingWorkers = true;
    process.on('worker', (worker) => worker.once('online', () => setFlagsFromString(NO_GROWTH)));
  }
  return true;
}
