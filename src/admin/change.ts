/**
 * Admin changes are units written once as steps (../store/steps.ts), run by the store's `atomic`:
 * one IMMEDIATE transaction on SQLite, one transaction under the unit's locks on PostgreSQL.
 */
import type { Awaitable, DataStore } from '../store/port.js';
import type { AtomicOptions, Steps } from '../store/steps.js';

/** The change that runs `unit(...args)` atomically, with the options (locks, dry run) `options(...args)` names. */
export function change<A extends unknown[], T>(unit: (...args: A) => Steps<T>, options?: (...args: A) => AtomicOptions) {
  return (store: DataStore, ...args: A): Awaitable<T> => store.atomic(unit(...args), options?.(...args));
}
