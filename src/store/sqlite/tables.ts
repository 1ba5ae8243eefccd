/** A SQLite database read as tables (store/tables.ts), for `admin copy`. */
import Database from 'better-sqlite3';
import { RECORDING_STATUS } from '../../contract/resource-fields.js';
import type { SchemaTable, TableSource } from '../tables.js';
import { TRIGRAM_TABLES } from './trigram.js';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The schema version of the database file, read without changing it. */
export function schemaVersionOf(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

/** Plain tables derived from the rows, which no other store has: the trigram tables' pending ids (the FTS5 tables are virtual ones). */
export const DERIVED_TABLES: readonly string[] = [...new Set(TRIGRAM_TABLES.map((t) => t.pending))];

function schemaTables(db: Database.Database): SchemaTable[] {
  const names = db
    .prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name IN (SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table') AND name NOT IN (SELECT value FROM json_each(?)) ORDER BY rowid",
    )
    .pluck()
    .all(JSON.stringify(DERIVED_TABLES)) as string[];
  return names.map((name) => ({
    name,
    columns: db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(name) as string[],
    parents: [...new Set(db.prepare('SELECT "table" FROM pragma_foreign_key_list(?)').pluck().all(name) as string[])].filter((p) => p !== name),
  }));
}

/**
 * Opens the database file read-only; `work` runs inside one read transaction (a consistent
 * snapshot, even while `serve` writes to it) that starts with the read of the schema.
 */
export async function readTables<T>(file: string, work: (source: TableSource) => Promise<T>): Promise<T> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN');
    try {
      // The snapshot starts at the first read: this one.
      const tables = schemaTables(db);
      return await work({
        version: db.pragma('user_version', { simple: true }) as number,
        tables,
        count: (table) => db.prepare(`SELECT count(*) FROM ${quote(table)}`).pluck().get() as number,
        rows: (table) => db.prepare(`SELECT ${table.columns.map(quote).join(', ')} FROM ${quote(table.name)} ORDER BY rowid`).raw().iterate() as IterableIterator<unknown[]>,
        finishedRecordingPaths: () =>
          db.prepare('SELECT path FROM recordings WHERE status = ? AND deleted_at IS NULL').pluck().all(RECORDING_STATUS.Finished) as Array<string | null>,
      });
    } finally {
      db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
}
