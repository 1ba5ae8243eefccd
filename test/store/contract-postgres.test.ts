import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { DataStore } from '../../src/store/port.js';
import { createMigratedDatabase, type TestDatabase } from '../pg/database.js';
import type { StoreFactory } from './contract/fixtures.js';
import { storeContract } from './contract/suite.js';

/** Each PostgreSQL store's own database, dropped when the store is disposed. */
const databases = new WeakMap<DataStore, TestDatabase>();

/** Another store on `store`'s database; disposing either drops it. */
async function attachPostgres(store: DataStore): Promise<DataStore> {
  const db = databases.get(store)!;
  const other = await openPostgresStore(db.url);
  databases.set(other, db);
  return other;
}

/** The store contract (test/store/contract/suite.ts) on PostgreSQL, each test on a copy of the run's migrated template database. */
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

storeContract(postgres);
