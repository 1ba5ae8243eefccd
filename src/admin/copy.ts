/**
 * `confctl admin copy`: a local SQLite instance moved into PostgreSQL.
 *
 * Every table of SQLite's schema is copied in foreign-key order, its rows verbatim (the same ids,
 * timestamps, soft-deleted rows and stored JSON text: the PostgreSQL schema stores values as SQLite
 * does), by `COPY … FROM STDIN`, all in ONE PostgreSQL transaction with the identity sequences
 * reset past the copied ids and the instance's URL-signing secret stored as the database's
 * `signing_secret`: so recording URLs and join tokens signed by the SQLite instance verify on every
 * instance serving from PostgreSQL (the adapter's side: store/postgres/copy-in.ts). A database that
 * already holds confctl data (a tenant) is refused unless `replace`, which also empties the shared
 * settings (never a merge). The SQLite side is read in one read transaction, a consistent snapshot
 * even while `serve` writes to it (store/sqlite/tables.ts).
 *
 * The recording files are copied from the instance's media directory to the target one before
 * the database transaction commits: rows never name a file that is not in place. A source whose
 * Finished recordings name files its media directory does not hold is refused (`MediaMissing`).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { dataDirLayout, instanceSecret } from '../local/data-dir.js';
import { INIT_LOCK } from '../local/init.js';
import { copyPrivateFile, ensurePrivateDir, filesUnder } from '../media/files.js';
import {
  copyTablesToDatabase,
  databaseTenantCount,
  maskDatabaseUrl,
  openStore,
  readTables,
  SCHEMA_VERSION,
  type SchemaTable,
  schemaVersionOf,
  type TableCount,
  type TableSource,
} from '../store/index.js';
import { AdminError, MediaMissing } from './errors.js';

export interface CopyOptions {
  /** The SQLite instance's data directory. */
  from: string;
  /** The PostgreSQL database URL. */
  to: string;
  /** Its recording files (the instance's `--media`, else its data directory's `media/`). */
  mediaFrom: string;
  /** Where the recording files go (the directory `serve --database` will be given). */
  mediaTo: string;
  /** Empty confctl's tables in the database first, instead of refusing one that holds data. */
  replace: boolean;
  /** Rows per chunk of the COPY stream; for tests. */
  rowsPerChunk?: number;
}

/** What a copy did (or, planned, would do). */
export interface CopySummary {
  from: string;
  /** The database URL with its password masked. */
  to: string;
  /** Whether confctl's tables in the database were emptied first (`--replace`). */
  replaced: boolean;
  /** Rows per table, in the order copied (foreign-key order). */
  tables: TableCount[];
  rows: number;
  /** The instance's signing secret is stored in the database's `confctl_settings`. */
  signing_secret: boolean;
  media: { from: string; to: string; files: number; bytes: number; /** The same directory: nothing to copy. */ same: boolean };
}

/** A table to copy: its columns in order. */
type SourceTable = Pick<SchemaTable, 'name' | 'columns'>;

/**
 * The tables of the source's schema, parents before children: a table comes after every table
 * its foreign keys name; ties in the order the schema created them.
 */
