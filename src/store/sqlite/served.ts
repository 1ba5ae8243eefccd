import type { ListQuery } from '../../contract/index.js';
import type { DataStore } from '../port.js';
import type { ListResult } from '../types.js';
import type { SqliteStore } from './store.js';
import { MAIN_THREAD_COUNT_ROWS } from './list-query.js';
import { READ_POOL_DEFAULTS, ReadPool, type ReadPoolOptions, type ReadTask } from './read-pool.js';

/**
 * `withReadPool`'s options: the pool's, the tenant size up to which a cold Equal-filtered count
 * runs on the main thread (`countRows`), and the one past which a worker starts with the pool
 * (`prestartRows`): MAIN_THREAD_COUNT_ROWS (list-query.ts) and PRESTART_ROWS by default; tests
 * lower them.
 */
export interface ServedOptions extends ReadPoolOptions {
  countRows?: number;
  prestartRows?: number;
}

/** The tenant size past which a worker starts with the pool: past it even a cold Equal count runs on a worker (see `withReadPool`). */
export const PRESTART_ROWS = MAIN_THREAD_COUNT_ROWS;

/**
 * The SQLite store (a database file) as `serve` uses it: a list whose cost is bounded before it
 * runs (a small tenant, or a shallow page read from an index range whose total is cached, the row
 * counter, or counted from an index of a tenant of at most MAIN_THREAD_COUNT_ROWS rows: see
 * MAIN_THREAD_ROWS in list-query.ts) runs on the main thread, as any other cheap read; every other
 * list runs on a `ReadPool` of worker threads with read-only connections, so a list that counts a
 * million rows holds no other request. The primary-key reads, the writes and their commit groups
 * stay on the main thread.
 *
 * A list sent after a write was acknowledged sees it on either thread: the write was committed
 * before its answer left; the main thread's list reads in the request's own read transaction,
 * and the worker's read transaction begins after the list arrived. A worker's total becomes the
 * main thread's cached total when nothing was written since the list was sent (`ListMode.adoptTotal`), so
 * the next such list stays on the main thread. Closing stops the pool, then closes the store.
 * `every` = 'all' sends every list to the pool (the store contract suite runs its lists there).
 *
 * A worker starts with the pool when a tenant has more than `prestartRows` rows in a listed
 * table: past that even its cold Equal counts go to a worker, and the first of its lists would
 * otherwise wait for the thread's start (185 ms at a million users, against 2 ms once started).
 * Smaller instances start theirs when a list first needs one: a worker adds about 11 MB to
 * `serve`'s peak RSS.
 */
export function withReadPool(store: SqliteStore, options: ServedOptions = READ_POOL_DEFAULTS, every: 'unbounded' | 'all' = 'unbounded'): DataStore {
  // `store`'s lists answer at once, which running a bounded list on the main thread (`ListMode.ifBounded`) needs.
  const pool = new ReadPool(store.location, options);
  if (store.largestTenantRows() > (options.prestartRows ?? PRESTART_ROWS)) pool.prestart();
  /** No commit group holds writes not yet committed (they moved the change token already, but a worker may not see them yet). */
  const nothingPending = () => store.commits.settled(store.commits.mark()) === undefined;
  const read =
    <T extends ListResult<unknown>>(op: ReadTask['op'], list: (tenantId: number, query: ListQuery) => T) =>
    (tenantId: number, query: ListQuery): T | Promise<T> => {
      const here = every === 'unbounded' ? store.listMode.ifBounded(list, tenantId, query, options.countRows) : undefined;
      if (here) return here;
      const token = nothingPending() ? store.changeToken() : undefined;
      return (pool.run({ op, tenantId, query }) as Promise<T>).then((answer) => {
        if (token !== undefined) store.listMode.adoptTotal(answer.total, token, list, tenantId, query);
        return answer;
      });
    };
  return {
    ...store,
    users: {
      ...store.users,
      list: read('users.list', (t, q) => store.users.list(t, q)),
      listJson: read('users.listJson', (t, q) => store.users.listJson(t, q)),
    },
    customers: { ...store.customers, list: read('customers.list', (t, q) => store.customers.list(t, q)) },
    conferences: { ...store.conferences, list: read('conferences.list', (t, q) => store.conferences.list(t, q)) },
    close: async () => {
      await pool.close();
      store.close();
    },
  };
}
