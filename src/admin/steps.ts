/**
 * Admin rules written once for both stores, as generators of steps: each read or write of the
 * store is a step (`ask`) that a driver answers, synchronously on SQLite (`runSteps`, inside its
 * IMMEDIATE transaction) or awaiting each answer on PostgreSQL (`runStepsAsync`, inside one
 * PostgreSQL transaction). The importer's kinds, the bulk seeder and the demo set are written this way.
 */
import type { Awaitable, DataStore } from '../store/port.js';
import { withClock } from '../store/util.js';

/** What the rules read and write: the SQLite store, or PostgreSQL repositories on one transaction. */
export type StepStore = Pick<
  DataStore,
  | 'users' | 'customers' | 'departments' | 'roles' | 'providers' | 'connectedAccounts' | 'conferenceAccounts' | 'calendars' | 'events'
  | 'conferences' | 'attendees' | 'recordings' | 'meetingLinks' | 'webhookOutbox'
>;

/** One read or write of the store, answered by the driver. */
export type Step = (store: StepStore) => Awaitable<unknown>;
/** Rules as steps, answering `T` once every step is answered. */
export type Steps<T> = Generator<Step, T, any>;

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

/**
 * `steps` with the store's clock (`nowIso`) answering `clock()`, so rows they do not date
 * themselves get fixed stamps on either store. The clock is set only while each step is called:
 * the repositories read it before their first await, and nothing else runs meanwhile.
 */
export function* withStepClock<T>(clock: () => string, steps: Steps<T>): Steps<T> {
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    next = steps.next(yield (store) => withClock(clock, () => step(store)));
  }
  return next.value;
}
