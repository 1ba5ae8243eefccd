import type { PgCompiledList } from './list-query.js';
import type { Queryable } from './pool.js';

/** Most totals held; past it the cache starts over, so it never grows beyond. */
export const MAX_CACHED_TOTALS = 1000;

/**
 * The exact totals of list queries, each kept while the change counters of the tables it reads
 * stay the same (as the SQLite store keeps them while its change token does): a count over a large
 * tenant costs milliseconds of the database's CPU, the page beside it a few microseconds. A write
 * to customers leaves the users' totals alone. `tokens` answers the counters of the named tables
 * (read from the database once per batch of requests, see `openPostgresStore`, so another
 * process's commit is seen by the next request); they are read before counting, so a total counted
 * across a concurrent write is filed under the older counters and recounted by the next request,
 * which sees the newer ones.
 */
export class ListTotals {
  private readonly totals = new Map<string, { token: string; total: number }>();

  constructor(private readonly tokens: (tables: readonly string[]) => Promise<string>) {}

  async count(db: Queryable, list: Pick<PgCompiledList, 'count' | 'tables'>): Promise<number> {
    const token = await this.tokens(list.tables);
    const key = `${list.count.text}\0${JSON.stringify(list.count.values)}`;
    const known = this.totals.get(key);
    if (known?.token === token) return known.total;
    const total = Number((await db.query<{ n: number }>(list.count.text, list.count.values)).rows[0].n);
    if (this.totals.size >= MAX_CACHED_TOTALS) this.totals.clear();
    this.totals.set(key, { token, total });
    return total;
  }
}
