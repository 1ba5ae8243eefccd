import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** An identifier quoted for SQL text. */
export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Rows encoded into one chunk of the COPY stream: one write per chunk, not per row. */
export const ROWS_PER_CHUNK = 1000;

/**
 * One column's value in COPY's binary format, after its 4-byte length: written at `at` into
 * `out` (which has room for `bound(value)` bytes); answers the bytes written. Throws for a value
 * PostgreSQL's text input of the column's type would refuse too (COPY's text format was used
 * before, and the values it accepted are exactly the ones encoded here).
 */
interface BinaryEncoder {
  /** At most this many bytes for `value`. */
  bound(value: unknown): number;
  write(out: Buffer, at: number, value: unknown, column: string): number;
}

const TWO_32 = 2 ** 32;

const refuse = (value: unknown, type: string, column: string): never => {
  throw new Error(`The value ${typeof value === 'string' ? JSON.stringify(value) : String(value)} of column ${column} is no ${type}.`);
};

/**
 * A whole number as a bigint, as PostgreSQL would read the digits JavaScript writes for it: a
 * number beyond 2^53 (which SQLite's integer lost precision to become) by its printed digits.
 */
const wholeNumber = (value: unknown): bigint | undefined => {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return Number.isSafeInteger(value) ? BigInt(value) : BigInt(String(value));
  return undefined;
};

/** The binary form of each column type confctl's PostgreSQL schema uses (by `format_type` name). */
const BINARY_ENCODERS: Readonly<Record<string, BinaryEncoder>> = {
  bigint: {
    bound: () => 8,
    write(out, at, value, column) {
      if (typeof value === 'number' && Number.isSafeInteger(value)) {
        // Two 32-bit halves: no bigint made for each value. Math.floor keeps a negative's high half right.
        const high = Math.floor(value / TWO_32);
        out.writeInt32BE(high, at);
        out.writeUInt32BE(value - high * TWO_32, at + 4);
        return 8;
      }
      const whole = wholeNumber(value);
      if (whole === undefined || whole < -(2n ** 63n) || whole >= 2n ** 63n) return refuse(value, 'bigint', column);
      out.writeBigInt64BE(whole, at);
      return 8;
    },
  },
  integer: {
    bound: () => 4,
    write(out, at, value, column) {
      const whole = typeof value === 'number' && Number.isInteger(value) ? value : wholeNumber(value);
      if (whole === undefined || whole < -(2 ** 31) || whole >= 2 ** 31) return refuse(value, 'integer', column);
      out.writeInt32BE(Number(whole), at);
      return 4;
    },
  },
  'double precision': {
    bound: () => 8,
    write(out, at, value, column) {
      if (typeof value !== 'number' && typeof value !== 'bigint') return refuse(value, 'double precision', column);
      // -0 as 0: JavaScript writes it "0", which is what the text format stored.
      const number = Number(value);
      out.writeDoubleBE(number === 0 ? 0 : number, at);
      return 8;
    },
  },
  // Text as UTF-8; a number as JavaScript writes it (what COPY's text format was sent). A lone
  // surrogate becomes U+FFFD, as it did in the text stream. PostgreSQL refuses a NUL character.
  text: {
    bound: (value) => (typeof value === 'string' ? value.length * 3 : String(value).length),
    write(out, at, value, column) {
      if (typeof value === 'string') return out.write(value, at);
      if (typeof value === 'number' || typeof value === 'bigint') return out.write(String(value), at);
      throw new Error(`A value of type ${typeof value} (column ${column}) has no text form to copy.`);
    },
  },
};

/** COPY's binary signature, flags (none) and header extension length (none). */
const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** The end of COPY's binary data: a field count of -1. */
const BINARY_TRAILER = Buffer.from([0xff, 0xff]);

