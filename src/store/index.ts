/**
 * The store: its contract (types.ts for the synchronous SQLite store the provider's commands use,
 * port.ts for the asynchronous port that serve and both adapters share) and the SQLite adapter
 * (sqlite/), the embedded default. The PostgreSQL adapter (postgres/) is imported on its own, only
 * where a database URL is given, so that nothing else loads pg.
 */
export { openStore } from './sqlite/index.js';
export type * from './types.js';
export type * from './port.js';
export { RuleViolation } from './port.js';
export { NotFoundError, SchemaMismatch, StoreBusy, UniqueViolation } from './util.js';
export { DEFAULT_BUSY_TIMEOUT_MS, isBusyError } from './sqlite/db.js';
export { SCHEMA_VERSION } from './sqlite/migrations.js';
export { inspectDatabase, snapshotDatabase, type DatabaseInfo } from './sqlite/snapshot.js';
export { withReadPool } from './sqlite/served.js';
export { READ_POOL_DEFAULTS, type ReadPoolOptions } from './sqlite/read-pool.js';
