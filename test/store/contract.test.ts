import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { withReadPool } from '../../src/store/sqlite/served.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { DataStore } from '../../src/store/port.js';
import { createMigratedDatabase, type TestDatabase } from '../pg/database.js';
import { atomicContract } from './contract/atomic.js';
import { clockContract } from './contract/clock.js';
import { conferenceContract } from './contract/conferences.js';
import { bucketContract } from './contract/buckets.js';
import { countContract } from './contract/counts.js';
import { faultContract } from './contract/faults.js';
import type { StoreFactory } from './contract/fixtures.js';
import { jsonContract } from './contract/json.js';
import { listContract } from './contract/lists.js';
import { repoContract } from './contract/repos.js';
import { seedContract, type SqliteStoreFactory } from './contract/seeds.js';
import { snapshotContract } from './contract/snapshots.js';
import { unitContract } from './contract/units.js';
import { webhookContract } from './contract/webhooks.js';

/**
 * The store contract suite: the same tests against every `DataStore` implementation, SQLite
 * (in memory and in a WAL file) and PostgreSQL (a copy of the run's migrated template database per test,
 * see test/pg). The few tests of what one backend alone has say so where they are skipped.
 */
function storeContract(factory: StoreFactory) {
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

/** Each PostgreSQL store's own database, dropped when the store is disposed. */
const databases = new WeakMap<DataStore, TestDatabase>();

/** Another store on `store`'s database; disposing either drops it. */
async function attachPostgres(store: DataStore): Promise<DataStore> {
  const db = databases.get(store)!;
  const other = await openPostgresStore(db.url);
  databases.set(other, db);
  return other;
}

const postgres: StoreFactory = {
  name: 'postgres',
  backend: 'postgres',
  async create() {
    const db = await createMigratedDatabase();
    try {
      const store = await openPostgresStore(db.url);
      databases.set(store, db);
      return store;
    } catch (err) {
      await db.drop();
      throw err;
    }
  },
  async dispose(store) {
    try {
      await store.close();
    } finally {
      await databases.get(store)?.drop();
    }
  },
  async reopen(store) {
    await store.close();
    return attachPostgres(store);
  },
  attach: (store) => attachPostgres(store),
};

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

const factories: StoreFactory[] = [
  sqlite(memory),
  sqlite(file, true),
  readWorkers,
  postgres,
];

for (const factory of factories) storeContract(factory);
// The demo seeders write through the synchronous SQLite Store only (see seeds.ts).
for (const factory of [memory, file]) seedContract(factory);
