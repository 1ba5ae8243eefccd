import { StoreBusy } from '../util.js';
import type { PgCompiledList } from './list-query.js';
import type { Queryable } from './pool.js';

/** Most totals held; past it the cache starts over, so it never grows beyond. */
export const MAX_CACHED_TOTALS = 1000;
/** Reads of a page and its total before a list that keeps meeting writes answers 503. */
export const LIST_READ_ATTEMPTS = 3;

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

  /**
   * A page (`page()`) and its total as one state of the tables showed them: the page and the count
   * are two statements, so the tables' counters are read before and again after both; when they
   * moved (a write committed in between: a restored snapshot replaces every row), the pair is read
   * again, and past `LIST_READ_ATTEMPTS` the list is refused with `StoreBusy` (503) rather than
   * answer a page of one state with the total of another. The second read is a round trip of its
   * own (it is asked after the page arrived), shared by the lists answered in that turn.
   */
  async consistent<R>(db: Queryable, list: Pick<PgCompiledList, 'count' | 'tables'>, page: () => Promise<R>): Promise<{ rows: R; total: number }> {
    for (let attempt = 1; ; attempt++) {
      const token = await this.tokens(list.tables);
      const [rows, total] = await Promise.all([page(), this.countAt(db, list, token)]);
      if ((await this.tokens(list.tables)) === token) return { rows, total };
      if (attempt === LIST_READ_ATTEMPTS) throw new StoreBusy(1, 'the list was written to while it was read');
    }
  }

  private async countAt(db: Queryable, list: Pick<PgCompiledList, 'count' | 'tables'>, token: string): Promise<number> {
    const key = `${list.count.text}\0${JSON.stringify(list.count.values)}`;
    const known = this.totals.get(key);
    if (known?.token === token) return known.total;
    const total = Number((await db.query<{ n: number }>(list.count.text, list.count.values)).rows[0].n);
    if (this.totals.size >= MAX_CACHED_TOTALS) this.totals.clear();
    this.totals.set(key, { token, total });
    return total;
  }
}
