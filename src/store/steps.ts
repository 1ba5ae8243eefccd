/**
 * Units of work written once for both stores, as generators of steps: each read or write of the
 * store is a step (`ask`) that a driver answers, synchronously on SQLite (`runSteps`, inside its
 * IMMEDIATE transaction) or awaiting each answer on PostgreSQL (`runStepsAsync`, inside one
 * PostgreSQL transaction). Generators, because better-sqlite3's transactions are synchronous: a
 * unit may not await between its statements there, yet PostgreSQL must await each one. A
 * `DataStore` runs a unit atomically with `atomic` (see port.ts).
 */
import type { Awaitable, DataStore } from './port.js';

/** What the rules read and write: the SQLite store, or PostgreSQL repositories on one transaction. */
export type StepStore = Pick<
  DataStore,
  | 'tenants' | 'keys' | 'users' | 'customers' | 'departments' | 'roles' | 'providers' | 'connectedAccounts' | 'conferenceAccounts'
  | 'calendars' | 'events' | 'conferences' | 'attendees' | 'recordings' | 'meetingLinks' | 'webhookOutbox' | 'clock' | 'invitations'
>;

/** One read or write of the store, answered by the driver. */
export type Step = (store: StepStore) => Awaitable<unknown>;
/** Rules as steps, answering `T` once every step is answered. */
// Each step's answer has its own type, which `ask` restores; the generator's `next` argument cannot name them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Steps<T> = Generator<Step, T, any>;

/** How a store runs a unit (`DataStore.atomic`). */
export interface AtomicOptions {
  /**
   * Names the unit serialises on (PostgreSQL: transaction-scoped advisory locks, taken sorted
   * before the first step; SQLite's IMMEDIATE transaction serialises every writer already).
   */
  locks?: readonly string[];
  /** Run every step, then roll everything back: the answer is what the unit would have answered. */
  dryRun?: boolean;
}

/** A step that answers what `work` answers (awaited on PostgreSQL). */
export function* ask<T>(work: (store: StepStore) => Awaitable<T>): Steps<T> {
  return (yield work) as T;
}

/** Runs `steps` on a synchronous store (SQLite): every answer at once. */
export function runSteps<T>(store: StepStore, steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    const answer = next.value(store);
    if (answer instanceof Promise) throw new TypeError('runSteps needs a synchronous store');
    next = steps.next(answer);
  }
  return next.value;
}

/** Runs `steps` on an asynchronous store (PostgreSQL), awaiting each answer. */
export async function runStepsAsync<T>(store: StepStore, steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) next = steps.next(await next.value(store));
  return next.value;
}

/** Thrown after a dry run's last step, so the transaction around it rolls back; carries the answer. */
class DryRun<T> extends Error {
  constructor(readonly answer: T) {
    super('dry run: roll back');
  }
}

function* thenRollBack<T>(steps: Steps<T>): Steps<T> {
  throw new DryRun(yield* steps);
}

/** `next` of `value`, at once when `value` is not a promise. */
export function andThen<T, U>(value: Awaitable<T>, next: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** What `run` answers, or, when it throws or rejects, what `recover` answers for the error (at once when both are synchronous). */
export function recovering<T>(run: () => Awaitable<T>, recover: (err: unknown) => Awaitable<T>): Awaitable<T> {
  try {
    const answer = run();
    return answer instanceof Promise ? answer.catch(recover) : answer;
  } catch (err) {
    return recover(err);
  }
}

/**
 * "Dry run = run it, roll it back", once for both adapters: `transact` runs the steps it is given
 * in one transaction (synchronously or not); with `dryRun` they end by throwing, which rolls the
 * transaction back, and the answer they reached is returned instead.
 */
export function runAtomically<T>(steps: Steps<T>, dryRun: boolean | undefined, transact: (steps: Steps<T>) => Awaitable<T>): Awaitable<T> {
  return recovering(
    () => transact(dryRun ? thenRollBack(steps) : steps),
    (err) => {
      if (err instanceof DryRun) return err.answer as T;
      throw err;
    },
  );
}
