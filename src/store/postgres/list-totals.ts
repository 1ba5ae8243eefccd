import type { PgQuery } from './list-query.js';
import type { Queryable } from './pool.js';

/** Most totals held; past it the cache starts over, so it never grows beyond. */
export const MAX_CACHED_TOTALS = 1000;

/**
 * The exact totals of list queries, kept while the database's change counter stays the same (as
 * the SQLite store keeps them while its change token does): a count over a large tenant costs
 * milliseconds of the database's CPU, the page beside it a few microseconds. `token` is the change
 * counter, read once per batch of requests (see `openPostgresStore`); it is read before counting,
 * so a total counted across a concurrent write is filed under the older token and dropped by the
 * next request, which sees the newer one.
 */
export class ListTotals {
  private current = '';
  private readonly totals = new Map<string, number>();

  constructor(private readonly token: () => Promise<string>) {}

  async count(db: Queryable, count: PgQuery): Promise<number> {
    const token = await this.token();
    if (token !== this.current) {
      this.totals.clear();
      this.current = token;
    }
    const key = `${count.text}\0${JSON.stringify(count.values)}`;
    const known = this.totals.get(key);
    if (known !== undefined) return known;
    const total = Number((await db.query<{ n: number }>(count.text, count.values)).rows[0].n);
    if (token === this.current) {
      if (this.totals.size >= MAX_CACHED_TOTALS) this.totals.clear();
      this.totals.set(key, total);
    }
    return total;
  }
}
