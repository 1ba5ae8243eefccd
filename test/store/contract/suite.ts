import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openStore, type SqliteStore } from '../../../src/store/sqlite/index.js';
import { withReadPool } from '../../../src/store/sqlite/served.js';
import type { DataStore } from '../../../src/store/port.js';
import { atomicContract } from './atomic.js';
import { bucketContract } from './buckets.js';
import { clockContract } from './clock.js';
import { conferenceContract } from './conferences.js';
import { countContract } from './counts.js';
import { faultContract } from './faults.js';
import type { StoreFactory } from './fixtures.js';
import { jsonContract } from './json.js';
import { listContract } from './lists.js';
import { repoContract } from './repos.js';
import type { SqliteStoreFactory } from './seeds.js';
import { snapshotContract } from './snapshots.js';
import { unitContract } from './units.js';
import { webhookContract } from './webhooks.js';

/**
 * The store contract suite: the same tests against every `DataStore` implementation, SQLite (in
 * memory, in a WAL file, and with its lists on read workers) and PostgreSQL (a copy of the run's
 * migrated template database per test, see test/pg). Its files, one per kind of store so that
 * they run side by side: test/store/contract.test.ts (SQLite), contract-read-workers.test.ts and
 * contract-postgres.test.ts. The few tests of what one backend alone has say so where they are
 * skipped.
 */
export function storeContract(factory: StoreFactory): void {
  listContract(factory);
  repoContract(factory);
  conferenceContract(factory);
  unitContract(factory);
  webhookContract(factory);
  jsonContract(factory);
  atomicContract(factory);
  snapshotContract(factory);
  faultContract(factory);
  clockContract(factory);
  countContract(factory);
  bucketContract(factory);
}

/** The SQLite stores, each file store in a directory of its own under one scratch directory removed after the file's tests. */
export function sqliteStores() {
  const dir = mkdtempSync(path.join(tmpdir(), 'confctl-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;

  const memory: SqliteStoreFactory = { name: 'sqlite :memory:', open: () => openStore(':memory:') };
  /** Each in a directory of its own, as a data directory holds one database (and its snapshots/). */
  const file: SqliteStoreFactory = {
    name: 'sqlite file (WAL)',
    open: () => openStore(path.join(mkdirSync(path.join(dir, `store-${++n}`), { recursive: true })!, 'confctl.db')),
  };

  /** A SQLite factory: the store is closed after its test (the files go with `dir`); one on disk reopens and attaches. */
  const sqlite = (f: SqliteStoreFactory, onDisk = false): StoreFactory => ({
    name: f.name,
    backend: 'sqlite',
    create: async () => f.open(),
    dispose: async (store) => store.close(),
    ...(onDisk && {
      reopen: async (store: DataStore) => {
        await store.close();
        return openStore(store.location);
      },
      attach: async (store: DataStore) => openStore(store.location),
    }),
  });

  /**
   * `serve`'s SQLite store: the same file store with its lists on a pool of read workers (one here,
   * started on the first list), every list there (`serve` keeps the bounded ones on the main thread).
   */
  const pooled = (store: SqliteStore): DataStore => withReadPool(store, { workers: 1, queue: 16, retryAfterSeconds: 1 }, 'all');
  const readWorkers: StoreFactory = {
    name: 'sqlite file, lists on read workers',
    backend: 'sqlite',
    create: async () => pooled(file.open()),
    dispose: async (store) => store.close(),
    reopen: async (store) => {
      await store.close();
      return pooled(openStore(store.location));
    },
    attach: async (store) => pooled(openStore(store.location)),
  };

  return { memory, file, sqlite, readWorkers };
}
