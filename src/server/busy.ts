/**
 * Writes that meet another process's write lock (an admin command, a second `serve` on the same
 * data directory). better-sqlite3 waits for a lock synchronously, blocking the event loop, so
 * the server keeps that wait short and retries a busy handler asynchronously instead; only past
 * the budget does the request answer 503 `Service busy, try again.` Nothing was written then
 * (a busy write rolls back whole), so a client may retry any method.
 */
import { MESSAGES } from '../contract/index.js';
import { isBusyError } from '../store/index.js';
import { HttpError } from './errors.js';

/** The store's busy timeout while serving: how long one attempt blocks the event loop at most. */
export const SERVE_BUSY_TIMEOUT_MS = 20;
/** How long a request keeps retrying a busy write before it answers 503. */
export const BUSY_RETRY_BUDGET_MS = 10_000;
/** The first pause between attempts; it doubles up to `BUSY_MAX_PAUSE_MS`. */
export const BUSY_FIRST_PAUSE_MS = 10;
export const BUSY_MAX_PAUSE_MS = 250;

export const serviceBusy = (): HttpError => new HttpError(503, MESSAGES.serviceBusy, { 'Retry-After': '1' });

const pause = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * Runs `attempt` until it does not fail busy: between attempts it pauses 10 ms, 20 ms, … at most
 * 250 ms, without blocking other requests. Throws the 503 `serviceBusy` once the next pause would
 * end past `BUSY_RETRY_BUDGET_MS` after the first attempt began (measured on `now`).
 */
export async function retryBusy<T>(attempt: () => T | Promise<T>, now: () => number, sleep: (ms: number) => Promise<void> = pause): Promise<T> {
  const started = now();
  for (let delay = BUSY_FIRST_PAUSE_MS; ; delay = Math.min(delay * 2, BUSY_MAX_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (err) {
      if (!isBusyError(err)) throw err;
      if (now() - started + delay > BUSY_RETRY_BUDGET_MS) throw serviceBusy();
      await sleep(delay);
    }
  }
}
