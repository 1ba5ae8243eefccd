/**
 * The one clock. Everything time-based in the data (`created_at`/`updated_at`, join-token and
 * recording-URL expiry, webhook retry times and pruning, meeting-link schedules, conference and
 * recording lifecycle times) reads the instance clock: the system clock, unless `serve --clock
 * manual` (or an admin command on an instance whose clock is manual) installed a clock that moves
 * only when told. What must keep real time whatever the instance clock says (rate-limit windows,
 * HTTP timeouts, elapsed times, log lines) reads `realMs`/`realNow`.
 *
 * This is the only module that may read the system clock (`Date.now()`, `new Date()` without an
 * argument): a lint rule in eslint.config.js says so.
 */

/** A source of the current time. */
export interface Clock {
  now(): Date;
  /**
   * Brings a clock kept elsewhere up to date (a manual clock stored in the database, which another
   * process may have moved); cheap when nothing moved. Absent on the system clock.
   */
  refresh?(): void | Promise<void>;
}

/** Real epoch milliseconds: for rate-limit windows, timeouts and elapsed times, never for data. */
export const realMs = (): number => Date.now();

/** The real time: for log lines and what is not data. */
export const realNow = (): Date => new Date();

/** The system clock. */
export const systemClock: Clock = { now: realNow };

/** A clock standing at `at` (epoch milliseconds or a date). */
export function fixedClock(at: number | Date): Clock {
  const ms = typeof at === 'number' ? at : at.getTime();
  return { now: () => new Date(ms) };
}

let current: Clock = systemClock;

/** The process's instance clock: the system clock unless another was installed. */
export function instanceClock(): Clock {
  return current;
}

/** Installs `clock` as the instance clock; answers a function that puts the previous one back. */
export function useInstanceClock(clock: Clock): () => void {
  const previous = current;
  current = clock;
  return () => {
    current = previous;
  };
}
