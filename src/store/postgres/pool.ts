import pg from 'pg';
import { UniqueViolation } from '../util.js';

/** What both a pool and a transaction's client can do: run one parameterized statement. */
export interface Queryable {
  // pg's own default row type, so that a pool and a client are both Queryable.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query<R extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** int8 (ids, `COUNT(*)`) as a JavaScript number: ids stay far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === (pg.types.builtins.INT8 as number) ? (v: string) => Number(v) : (pg.types.getTypeParser(oid, format) as (v: string) => unknown)) as typeof pg.types.getTypeParser,
};

/** A pool on `url`, with ids and counts as numbers; `max` connections (default 10); `config` adds pg's client settings. */
export function createPool(url: string, max = 10, config: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({ ...config, connectionString: url, max, types });
  // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return pool;
}

/**
 * Runs `work` in one transaction on a client of its own: COMMIT when it resolves, ROLLBACK when it
 * throws; `begin` opens it (e.g. with an isolation level).
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** The first row of a statement, or undefined. */
export async function one<R extends pg.QueryResultRow>(db: Queryable, text: string, values: unknown[] = []): Promise<R | undefined> {
  return (await db.query<R>(text, values)).rows[0];
}

/** Every row of a statement. */
export async function all<R extends pg.QueryResultRow>(db: Queryable, text: string, values: unknown[] = []): Promise<R[]> {
  return (await db.query<R>(text, values)).rows;
}

/**
 * Runs a write, turning PostgreSQL's unique violation (23505) into a `UniqueViolation` naming the
 * column of the clashing key (`email`, `public_id`...): another writer got there between the
 * check and the write.
 */
export async function guardUnique<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    const e = err as { code?: string; detail?: string };
    if (e.code !== '23505') throw err;
    const key = /Key \((.*?)\)=/.exec(e.detail ?? '')?.[1] ?? '';
    const column = /\b(email|public_id|backer_event_id|domain|name)\b/.exec(key)?.[1] ?? 'id';
    throw new UniqueViolation(column);
  }
}
