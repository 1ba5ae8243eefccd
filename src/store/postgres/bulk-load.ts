import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** An identifier quoted for SQL text. */
export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Rows joined into one chunk of the COPY stream: one write per chunk, not per row. */
export const ROWS_PER_CHUNK = 1000;

/**
 * One value in COPY's text format: `\N` for NULL, numbers as written, text with the backslash,
 * newline, carriage return and tab escaped (the only characters the format gives a meaning to).
 */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return value.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
  throw new Error(`A value of type ${typeof value} has no text form to copy.`);
}

function* chunks(rows: Iterable<unknown[]>, perChunk: number, counted: { rows: number }): Generator<string> {
  let lines: string[] = [];
  for (const row of rows) {
    lines.push(`${row.map(copyField).join('\t')}\n`);
    if (lines.length === perChunk) {
      counted.rows += lines.length;
      yield lines.join('');
      lines = [];
    }
  }
  counted.rows += lines.length;
  if (lines.length) yield lines.join('');
}

/**
 * Streams `rows` (arrays in `columns` order) into `table` with `COPY … FROM STDIN`; answers how
 * many. `freeze` writes them frozen and visible to all (PostgreSQL allows it only for a table
 * created or truncated earlier in the same transaction): no later pass sets their hint bits, and
 * `VACUUM` finds the pages already all-visible, so index-only scans work at once. `rowsPerChunk`
 * is for tests.
 */
export async function copyRows(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  rows: Iterable<unknown[]>,
  options: { freeze?: boolean; rowsPerChunk?: number } = {},
): Promise<number> {
  const counted = { rows: 0 };
  const sql = `COPY ${quote(table)} (${columns.map(quote).join(', ')}) FROM STDIN${options.freeze ? ' WITH (FREEZE)' : ''}`;
  await pipeline(Readable.from(chunks(rows, options.rowsPerChunk ?? ROWS_PER_CHUNK, counted)), client.query(copyFrom(sql)));
  return counted.rows;
}

interface Deferred {
  /** Plain (non-constraint) indexes: name and definition. */
  indexes: Array<{ name: string; def: string }>;
  /** Foreign keys: table, name and definition. */
  foreignKeys: Array<{ table: string; name: string; def: string }>;
}

async function deferrable(client: pg.ClientBase, tables: readonly string[]): Promise<Deferred> {
  const indexes = await client.query<{ name: string; def: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS def
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1)
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)
     ORDER BY i.relname`,
    [tables],
  );
  const foreignKeys = await client.query<{ table: string; name: string; def: string }>(
    `SELECT t.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS def
     FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
     WHERE k.contype = 'f' AND t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1)
     ORDER BY t.relname, k.conname`,
    [tables],
  );
  return { indexes: indexes.rows, foreignKeys: foreignKeys.rows };
}

/**
 * Runs `load` (which fills `tables`) with their plain indexes, foreign keys and user triggers set
 * aside, then puts them back: each index is built once from the sorted rows instead of updated row
 * by row, each foreign key is checked by one join over the table instead of a lookup per row (a
 * violation fails the transaction as the row-by-row check would), and no trigger runs per row.
 * Everything happens in the caller's transaction, so a failure leaves the schema as it was. The
 * caller answers for what the triggers would have done: the change counters (see `bumpChanges`),
 * the list counters (`recountListCounts`, list-counts.ts) and any column a trigger computes must
 * already be right in the rows loaded.
 */
export async function withDeferredIndexes<T>(client: pg.ClientBase, tables: readonly string[], load: () => Promise<T>): Promise<T> {
  const deferred = await deferrable(client, tables);
  for (const k of deferred.foreignKeys) await client.query(`ALTER TABLE ${quote(k.table)} DROP CONSTRAINT ${quote(k.name)}`);
  for (const i of deferred.indexes) await client.query(`DROP INDEX ${quote(i.name)}`);
  for (const t of tables) await client.query(`ALTER TABLE ${quote(t)} DISABLE TRIGGER USER`);
  const result = await load();
  for (const t of tables) await client.query(`ALTER TABLE ${quote(t)} ENABLE TRIGGER USER`);
  // Index builds sort in memory up to this much (the default 64 MB spills a 1M-row build to disk).
  await client.query("SET LOCAL maintenance_work_mem = '256MB'");
  for (const i of deferred.indexes) await client.query(i.def);
  for (const k of deferred.foreignKeys) await client.query(`ALTER TABLE ${quote(k.table)} ADD CONSTRAINT ${quote(k.name)} ${k.def}`);
  return result;
}

/** Moves every change counter, as the triggers would have for the writes of a bulk load. */
export async function bumpChanges(client: pg.ClientBase): Promise<void> {
  await client.query('UPDATE confctl_changes SET counter = counter + 1');
}