/** The encoders of `columns` of `table` (its column types read from the catalog). */
async function encodersOf(client: pg.ClientBase, table: string, columns: readonly string[]): Promise<BinaryEncoder[]> {
  const { rows } = await client.query<{ name: string; type: string }>(
    'SELECT attname AS name, format_type(atttypid, NULL) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped',
    [quote(table)],
  );
  const types = new Map(rows.map((r) => [r.name, r.type]));
  return columns.map((c) => {
    const type = types.get(c);
    const encoder = type === undefined ? undefined : BINARY_ENCODERS[type];
    if (!encoder) throw new Error(`Column ${c} of ${table} has type ${type ?? 'none'}, which the copy cannot write.`);
    return encoder;
  });
}

/** The rows in COPY's binary format, `perChunk` rows a chunk, header first and trailer last. */
function* binaryChunks(rows: Iterable<unknown[]>, columns: readonly string[], encoders: readonly BinaryEncoder[], perChunk: number, counted: { rows: number }): Generator<Buffer> {
  let batch: unknown[][] = [];
  const encode = (first: boolean): Buffer => {
    let room = first ? BINARY_HEADER.length : 0;
    for (const row of batch) {
      room += 2 + 4 * row.length;
      for (let i = 0; i < row.length; i++) if (row[i] !== null && row[i] !== undefined) room += encoders[i].bound(row[i]);
    }
    const out = Buffer.allocUnsafe(room);
    let at = first ? BINARY_HEADER.copy(out, 0) : 0;
    for (const row of batch) {
      at = out.writeInt16BE(row.length, at);
      for (let i = 0; i < row.length; i++) {
        const value = row[i];
        if (value === null || value === undefined) {
          at = out.writeInt32BE(-1, at);
        } else {
          const length = encoders[i].write(out, at + 4, value, columns[i]);
          out.writeInt32BE(length, at);
          at += 4 + length;
        }
      }
    }
    counted.rows += batch.length;
    batch = [];
    return out.subarray(0, at);
  };
  let first = true;
  for (const row of rows) {
    batch.push(row);
    if (batch.length === perChunk) {
      yield encode(first);
      first = false;
    }
  }
  if (batch.length || first) yield encode(first);
  yield BINARY_TRAILER;
}

/** How many bytes of a table's encoded rows `TableCopy.readAhead` holds at most (all of 1M customers). */
export const READ_AHEAD_BYTES = 256 * 1024 * 1024;

/** The COPY of one table's rows, prepared (see `prepareCopy`). */
export interface TableCopy {
  /**
   * Encodes rows ahead into memory (up to `READ_AHEAD_BYTES`), a chunk a turn of the event loop,
   * until `during` settles; answers what it does. Reading SQLite and encoding are the copy's own
   * CPU, done here while PostgreSQL works on the connection (an earlier table's index builds,
   * which leave part of the machine idle) instead of while PostgreSQL waits for the stream.
   */
  readAhead<T>(during: Promise<T>): Promise<T>;
  /** Streams the rows (those read ahead first) into the table; answers how many. */
  stream(): Promise<number>;
}

/**
 * Prepares the COPY of `rows` (arrays in `columns` order) into `table` with `COPY … FROM STDIN`
 * in the binary format, whose encoders it reads from the catalog now: `rows` is not read before
 * `readAhead` or `stream`. Binary, because PostgreSQL then reads each value's length instead of
 * scanning the text for delimiters and escapes: 5.5 s of its CPU instead of 7.9–10.7 s for the
 * 1M users, whose rows carry about 1 KB of text each (docs/performance.md). `freeze` writes them
 * frozen and visible to all (PostgreSQL allows it only for a table created or truncated earlier
 * in the same transaction): no later pass sets their hint bits, and `VACUUM` finds the pages
 * already all-visible, so index-only scans work at once. `rowsPerChunk` and `aheadBytes` are
 * for tests.
 */
