/**
 * The worker of `sideTable` (side-table.ts): runs the statements it is given (a table's index
 * builds) in one transaction on the side file, which no other connection writes meanwhile, posts
 * the message of any error, and marks its end in the shared state the main thread waits on.
 */
import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { SIDE_ENDED, SIDE_RUNNING, type SideJob } from './side-table.js';

const job = workerData as SideJob;
Atomics.store(job.state, 0, SIDE_RUNNING);
try {
  const db = new Database(job.file, { fileMustExist: true });
  try {
    for (const [name, value] of Object.entries(job.pragmas)) db.pragma(`${name} = ${value}`);
    db.transaction(() => {
      for (const sql of job.statements) db.exec(sql);
    })();
  } finally {
    db.close();
  }
} catch (err) {
  job.port.postMessage(err instanceof Error ? err.message : String(err));
} finally {
  Atomics.store(job.state, 0, SIDE_ENDED);
  Atomics.notify(job.state, 0);
}
