import type { ListQuery } from '../../contract/index.js';
import type { DataDirStore, DataStore } from '../port.js';
import { READ_POOL_DEFAULTS, ReadPool, type ReadPoolOptions, type ReadTask } from './read-pool.js';

/**
 * The SQLite store (a database file) as `serve` uses it: its list reads run on a `ReadPool` of
 * worker threads with read-only connections, so a list that counts a million rows holds no other
 * request; everything else (the primary-key reads, the writes and their commit groups) stays on
 * the main thread. A list sent after a write was acknowledged sees it: the write was committed
 * before its answer left, and the worker's read transaction begins after the list arrived.
 * Closing stops the pool, then closes the store.
 */
export function withReadPool(store: DataDirStore, options: ReadPoolOptions = READ_POOL_DEFAULTS): DataStore {
  const pool = new ReadPool(store.location, options);
  const read =
    <T>(op: ReadTask['op']) =>
    (tenantId: number, query: ListQuery) =>
      pool.run({ op, tenantId, query }) as Promise<T>;
  return {
    ...store,
    users: { ...store.users, list: read('users.list'), listJson: read('users.listJson') },
    customers: { ...store.customers, list: read('customers.list') },
    conferences: { ...store.conferences, list: read('conferences.list') },
    close: async () => {
      await pool.close();
      await store.close();
    },
  };
}
