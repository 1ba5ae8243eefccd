import type { Awaitable, DataDirStore } from '../src/store/port.js';
import type { SqliteStore } from '../src/store/sqlite/index.js';
import { type LocalInstance, openLocal } from '../src/local/open.js';

/**
 * The answer of a function of the port (`Awaitable`) on the SQLite adapter's store, which answers
 * at once (better-sqlite3 is synchronous): lets a SQLite-only test stay synchronous. A promise
 * here means the store was not SQLite's, and fails the test.
 */
export function atOnce<T>(value: Awaitable<T>): T {
  if (value instanceof Promise) throw new TypeError('atOnce: the store answered with a promise (not the SQLite store)');
  return value;
}

/** The SQLite adapter's own store behind a data directory's `DataDirStore` (what `openLocal` opens), to read and write it synchronously in a test. */
export function syncStore(store: DataDirStore): SqliteStore {
  if (!('transaction' in store)) throw new TypeError('syncStore: not the SQLite adapter’s store');
  return store as SqliteStore;
}

/** `openLocal` (src/local/open.ts) with the SQLite adapter's store, for tests that read and write it synchronously. */
export function openLocalSync(...args: Parameters<typeof openLocal>): Omit<LocalInstance, 'store'> & { store: SqliteStore } {
  const local = openLocal(...args);
  return { ...local, store: syncStore(local.store) };
}
