import type { PgCompiledList } from './list-query.js';
import type { Queryable } from './pool.js';

/** Most totals held; past it the cache starts over, so it never grows beyond. */
export const MAX_CACHED_TOTALS = 1000;

/**
 * The exact totals of list queries, each kept while the change counters of the tables it reads
 * stay the same (as the SQLite store keeps them while its change token does): a count over a large
 * tenant costs milliseconds of the database's CPU, the page beside it a few microseconds. A write
 * to customers leaves the users' totals alone. `tokens` answers the counters of the named tables,
 * read on the list's own connection, so another process's commit is seen by the next request.
 */
export class ListTotals {
  private readonly totals = new Map<string, { token: string; total: number }>();

  constructor(private readonly tokens: (tx: Queryable, tables: readonly string[]) => Promise<string>) {}

  /**
   * A page (`page(total)`, which may use the total to find it) and its total, read on `tx`, a
   * transaction of one snapshot (the list lane's): the counters, the count (unless cached under
   * those counters) and the page then show one state of the tables, whatever commits meanwhile,
   * and a total is filed only under the counters of the state it counted.
   */
  async read<R>(tx: Queryable, list: Pick<PgCompiledList, 'count' | 'tables'>, page: (total: number) => Promise<R>): Promise<{ rows: R; total: number }> {
    const token = await this.tokens(tx, list.tables);
    const key = `${list.count.text}\0${JSON.stringify(list.count.values)}`;
    const known = this.totals.get(key);
    const total = known?.token === token ? known.total : Number((await tx.query<{ n: number }>(list.count.text, list.count.values)).rows[0].n);
    if (known?.token !== token) {
      if (this.totals.size >= MAX_CACHED_TOTALS) this.totals.clear();
      this.totals.set(key, { token, total });
    }
    return { rows: await page(total), total };
  }
}
