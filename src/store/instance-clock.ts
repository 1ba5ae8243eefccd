/**
 * The manual clock (`serve --clock manual`, `confctl admin clock`, the clock control route). It is
 * stored in the instance's database (one row), so every process on a data directory and every
 * instance on a PostgreSQL database reads the same time. It starts at the later of the real time
 * and the last time it showed, moves only when told, and never backwards: the data written on it
 * is never dated later than it. Each move is one unit serialised on the clock's lock, so two
 * moves at once apply one after the other and a refused one writes nothing.
 *
 * A running `serve` reads it through `storedClock`: the time is kept in memory and read again
 * only when the store's clock token moved, so a request in manual mode costs a token compare
 * (SQLite: `PRAGMA data_version` once per turn; PostgreSQL: the change counters, read once per
 * turn with the rest).
 */
import { type Clock } from '../contract/clock.js';
import { durationSyntax, parseDuration } from '../contract/duration.js';
import { parseIsoInstant } from '../contract/dates.js';
import type { Awaitable, DataStore, ServiceStore } from './port.js';
import { andThen, ask, type Steps } from './steps.js';
import type { ClockState } from './types.js';

export interface StoredClock extends Clock {
  refresh(): Awaitable<void>;
}

/** A clock standing where `start` says, following the store's manual clock from then on; it never moves backwards. */
export function storedClock(store: Pick<ServiceStore, 'clock'>, start: ClockState): StoredClock {
  let at = start.at_ms;
  let seen: string | undefined;
  const reread = (token: string): Awaitable<void> => {
    if (token === seen) return;
    return andThen(store.clock.get(), (state) => {
      seen = token;
      if (state) at = Math.max(at, state.at_ms);
    });
  };
  return {
    now: () => new Date(at),
    refresh: () => andThen(store.clock.token(), reread),
  };
}

/** A refused clock command: the instance is not in manual mode, or the move would go backwards. */
export class ClockRefused extends Error {
  override name = 'ClockRefused';
}

const LOCKS = { locks: ['confctl:clock'] };

const iso = (ms: number) => new Date(ms).toISOString();

/** The last instant a Date holds (year 275760). */
const MAX_MS = 8.64e15;

/** `state` when the instance runs on the manual clock; else refused. */
function manual(state: ClockState | undefined): ClockState {
  if (!state?.manual) throw new ClockRefused("this instance runs on the real clock: start it with 'confctl serve --clock manual' to move its clock");
  return state;
}

/** The clock's row, locked until commit; refused when the instance does not run on the manual clock. */
function* manualState(): Steps<ClockState> {
  return manual(yield* ask((s) => s.clock.get(true)));
}

function* startSteps(realMs: number): Steps<ClockState> {
  const stored = yield* ask((s) => s.clock.get(true));
  const state = { at_ms: Math.max(realMs, stored?.at_ms ?? realMs), manual: true };
  yield* ask((s) => s.clock.put(state));
  return state;
}

function* stopSteps(): Steps<ClockState | undefined> {
  const stored = yield* ask((s) => s.clock.get(true));
  if (!stored?.manual) return undefined;
  yield* ask((s) => s.clock.put({ ...stored, manual: false }));
  return stored;
}

function* moveSteps(target: (from: number) => number): Steps<{ from: number; to: number }> {
  const { at_ms: from } = yield* manualState();
  const to = target(from);
  if (!Number.isSafeInteger(to) || to > MAX_MS) throw new ClockRefused(`the clock cannot move to ${to} ms: that is past the last representable time`);
  if (to < from) throw new ClockRefused(`the clock never moves backwards: it stands at ${iso(from)}, and ${iso(to)} is earlier`);
  yield* ask((s) => s.clock.put({ at_ms: to, manual: true }));
  return { from, to };
}

/**
 * Puts the instance on its manual clock (`serve --clock manual`), standing at the later of
 * `realMs` and the time it last showed; answers its state.
 */
export const startManualClock = (store: DataStore, realMs: number): Awaitable<ClockState> => store.atomic(startSteps(realMs), LOCKS);

/** Puts the instance back on the real clock (`serve` without `--clock manual`); answers the manual clock it left, if it was on one. */
export const stopManualClock = (store: DataStore): Awaitable<ClockState | undefined> => store.atomic(stopSteps(), LOCKS);

/** Sets the manual clock to `atMs`; refused when that is earlier than it stands. */
export const setClock = (store: DataStore, atMs: number): Awaitable<{ from: number; to: number }> => store.atomic(moveSteps(() => atMs), LOCKS);

/** Moves the manual clock on by `ms` (not negative). */
export const advanceClock = (store: DataStore, ms: number): Awaitable<{ from: number; to: number }> => store.atomic(moveSteps((from) => from + ms), LOCKS);

/** The manual clock's time; refused when the instance runs on the real clock. */
export const showClock = (store: Pick<DataStore, 'clock'>): Awaitable<ClockState> => andThen(store.clock.get(), manual);

/** A move of the manual clock as `admin clock` and the control route take it. */
export type ClockMove = { action: 'set'; at_ms: number } | { action: 'advance'; by_ms: number };

/**
 * `set TIME` (an ISO 8601 date-time; without an offset, UTC) or `advance DURATION` (a number with
 * ms, s, m or h; a bare number is seconds) as a move; a `ClockRefused` saying what is expected otherwise.
 */
export function parseClockMove(action: string, value: string): ClockMove {
  if (action === 'set') {
    const at = parseIsoInstant(value);
    if (at === undefined || at > MAX_MS) throw new ClockRefused(`TIME must be an ISO 8601 date-time such as 2030-01-31T09:00:00Z, not '${value}'`);
    return { action, at_ms: at };
  }
  if (action === 'advance') {
    const by = parseDuration(value);
    if (by === undefined) throw new ClockRefused(`DURATION must be ${durationSyntax()}, not '${value}'`);
    return { action, by_ms: by };
  }
  throw new ClockRefused(`the clock is moved by 'set' or 'advance', not '${action}'`);
}

/** Applies `move` (see `setClock`, `advanceClock`). */
export const moveClock = (store: DataStore, move: ClockMove): Awaitable<{ from: number; to: number }> =>
  move.action === 'set' ? setClock(store, move.at_ms) : advanceClock(store, move.by_ms);

/** The manual clock as a running server shows and moves it (`POST /_confctl/clock`), its own reading brought up to date after a move. */
export interface ClockControl {
  show(): Awaitable<ClockState>;
  move(move: ClockMove): Promise<{ from: number; to: number }>;
}

/** A `ClockControl` over `store`; `moved` runs after each move (the server's clock is refreshed, the webhook sender woken). */
export function clockControl(store: DataStore, moved: () => Awaitable<void>): ClockControl {
  return {
    show: () => showClock(store),
    async move(move) {
      const result = await moveClock(store, move);
      await moved();
      return result;
    },
  };
}
