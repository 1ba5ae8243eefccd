import { sqliteStores, storeContract } from './contract/suite.js';

/** The store contract (test/store/contract/suite.ts) on `serve`'s SQLite store, its lists on a read worker. */
storeContract(sqliteStores().readWorkers);
