import type { Worker } from 'node:worker_threads';
import type { ListQuery } from '../../contract/index.js';
import { StoreBusy } from '../util.js';
import { spawnModuleWorker } from './module-worker.js';

/** A read a worker runs: one list of one tenant, by the repository method that answers it. */
export type ReadTask = { op: 'users.list' | 'users.listJson' | 'customers.list' | 'conferences.list'; tenantId: number; query: ListQuery };
/** What a worker answers a task: the method's value, or the error it threw (its message and SQLite code). */
export type ReadReply = { value: unknown; error?: undefined } | { error: { message: string; code?: string } };

export interface ReadPoolOptions {
  /** Worker threads, each with its own read-only connection; started when first needed. */
  workers: number;
  /** Reads that may wait for a busy worker; one more is refused with `StoreBusy`. */
  queue: number;
  /** The `Retry-After` (seconds) of a refused read and of one whose worker died. */
  retryAfterSeconds: number;
  /** Starts a worker thread on the database file (tests wrap it). */
  spawn?: (file: string) => Worker;
}

/** `serve`'s pool (docs/local-server.md, "Durability and concurrency"): two workers beside the main thread, 16 reads waiting at most. */
export const READ_POOL_DEFAULTS: ReadPoolOptions = { workers: 2, queue: 16, retryAfterSeconds: 1 };

/** Starts a read worker (the module read-worker beside this one, see `spawnModuleWorker`). */
export const spawnReadWorker = (file: string): Worker => spawnModuleWorker(import.meta.url, 'read-worker', { workerData: { file } });

interface Job {
  task: ReadTask;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Slot {
  readonly worker: Worker;
  job?: Job;
}

/**
 * Runs slow reads (lists) on worker threads, so that a list scanning a large tenant never holds
 * the event loop: better-sqlite3 is synchronous, and one such list used to stall every request.
 * At most `workers` reads run at once and `queue` more wait; a read past that is refused at once
 * with `StoreBusy` (503 with `Retry-After`), never queued without bound. A worker that dies is
 * replaced, and the read it was running fails with `StoreBusy` instead of hanging.
 */
export class ReadPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private readonly spawn: (file: string) => Worker;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly options: ReadPoolOptions = READ_POOL_DEFAULTS,
  ) {
    this.spawn = options.spawn ?? spawnReadWorker;
  }

  run(task: ReadTask): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const job = { task, resolve, reject };
      if (this.closed) return reject(new StoreBusy(this.options.retryAfterSeconds, 'the read pool is closed'));
      const slot = this.slots.find((s) => !s.job) ?? (this.slots.length < this.options.workers ? this.start() : undefined);
      if (slot) this.dispatch(slot, job);
      else if (this.waiting.length < this.options.queue) this.waiting.push(job);
      else reject(new StoreBusy(this.options.retryAfterSeconds, 'every read worker is busy and the queue is full'));
    });
  }

  /** Starts a worker now unless one runs, so that the first read does not wait for a thread's start (about 100-200 ms). */
  prestart(): void {
    if (!this.closed && this.slots.length === 0) this.start();
  }

  /** Stops the workers; reads still waiting or running fail with `StoreBusy`. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new StoreBusy(this.options.retryAfterSeconds, 'the read pool is closed'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private start(): Slot {
    const worker = this.spawn(this.file);
    const slot: Slot = { worker };
    this.slots.push(slot);
    // A waiting read must not keep a stopping process alive; the server's sockets keep it up meanwhile.
    worker.unref();
    worker.on('message', (reply: ReadReply) => {
      const job = slot.job;
      slot.job = undefined;
      if (job) {
        if (reply.error) job.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
        else job.resolve(reply.value);
      }
      this.next(slot);
    });
    // An uncaught error ends the thread: 'exit' follows.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      const at = this.slots.indexOf(slot);
      if (at !== -1) this.slots.splice(at, 1);
      slot.job?.reject(new StoreBusy(this.options.retryAfterSeconds, 'the read worker stopped'));
      slot.job = undefined;
      // Replaced when a read needs it: at once for those waiting, else on the next read (a worker
      // that cannot start costs one read each time, never a loop).
      if (!this.closed && this.waiting.length) this.next(this.start());
    });
    return slot;
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.postMessage(job.task);
  }

  private next(slot: Slot): void {
    const job = this.waiting.shift();
    if (job) this.dispatch(slot, job);
  }
}
