/**
 * `confctl admin copy`: a local SQLite instance moved into PostgreSQL.
 *
 * Every table of SQLite's schema is copied in foreign-key order, its rows verbatim (the same ids,
 * timestamps, soft-deleted rows and stored JSON text: the PostgreSQL schema stores values as SQLite
 * does), by `COPY … FROM STDIN`, all in ONE PostgreSQL transaction with the identity sequences
 * reset past the copied ids and the instance's URL-signing secret stored as the database's
 * `signing_secret`: so recording URLs and join tokens signed by the SQLite instance verify on every
 * instance serving from PostgreSQL. The tables are emptied in that transaction first (so the rows
 * are written frozen) and their indexes, foreign keys and triggers set aside until the rows are in
 * (see `withDeferredIndexes`). A database that already holds confctl data (a tenant) is refused
 * unless `replace`, which also empties the shared settings (never a merge). The SQLite side is read
 * in one read transaction, a consistent snapshot even while `serve` writes to it. The commit waits
 * for PostgreSQL's WAL flush whatever the server's `synchronous_commit`, and is followed by
 * `VACUUM (ANALYZE)`: planner statistics and the visibility map that index-only scans need.
 *
 * The recording files are copied from the instance's media directory to the target one before
 * the database transaction commits: rows never name a file that is not in place. A source whose
 * Finished recordings name files its media directory does not hold is refused (`MediaMissing`).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { dataDirLayout, instanceSecret } from '../local/data-dir.js';
import { INIT_LOCK } from '../local/init.js';
import { copyPrivateFile, ensurePrivateDir } from '../media/files.js';
import { openStore, SCHEMA_VERSION } from '../store/index.js';
import { createPool, maskDatabaseUrl } from '../store/postgres/pool.js';
import { migrate } from '../store/postgres/migrate.js';
import { ensureTrigramIndexes } from '../store/postgres/trigram.js';
import { resetSequences } from '../store/postgres/schema.js';
import { bumpChanges, copyRows, quote, withDeferredIndexes } from '../store/postgres/bulk-load.js';
import { filesUnder } from './backup.js';
import { AdminError } from './errors.js';
import { RECORDING_STATUS } from '../contract/index.js';

/** The name of the signing secret among the database's `confctl_settings` (as `serve --database` reads it). */
export const SIGNING_SECRET_SETTING = 'signing_secret';

/** The tables besides the data tables that `replace` empties: shared settings and rate-limit windows. */
const SHARED_TABLES = ['confctl_settings', 'confctl_rate_windows'] as const;


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

export interface TableCount {
  table: string;
  rows: number;
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

/** A table of the SQLite schema: its columns in order. */
interface SourceTable {
  name: string;
  columns: string[];
}

/**
 * The tables of SQLite's schema (not SQLite's own, nor the trigram indexes' FTS5 tables, which
 * are derived from the rows and have no PostgreSQL twin), parents before children: a table comes after
 * every table its foreign keys name; ties in the order the schema created them.
 */
export function tablesInForeignKeyOrder(db: Database.Database): SourceTable[] {
  const names = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name IN (SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table') ORDER BY rowid")
    .pluck()
    .all() as string[];
  const parents = new Map(
    names.map((n) => [n, new Set((db.prepare('SELECT "table" FROM pragma_foreign_key_list(?)').pluck().all(n) as string[]).filter((p) => p !== n))]),
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const next = names.find((n) => !placed.has(n) && [...parents.get(n)!].every((p) => placed.has(p) || !parents.has(p)));
    if (!next) throw new AdminError('invalid', `The foreign keys of ${names.filter((n) => !placed.has(n)).join(', ')} form a cycle.`);
    ordered.push(next);
    placed.add(next);
  }
  return ordered.map((name) => ({ name, columns: (db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(name) as string[]) }));
}

/** The SQLite database of `dir`, checked and brought up to this confctl's schema (as any admin command opening it would). */
function sourceDatabase(dir: string): string {
  const file = dataDirLayout(dir).database;
  if (!existsSync(file)) throw new AdminError('not_found', `${dir} holds no confctl instance (no confctl.db).`);
  const probe = new Database(file, { readonly: true, fileMustExist: true });
  let version: number;
  try {
    version = probe.pragma('user_version', { simple: true }) as number;
  } finally {
    probe.close();
  }
  if (version > SCHEMA_VERSION) {
    throw new AdminError('conflict', `${file} has schema version ${version}, newer than this confctl's ${SCHEMA_VERSION}; copy it with a newer confctl.`);
  }
  if (version < SCHEMA_VERSION) openStore(file).close();
  return file;
}

/** Opens the source for reading; `work` runs inside one read transaction (a consistent snapshot). */
async function readingSource<T>(file: string, work: (db: Database.Database, tables: SourceTable[]) => Promise<T>): Promise<T> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN');
    try {
      // The snapshot starts at the first read: this one.
      const tables = tablesInForeignKeyOrder(db);
      return await work(db, tables);
    } finally {
      db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
}

const countRows = (db: Database.Database, table: string) => db.prepare(`SELECT count(*) FROM ${quote(table)}`).pluck().get() as number;

/** The columns of each table of the database's current schema. */
async function targetColumns(client: pg.ClientBase): Promise<Map<string, Set<string>>> {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(
    'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()',
  );
  const tables = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!tables.has(r.table_name)) tables.set(r.table_name, new Set());
    tables.get(r.table_name)!.add(r.column_name);
  }
  return tables;
}

