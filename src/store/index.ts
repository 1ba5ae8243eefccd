/**
 * The store: its port (port.ts, over the repositories of types.ts) and the factories that choose
 * an adapter: the SQLite adapter (sqlite/) for a data directory's database file, the embedded
 * default; the PostgreSQL adapter (postgres/) for a URL, imported only when one is opened, so
 * that nothing else loads pg.
 */
import type { DatabaseStore, DataDirStore } from './port.js';
import type { TableCopyOptions, TableCount } from './tables.js';
import { openStore as openSqliteStore } from './sqlite/index.js';

/** Opens the SQLite store of a data directory's database file (created and migrated if need be), or `:memory:`. */
export const openStore = (location: string): DataDirStore => openSqliteStore(location);
export { readTables, schemaVersionOf } from './sqlite/tables.js';
export type * from './types.js';
export type * from './port.js';
export type * from './tables.js';
export { RuleViolation } from './port.js';
export { maskDatabaseUrl, NotFoundError, SchemaMismatch, StoreBusy, UniqueViolation } from './util.js';

const postgres = () => import('./postgres/index.js');

/** Opens the PostgreSQL store at `url` as `serve` does: confctl's schema created or brought up to date (under an advisory lock). */
export const openDatabaseStore = async (url: string, options?: { maxConnections?: number }): Promise<DatabaseStore> =>
  (await postgres()).openPostgresStore(url, options);

/** Whether the database at `url` has confctl's schema, changing nothing. */
export const databaseHasSchema = async (url: string): Promise<boolean> => (await postgres()).hasSchema(url);

/** The tenants of the database at `url`, changing nothing (0 without confctl's schema). */
export const databaseTenantCount = async (url: string): Promise<number> => (await postgres()).databaseTenantCount(url);

/** Copies whole tables into the database at `url` in one transaction (see store/postgres/copy-in.ts); the rows of each. */
export const copyTablesToDatabase = async (url: string, options: TableCopyOptions): Promise<TableCount[]> =>
  (await postgres()).copyTablesToDatabase(url, options);
export { DEFAULT_BUSY_TIMEOUT_MS } from './sqlite/db.js';
export { isBusyError } from './busy.js';
export { SCHEMA_VERSION } from './sqlite/migrations.js';
export { inspectDatabase, snapshotDatabase, type DatabaseInfo } from './sqlite/snapshot.js';
