import { seedContract } from './contract/seeds.js';
import { sqliteStores, storeContract } from './contract/suite.js';

/** The store contract (test/store/contract/suite.ts) on SQLite, in memory and in a WAL file. */
const { memory, file, sqlite } = sqliteStores();
storeContract(sqlite(memory));
storeContract(sqlite(file, true));
// The demo seeders write through the synchronous SQLite Store only (see seeds.ts).
for (const factory of [memory, file]) seedContract(factory);