export async function prepareCopy(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  rows: Iterable<unknown[]>,
  options: { freeze?: boolean; rowsPerChunk?: number; aheadBytes?: number } = {},
): Promise<TableCopy> {
  const encoders = await encodersOf(client, table, columns);
  const counted = { rows: 0 };
  const chunks = binaryChunks(rows, columns, encoders, options.rowsPerChunk ?? ROWS_PER_CHUNK, counted);
  const ahead: Buffer[] = [];
  let aheadBytes = 0;
  let ended = false;
  return {
    async readAhead(during) {
      let settled = false;
      const outcome = during.finally(() => (settled = true));
      // Handled at once: `during` may fail while rows are still being read (it is awaited below).
      outcome.catch(() => undefined);
      let failure: { error: unknown } | undefined;
      try {
        while (!settled && !ended && aheadBytes < (options.aheadBytes ?? READ_AHEAD_BYTES)) {
          const next = chunks.next();
          if (next.done) {
            ended = true;
          } else {
            // A copy of its own size: the encoder's buffer has room for the worst case.
            ahead.push(Buffer.from(next.value));
            aheadBytes += next.value.length;
            await setImmediate();
          }
        }
      } catch (error) {
        failure = { error };
      }
      const result = await outcome;
      if (failure) throw failure.error;
      return result;
    },
    async stream() {
      const sql = `COPY ${quote(table)} (${columns.map(quote).join(', ')}) FROM STDIN WITH (FORMAT binary${options.freeze ? ', FREEZE' : ''})`;
      function* all(): Generator<Buffer> {
        yield* ahead.splice(0);
        if (!ended) yield* chunks;
      }
      await pipeline(Readable.from(all()), client.query(copyFrom(sql)));
      return counted.rows;
    },
  };
}

interface Deferred {
  /** Plain (non-constraint) indexes: table, name and definition. */
  indexes: Array<{ table: string; name: string; def: string }>;
  /** Foreign keys: table, name and definition. */
  foreignKeys: Array<{ table: string; name: string; def: string }>;
}

async function deferrable(client: pg.ClientBase, tables: readonly string[]): Promise<Deferred> {
  const indexes = await client.query<{ table: string; name: string; def: string }>(
    `SELECT t.relname AS table, i.relname AS name, pg_get_indexdef(x.indexrelid) AS def
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
 * `load` may build a table's indexes once it is filled (`restore`), the others are built after
 * it. Everything happens in the caller's transaction, so a failure leaves the schema as it was.
 * The caller answers for what the triggers would have done: the change counters (see
 * `bumpChanges`), the list counters (`recountListCounts`, list-counts.ts) and any column a
 * trigger computes must already be right in the rows loaded.
 */
export async function withDeferredIndexes<T>(
  client: pg.ClientBase,
  tables: readonly string[],
  load: (restore: (table: string) => Promise<void>) => Promise<T>,
): Promise<T> {
  const deferred = await deferrable(client, tables);
  for (const k of deferred.foreignKeys) await client.query(`ALTER TABLE ${quote(k.table)} DROP CONSTRAINT ${quote(k.name)}`);
  for (const i of deferred.indexes) await client.query(`DROP INDEX ${quote(i.name)}`);
  for (const t of tables) await client.query(`ALTER TABLE ${quote(t)} DISABLE TRIGGER USER`);
  // Index builds sort in memory up to this much (the default 64 MB spills a 1M-row build to disk).
  await client.query("SET LOCAL maintenance_work_mem = '256MB'");
  let pending = deferred.indexes;
  const restore = async (table: string) => {
    const now = pending.filter((i) => i.table === table);
    pending = pending.filter((i) => i.table !== table);
    for (const i of now) await client.query(i.def);
  };
  const result = await load(restore);
  for (const t of tables) await client.query(`ALTER TABLE ${quote(t)} ENABLE TRIGGER USER`);
  for (const t of tables) await restore(t);
  for (const k of deferred.foreignKeys) await client.query(`ALTER TABLE ${quote(k.table)} ADD CONSTRAINT ${quote(k.name)} ${k.def}`);
  return result;
}

/** Moves every change counter, as the triggers would have for the writes of a bulk load. */
export async function bumpChanges(client: pg.ClientBase): Promise<void> {
  await client.query('UPDATE confctl_changes SET counter = counter + 1');
}
