import type { IdSpan, PgCompiledList, PgQuery } from './list-query.js';
import { one, type Queryable } from './pool.js';
import { tablesTokenSql } from './shared.js';

/** Most totals held; past it the cache starts over, so it never grows beyond. */
export const MAX_CACHED_TOTALS = 1000;

type Counted = Pick<PgCompiledList, 'count' | 'tables' | 'countIds'>;

const keyOf = (list: Counted) => `${list.count.text}\0${JSON.stringify(list.count.values)}`;

/** `list.count`, or with `countIds` the count of the ids it reads first on `tx`. */
async function countOf(tx: Queryable, list: Counted): Promise<PgQuery> {
  if (!list.countIds) return list.count;
  const { ids } = (await one<{ ids: unknown[] }>(tx, list.countIds.ids.text, list.countIds.ids.values))!;
  return list.countIds.count(ids);
}

/** A count's row: the total, and the `IdSpan` of a count that answers one (null ids when nothing matched); bigints come as text. */
type CountRow = { n: number | string; lo?: number | string | null; hi?: number | string | null };

/**
 * The exact totals of list queries, each kept while the change counters of the tables it reads
 * stay the same (as the SQLite store keeps them while its change token does): a count over a large
 * tenant costs milliseconds of the database's CPU, the page beside it a few microseconds. A write
 * to customers leaves the users' totals alone. The counters are read in the list's own snapshot
 * (`tablesTokenSql`), so another process's commit is seen by the next request.
 */
export class ListTotals {
  private readonly totals = new Map<string, { token: string; total: number; span?: IdSpan }>();

  /**
   * A page (`page(total, span)`, which may use the total and the matches' `IdSpan`, when a count
   * answered it, to find it) and its total, read on `tx`, a transaction of one snapshot (the list
   * lane's): the counters, the count (unless cached under those counters) and the page then show
   * one state of the tables, whatever commits meanwhile, and a total is filed only under the
   * counters of the state it counted (a count in two statements, `countIds`, runs both there).
   * `ahead`, when the total is not cached: a page looked for
   * before counting (answered with the plain count when found), and the count that answers the
   * span too, counted when it is not found.
   */
  async read<R>(
    tx: Queryable,
    list: Counted,
    page: (total: number, span?: IdSpan) => Promise<R>,
    ahead?: { page: () => Promise<R | undefined>; count: PgQuery },
  ): Promise<{ rows: R; total: number }> {
    const token = (await one<{ token: string }>(tx, `SELECT ${tablesTokenSql('$1')} AS token`, [list.tables]))!.token;
    const key = keyOf(list);
    let counted = this.totals.get(key);
    if (counted?.token !== token) {
      const found = ahead && (await ahead.page());
      const count = ahead && found === undefined ? ahead.count : await countOf(tx, list);
      const { n, lo, hi } = (await tx.query<CountRow>(count.text, count.values)).rows[0];
      counted = { token, total: Number(n), span: lo == null || hi == null ? undefined : { lo: Number(lo), hi: Number(hi) } };
      if (this.totals.size >= MAX_CACHED_TOTALS) this.totals.clear();
      this.totals.set(key, counted);
      if (found !== undefined) return { rows: found, total: counted.total };
    }
    return { rows: await page(counted.total, counted.span), total: counted.total };
  }

  /**
   * A list whose total is cached, in one statement without a transaction: its page compiled for
   * the cached total (`page(total)`: one `SELECT …`, or undefined when it takes more than one
   * statement) with the tables' counters as one more column, all read in the statement's one
   * snapshot. Answers the rows (`map`ped, without that column) and the total when the counters are
   * still those the total was counted under; undefined when they moved, no total is cached, the
   * page takes more than one statement or is empty (no row carries the counters): then `read` it.
   */
  async readKnown<Row, R>(db: Queryable, list: Counted, page: (total: number) => PgQuery | undefined, map: (row: Row) => R): Promise<{ rows: R[]; total: number } | undefined> {
    const known = this.totals.get(keyOf(list));
    const statement = known && page(known.total);
    if (!known || !statement) return undefined;
    const text = statement.text.replace(/^SELECT /, `SELECT ${tablesTokenSql(`$${statement.values.length + 1}`)} AS confctl_token, `);
    const { rows } = await db.query<Row & { confctl_token: string | null }>(text, [...statement.values, list.tables]);
    if (!rows.length || rows[0].confctl_token !== known.token) return undefined;
    return { rows: rows.map(({ confctl_token, ...row }) => map(row as Row)), total: known.total };
  }
}
