/**
 * The tables of confctl's data, on both stores, parents before children (a table comes after every
 * table its foreign keys name). PostgreSQL's change counters have a trigger on each; snapshots hold
 * exactly these.
 */
export const DATA_TABLES = [
  'tenants',
  'tenant_domains',
  'access_keys',
  'roles',
  'departments',
  'users',
  'customers',
  'providers',
  'connected_accounts',
  'conference_accounts',
  'calendars',
  'events',
  'event_attendees',
  'conferences',
  'conference_attendees',
  'recordings',
  'invitations',
  'webhook_destinations',
  'webhook_deliveries',
  'webhook_attempts',
  'meeting_links',
] as const;

/**
 * A whole store as tables of rows, for `admin copy` (src/admin/copy.ts): the SQLite adapter reads
 * a data directory's database this way (`readTables`), the PostgreSQL adapter writes one
 * (`copyTablesToDatabase`). Both schemas store values alike, so rows pass through verbatim.
 */

/** A table of the source's schema: its columns in order, and the tables its foreign keys name (itself left out). */
export interface SchemaTable {
  name: string;
  columns: string[];
  parents: string[];
}

/** What `readTables` gives its work: one consistent snapshot of the database, read table by table. */
export interface TableSource {
  /** The schema version of the database read. */
  readonly version: number;
  /**
   * Every table of the schema, in the order the schema created them: not the database's own, nor
   * tables derived from the rows that have no twin in another store (SQLite's FTS5 trigram tables and
   * their pending ids).
   */
  readonly tables: readonly SchemaTable[];
  count(table: string): number;
  /** The table's rows as arrays in `columns` order, in the order they were inserted. */
  rows(table: Pick<SchemaTable, 'name' | 'columns'>): Iterable<unknown[]>;
  /** The stored path of each live Finished recording (null where the row names none). */
  finishedRecordingPaths(): Array<string | null>;
}

export interface TableCount {
  table: string;
  rows: number;
}

/** How `copyTablesToDatabase` writes the tables. */
export interface TableCopyOptions {
  /** Tables to copy, parents before children, with the rows of each. */
  tables: ReadonlyArray<Pick<SchemaTable, 'name' | 'columns'>>;
  rows(table: Pick<SchemaTable, 'name' | 'columns'>): Iterable<unknown[]>;
  /** Also empty the shared settings and rate-limit windows (the copy replaces a database's data). */
  replace: boolean;
  /** The instance secret that signs recording URLs and join tokens, stored as the database's. */
  signingSecret: string;
  /** The advisory lock that creating the first tenant takes: none is created while the copy writes. */
  lock: string;
  /** Called with the database's tenants once it is migrated, and again under `lock`; throws to refuse (nothing written). */
  admit(tenants: number): void;
  /** Called with the database's columns of each table once it is migrated; throws to refuse. */
  checkColumns(columns: ReadonlyMap<string, ReadonlySet<string>>): void;
  /** Runs after the checks, before the rows are written (the recording files go into place then). */
  beforeWrite(): void;
  /** Rows per chunk of the COPY stream; for tests. */
  rowsPerChunk?: number;
}
