/**
 * Admin changes are units written once as steps (../store/steps.ts) and run by either store's
 * `atomic`: answered at once on SQLite's synchronous `Store` (its callers and tests stay
 * synchronous), awaited on any `DataStore` (PostgreSQL).
 */
import type { Awaitable, DataStore } from '../store/port.js';
import type { AtomicOptions, Steps } from '../store/steps.js';
import type { Store } from '../store/types.js';

export interface Change<A extends unknown[], T> {
  (store: Store, ...args: A): T;
  (store: DataStore, ...args: A): Awaitable<T>;
}

/**
 * `work` typed as a change: it calls only the port, so on SQLite's `Store`, where every method
 * answers at once, it answers at once too (with `andThen` between its calls, never `await`).
 */
export const either = <A extends unknown[], T>(work: (store: DataStore, ...args: A) => Awaitable<T>) => work as Change<A, T>;

/** The change that runs `unit(...args)` atomically, with the options (locks, dry run) `options(...args)` names. */
export function change<A extends unknown[], T>(unit: (...args: A) => Steps<T>, options?: (...args: A) => AtomicOptions): Change<A, T> {
  return either((store, ...args: A) => store.atomic(unit(...args), options?.(...args)));
}