export function tablesInForeignKeyOrder(tables: readonly SchemaTable[]): SourceTable[] {
  const parents = new Map(tables.map((t) => [t.name, t.parents]));
  const ordered: SchemaTable[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find((t) => !placed.has(t.name) && t.parents.every((p) => placed.has(p) || !parents.has(p)));
    if (!next) throw new AdminError('invalid', `The foreign keys of ${tables.filter((t) => !placed.has(t.name)).map((t) => t.name).join(', ')} form a cycle.`);
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered.map(({ name, columns }) => ({ name, columns }));
}

/** The SQLite database of `dir`, checked and brought up to this confctl's schema (as any admin command opening it would). */
async function sourceDatabase(dir: string): Promise<string> {
  const file = dataDirLayout(dir).database;
  if (!existsSync(file)) throw new AdminError('not_found', `${dir} holds no confctl instance (no confctl.db).`);
  const version = schemaVersionOf(file);
  if (version > SCHEMA_VERSION) {
    throw new AdminError('conflict', `${file} has schema version ${version}, newer than this confctl's ${SCHEMA_VERSION}; copy it with a newer confctl.`);
  }
  if (version < SCHEMA_VERSION) await openStore(file).close();
  return file;
}

/** Every source table and column exists in the database (SQLite's and PostgreSQL's schemas must match). */
function checkSchemas(source: readonly SourceTable[], target: ReadonlyMap<string, ReadonlySet<string>>): void {
  for (const t of source) {
    const columns = target.get(t.name);
    if (!columns) throw new AdminError('invalid', `The PostgreSQL schema has no table ${t.name}; this confctl's two schemas differ.`);
    const missing = t.columns.filter((c) => !columns.has(c));
    if (missing.length) throw new AdminError('invalid', `The PostgreSQL table ${t.name} has no column ${missing.join(', ')}; this confctl's two schemas differ.`);
  }
}

function refusal(to: string, tenants: number): AdminError {
  return new AdminError('conflict', `${maskDatabaseUrl(to)} already holds confctl data (${tenants} tenant${tenants === 1 ? '' : 's'}); pass --replace to empty it first.`);
}

const isFile = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Refuses a source whose live Finished recordings name files (relative to `mediaFrom`) that are not there. */
function checkRecordingFiles(source: TableSource, mediaFrom: string): void {
  const paths = source.finishedRecordingPaths();
  const missing = paths.filter((p) => p === null || !isFile(path.resolve(mediaFrom, p))).length;
  if (missing) {
    throw new MediaMissing(`${missing} of the ${paths.length} Finished recordings have no file in ${path.resolve(mediaFrom)}; give the instance's media directory with --media`);
  }
}

/** The recording files to copy (all of them when the directories are one: nothing to copy then). */
function mediaFiles(options: CopyOptions): { summary: CopySummary['media']; files: string[] } {
  const from = path.resolve(options.mediaFrom);
  const to = path.resolve(options.mediaTo);
  const files = filesUnder(from);
  const bytes = files.reduce((sum, f) => sum + statSync(path.join(from, f)).size, 0);
  return { summary: { from, to, files: files.length, bytes, same: from === to }, files };
}

/**
 * What a copy would do, checking all it can without writing anything (the database is neither
 * migrated nor changed): the source exists and is not newer than this confctl, and the database
 * holds no confctl data unless `replace`.
 */
export async function planCopy(options: CopyOptions): Promise<CopySummary> {
  const from = path.resolve(options.from);
  const file = dataDirLayout(from).database;
  if (!existsSync(file)) throw new AdminError('not_found', `${from} holds no confctl instance (no confctl.db).`);
  const tables = await readTables(file, async (source) => {
    if (source.version > SCHEMA_VERSION) throw new AdminError('conflict', `${file} has schema version ${source.version}, newer than this confctl's ${SCHEMA_VERSION}.`);
    checkRecordingFiles(source, options.mediaFrom);
    return tablesInForeignKeyOrder(source.tables).map((t) => ({ table: t.name, rows: source.count(t.name) }));
  });
  const tenants = await databaseTenantCount(options.to);
  if (tenants > 0 && !options.replace) throw refusal(options.to, tenants);
  return {
    from,
    to: maskDatabaseUrl(options.to),
    replaced: options.replace,
    tables,
    rows: tables.reduce((sum, t) => sum + t.rows, 0),
    signing_secret: true,
    media: mediaFiles(options).summary,
  };
}

/**
 * Copies the instance at `options.from` into the database at `options.to` (see the module's
 * comment). Throws `AdminError` 'conflict' for a database holding confctl data without `replace`:
 * nothing is written to the database then, and no file is copied (unless a tenant appeared between
 * the first check and the transaction's). Like every command opening a data directory, it brings
 * an older schema of the source up to date and creates its `instance.json` if it has none.
 */
export async function copyToPostgres(options: CopyOptions): Promise<CopySummary> {
  const from = path.resolve(options.from);
  const file = await sourceDatabase(from);
  const secret = instanceSecret(dataDirLayout(from));
  return readTables(file, async (source) => {
    checkRecordingFiles(source, options.mediaFrom);
    const tables = tablesInForeignKeyOrder(source.tables);
    let media: ReturnType<typeof mediaFiles> | undefined;
    const counts = await copyTablesToDatabase(options.to, {
      tables,
      rows: (table) => source.rows(table),
      replace: options.replace,
      signingSecret: secret,
      // Taken by serve --database to create the first tenant of an empty database: none is created meanwhile.
      lock: INIT_LOCK,
      admit: (tenants) => {
        if (tenants > 0 && !options.replace) throw refusal(options.to, tenants);
      },
      checkColumns: (columns) => checkSchemas(tables, columns),
      beforeWrite: () => {
        // Listed after the snapshot began: a recording's file is in place before its row commits, so
        // every file a copied row names is among them (as in admin backup).
        media = mediaFiles(options);
        if (!media.summary.same) {
          ensurePrivateDir(media.summary.to);
          for (const f of media.files) copyPrivateFile(path.join(media.summary.from, f), path.join(media.summary.to, f));
        }
      },
      rowsPerChunk: options.rowsPerChunk,
    });
    return {
      from,
      to: maskDatabaseUrl(options.to),
      replaced: options.replace,
      tables: counts,
      rows: counts.reduce((sum, t) => sum + t.rows, 0),
      signing_secret: true,
      media: media!.summary,
    };
  });
}
