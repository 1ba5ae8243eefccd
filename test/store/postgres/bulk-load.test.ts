import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCopy, READ_AHEAD_BYTES } from '../../../src/store/postgres/bulk-load.js';
import { createTestDatabase, type TestDatabase } from '../../pg/database.js';
import { connect } from './databases.js';

/**
 * `copyRows` writes COPY's binary format. Each value must land as COPY's text format stored it
 * before: PostgreSQL's text input of the digits or text JavaScript writes for the value (the
 * oracle below inserts exactly that, as text parameters cast to the column's type).
 */
type CopyOptions = Parameters<typeof prepareCopy>[4];
const copyRows = async (c: pg.Client, table: string, columns: string[], rows: Iterable<unknown[]>, options?: CopyOptions) =>
  (await prepareCopy(c, table, columns, rows, options)).stream();

describe('prepareCopy: binary COPY', () => {
  let db: TestDatabase;
  let c: pg.Client;
  const columns = ['big', 'int', 'dbl', 'txt'];
  const create = (table: string) => c.query(`CREATE TABLE ${table} (n serial, big bigint, int integer, dbl double precision, txt text COLLATE "C")`);
  beforeAll(async () => {
    db = await createTestDatabase();
    c = await connect(db.url);
  });
  afterAll(async () => {
    await c.end();
    await db.drop();
  });

  /** Each row's columns as PostgreSQL prints them, in the order written. */
  const printed = async (table: string) =>
    (await c.query(`SELECT big::text, int::text, dbl::text, txt FROM ${table} ORDER BY n`)).rows.map((r) => [r.big, r.int, r.dbl, r.txt]);

  /** The same rows inserted through PostgreSQL's text input of `String(value)`, as COPY's text format had them. */
  async function oracle(table: string, rows: unknown[][]): Promise<void> {
    await create(table);
    for (const row of rows) {
      const text = row.map((v) => (v === null ? null : String(v as string | number | bigint)));
      await c.query(`INSERT INTO ${table} (big, int, dbl, txt) VALUES ($1::text::bigint, $2::text::integer, $3::text::double precision, $4::text)`, text);
    }
  }

  it('writes every value as the text format stored it: integers at their limits, doubles, any text, numbers in text, NULLs', async () => {
    const rows: unknown[][] = [
      [0, 0, 0, ''],
      [1, -1, 0.1, 'tab\there, newline\nthere, back\\slash, return\r, "quotes"'],
      [-1, 2 ** 31 - 1, -2.5, 'é ü 漢字 🎉'],
      [2 ** 31, -(2 ** 31), 1 / 3, 'lone \ud800 surrogate'],
      [-(2 ** 31) - 1, 7, 1e308, 42],
      [2 ** 32, null, 5e-324, 1.5],
      [-(2 ** 32), 3, -0, 1e21],
      [Number.MAX_SAFE_INTEGER, 4, NaN, 12345678901234567890n],
      [-Number.MAX_SAFE_INTEGER, 5, Infinity, 'x'.repeat(100_000)],
      [2 ** 60, 6, -Infinity, null],
      [1234567890123456800, 8, 3, 'last'],
      [9223372036854775807n, 9, 12345678901234567890n, '∑'],
      [-9223372036854775808n, 10n, 0.30000000000000004, 'z'],
      [null, null, null, null],
    ];
    await create('binary_rows');
    expect(await copyRows(c, 'binary_rows', columns, rows, { rowsPerChunk: 4 })).toBe(rows.length);
    await oracle('text_rows', rows);
    expect(await printed('binary_rows')).toEqual(await printed('text_rows'));
    expect((await printed('binary_rows'))[3][3]).toBe('lone \ufffd surrogate');
  });

  it('copies no rows, and row counts that fill their chunks exactly', async () => {
    await create('empty_rows');
    expect(await copyRows(c, 'empty_rows', columns, [])).toBe(0);
    expect(await printed('empty_rows')).toEqual([]);
    await create('full_chunks');
    const rows = Array.from({ length: 6 }, (_, i) => [i, i, i / 2, `row ${i}`]);
    expect(await copyRows(c, 'full_chunks', columns, rows, { rowsPerChunk: 3 })).toBe(6);
    expect(await printed('full_chunks')).toEqual(rows.map(([a, b, d, t]) => [String(a), String(b), String(d), t]));
  });

  it('refuses a value the column type would not take from text, writing no row, and the connection goes on', async () => {
    await create('refused');
    const refused: Array<[unknown[], RegExp]> = [
      [[1.5, 0, 0, 'a'], /value 1.5 of column big is no bigint/],
      [[2 ** 63, 0, 0, 'a'], /column big is no bigint/],
      [['12', 0, 0, 'a'], /value "12" of column big is no bigint/],
      [[0, 2 ** 31, 0, 'a'], /column int is no integer/],
      [[0, 0, '0.5', 'a'], /column dbl is no double precision/],
      [[0, 0, 0, Buffer.from('a')], /type object \(column txt\) has no text form/],
      [[0, 0, 0, 'Nul\0Byte'], /0x00/],
    ];
    for (const [row, message] of refused) {
      await expect(copyRows(c, 'refused', columns, [[1, 1, 1, 'fine'], row], { rowsPerChunk: 1 })).rejects.toThrow(message);
      expect(await printed('refused')).toEqual([]);
    }
  });

  it('refuses a column of a type it has no binary form for, before writing', async () => {
    await c.query('CREATE TABLE other_types (flag boolean)');
    await expect(copyRows(c, 'other_types', ['flag'], [[true]])).rejects.toThrow(/Column flag of other_types has type boolean, which the copy cannot write/);
    expect((await c.query('SELECT count(*)::int AS n FROM other_types')).rows[0].n).toBe(0);
  });

  /** `count` rows whose reading is logged in `read` (the row numbers read so far). */
  function* logged(count: number, read: number[]): Generator<unknown[]> {
    for (let i = 0; i < count; i++) {
      read.push(i);
      yield [i, i, i, `row ${i}`];
    }
  }

  it('reads rows ahead while the connection works, up to its limit, then streams them all in order', async () => {
    await create('ahead');
    const read: number[] = [];
    const copy = await prepareCopy(c, 'ahead', columns, logged(50, read), { rowsPerChunk: 5, aheadBytes: 150 });
    // Reading ahead stops at the limit: 150 bytes are a few 5-row chunks of ~65 bytes, not 50 rows.
    expect(await copy.readAhead(c.query('SELECT pg_sleep(0.2), 7 AS n').then((r) => r.rows[0].n))).toBe(7);
    expect(read.length).toBeGreaterThanOrEqual(5);
    expect(read.length).toBeLessThan(50);
    expect(await copy.stream()).toBe(50);
    expect((await printed('ahead')).map((r) => r[3])).toEqual(Array.from({ length: 50 }, (_, i) => `row ${i}`));
  });

  it('holds what docs/instances-and-postgresql.md says of the rows read ahead', () => {
    const doc = readFileSync(new URL('../../../docs/instances-and-postgresql.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain("while `admin copy` reads the next table's rows ahead (holding up to 256 MB of them in memory)");
    expect(READ_AHEAD_BYTES).toBe(256 * 1024 * 1024);
  });

  it('reads a small table ahead whole; a refused value fails it once the work is done, a failed work fails it too', async () => {
    await create('whole');
    const read: number[] = [];
    const copy = await prepareCopy(c, 'whole', columns, logged(12, read), { rowsPerChunk: 5 });
    await copy.readAhead(c.query('SELECT pg_sleep(0.2)'));
    expect(read).toHaveLength(12);
    expect(await copy.stream()).toBe(12);

    let worked = false;
    const refused = await prepareCopy(c, 'whole', columns, [[1.5, 0, 0, 'a']]);
    await expect(refused.readAhead(c.query('SELECT pg_sleep(0.1)').then(() => (worked = true)))).rejects.toThrow(/value 1.5 of column big is no bigint/);
    expect(worked).toBe(true);
    const fine = await prepareCopy(c, 'whole', columns, [[1, 0, 0, 'a']]);
    await expect(fine.readAhead(c.query('SELECT 1/0'))).rejects.toThrow(/division by zero/);
    // A work that fails while rows are still being read ahead: its failure, not an unhandled one.
    const partly: number[] = [];
    const long = await prepareCopy(c, 'whole', columns, logged(1_000_000, partly), { rowsPerChunk: 10 });
    await expect(long.readAhead(c.query('SELECT pg_sleep(0.1), 1/0'))).rejects.toThrow(/division by zero/);
    expect(partly.length).toBeGreaterThan(0);
    expect(partly.length).toBeLessThan(1_000_000);
    expect(await printed('whole')).toHaveLength(12);
  });
});