/** Every source table and column exists in the database (SQLite's and PostgreSQL's schemas must match). */
function checkSchemas(source: SourceTable[], target: Map<string, Set<string>>): void {
  for (const t of source) {
    const columns = target.get(t.name);
    if (!columns) throw new AdminError('invalid', `The PostgreSQL schema has no table ${t.name}; this confctl's two schemas differ.`);
    const missing = t.columns.filter((c) => !columns.has(c));
    if (missing.length) throw new AdminError('invalid', `The PostgreSQL table ${t.name} has no column ${missing.join(', ')}; this confctl's two schemas differ.`);
  }
}

/** Tenants in the database; 0 when it has no confctl schema yet. */
async function tenantCount(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ present: boolean }>("SELECT to_regclass('tenants') IS NOT NULL AS present");
  if (!rows[0].present) return 0;
  return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM tenants')).rows[0].n;
}

function refusal(to: string, tenants: number): AdminError {
  return new AdminError('conflict', `${maskDatabaseUrl(to)} already holds confctl data (${tenants} tenant${tenants === 1 ? '' : 's'}); pass --replace to empty it first.`);
}

async function withClient<T>(url: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const pool = createPool(url, 1);
  try {
    const client = await pool.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

/**
 * A copy refused because the source's media directory lacks files that its Finished recordings
 * name: copied, each of them would answer 404. The CLI reports it as a usage error (a wrong --media).
 */
export class MediaMissing extends Error {
  override name = 'MediaMissing';
}

const isFile = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Refuses a source whose live Finished recordings name files (relative to `mediaFrom`) that are not there. */
function checkRecordingFiles(db: Database.Database, mediaFrom: string): void {
  const paths = db
    .prepare('SELECT path FROM recordings WHERE status = ? AND deleted_at IS NULL')
    .pluck()
    .all(RECORDING_STATUS.Finished) as Array<string | null>;
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
  const tables = await readingSource(file, async (db, list) => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw new AdminError('conflict', `${file} has schema version ${version}, newer than this confctl's ${SCHEMA_VERSION}.`);
    checkRecordingFiles(db, options.mediaFrom);
    return list.map((t) => ({ table: t.name, rows: countRows(db, t.name) }));
  });
  const tenants = await withClient(options.to, tenantCount);
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

/** A table's rows as SQLite stores them, arrays in `table.columns` order, in rowid order. */
const sourceRows = (db: Database.Database, table: SourceTable) =>
  db.prepare(`SELECT ${table.columns.map(quote).join(', ')} FROM ${quote(table.name)} ORDER BY rowid`).raw().iterate() as IterableIterator<unknown[]>;

/**
 * Copies the instance at `options.from` into the database at `options.to` (see the module's
 * comment). Throws `AdminError` 'conflict' for a database holding confctl data without `replace`:
 * nothing is written to the database then, and no file is copied (unless a tenant appeared between
 * the first check and the transaction's). Like every command opening a data directory, it brings
 * an older schema of the source up to date and creates its `instance.json` if it has none.
 */
export async function copyToPostgres(options: CopyOptions): Promise<CopySummary> {
  const from = path.resolve(options.from);
  const file = sourceDatabase(from);
  const secret = instanceSecret(dataDirLayout(from));
  return readingSource(file, async (db, tables) => {
    checkRecordingFiles(db, options.mediaFrom);
    return withClient(options.to, async (client) => {
      await migrate(client);
      await ensureTrigramIndexes(client);
      const before = await tenantCount(client);
      if (before > 0 && !options.replace) throw refusal(options.to, before);
      checkSchemas(tables, await targetColumns(client));
      // Listed after the snapshot began: a recording's file is in place before its row commits, so
      // every file a copied row names is among them (as in admin backup).
      const media = mediaFiles(options);
      if (!media.summary.same) {
        ensurePrivateDir(media.summary.to);
        for (const f of media.files) copyPrivateFile(path.join(media.summary.from, f), path.join(media.summary.to, f));
      }
      await client.query('BEGIN');
      let counts: TableCount[];
      try {
        await client.query('SET LOCAL synchronous_commit = on');
        // Taken by serve --database to create the first tenant of an empty database: none is created meanwhile.
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [INIT_LOCK]);
        const tenants = await tenantCount(client);
        if (tenants > 0 && !options.replace) throw refusal(options.to, tenants);
        // Without a tenant the tables hold nothing of confctl's; emptied here, the rows copy frozen.
        const emptied = [...tables.map((t) => t.name), ...(options.replace ? SHARED_TABLES : [])];
        await client.query(`TRUNCATE ${emptied.map(quote).join(', ')} RESTART IDENTITY CASCADE`);
        // The triggers set aside would only recompute users' JSON text, which SQLite stores by the same rules.
        counts = await withDeferredIndexes(client, tables.map((t) => t.name), async () => {
          const copied: TableCount[] = [];
          for (const table of tables) {
            copied.push({ table: table.name, rows: await copyRows(client, table.name, table.columns, sourceRows(db, table), { freeze: true, rowsPerChunk: options.rowsPerChunk }) });
          }
          return copied;
        });
        await bumpChanges(client);
        await resetSequences(client);
        await client.query(
          'INSERT INTO confctl_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
          [SIGNING_SECRET_SETTING, secret],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
      // Planner statistics and the visibility map for the tables just filled (autovacuum would take
      // its time): without statistics a list page of a 20,000-user tenant took 10 ms instead of
      // 0.06 ms; without the visibility map no count or deep page is an index-only scan.
      await client.query(`VACUUM (ANALYZE) ${tables.map((t) => quote(t.name)).join(', ')}`);
      return {
        from,
        to: maskDatabaseUrl(options.to),
        replaced: options.replace,
        tables: counts,
        rows: counts.reduce((sum, t) => sum + t.rows, 0),
        signing_secret: true,
        media: media.summary,
      };
    });
  });
}
