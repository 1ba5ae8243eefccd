/**
 * A read worker of `ReadPool` (read-pool.ts): a worker thread with its own read-only connection
 * to the database file, running list reads with the repositories' own code, so a list answers
 * the same rows, order and total here as on the main connection. Each read runs in one deferred
 * read transaction (the count and the page see one snapshot); it begins when the read arrives,
 * so it sees every commit made before the request was sent on. Totals are cached per worker as
 * `ListRunner` caches them, dropped when the connection's change signal moves (another
 * connection's commit moves `PRAGMA data_version`).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { DEFAULT_BUSY_TIMEOUT_MS } from './db.js';
import type { ReadReply, ReadTask } from './read-pool.js';
import { conferenceRepo } from './repos/conferences.js';
import { customerRepo } from './repos/customers.js';
import { userRepo } from './repos/users.js';

/**
 * Lowers this thread to the lowest CPU priority (Linux: a thread has its own nice value, named by
 * its id in /proc/thread-self), so that the main thread, which answers the cheap requests,
 * preempts a long scan instead of sharing the core with it evenly. Elsewhere the thread keeps
 * the process's priority.
 */
function yieldToMainThread(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19);
  } catch {
    // No per-thread priority here.
  }
}

yieldToMainThread();
/** The page cache of a worker's connection, KiB. */
const WORKER_CACHE_KIB = 2048;

const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
db.pragma(`busy_timeout = ${DEFAULT_BUSY_TIMEOUT_MS}`);
// A 2 MB page cache (better-sqlite3's default is 16 MB per connection): the scans a worker exists
// for read far more than any cache holds, the operating system's cache keeps the file's hot pages,
// and `serve`'s peak memory counts each worker's cache.
db.pragma(`cache_size = -${WORKER_CACHE_KIB}`);
const users = userRepo(db);
const customers = customerRepo(db);
const conferences = conferenceRepo(db);

function read(task: ReadTask): unknown {
  switch (task.op) {
    case 'users.list':
      return users.list(task.tenantId, task.query);
    case 'users.listJson':
      return users.listJson(task.tenantId, task.query);
    case 'customers.list':
      return customers.list(task.tenantId, task.query);
    case 'conferences.list':
      return conferences.list(task.tenantId, task.query);
  }
}

const inSnapshot = db.transaction(read);

parentPort!.on('message', (task: ReadTask) => {
  let reply: ReadReply;
  try {
    reply = { value: inSnapshot.deferred(task) };
  } catch (err) {
    const e = err as { message?: unknown; code?: unknown };
    reply = { error: { message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : undefined } };
  }
  parentPort!.postMessage(reply);
});
