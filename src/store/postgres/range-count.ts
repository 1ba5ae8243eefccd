/**
 * Exact totals counted from the smaller side of a filter. A filter's count is an index-only scan
 * of every match (about 950,000 entries, 107 ms with two parallel workers, for created_at after
 * the first stamp of a million users; 760,000 for `status` 1); the tenant's rows fall into the
 * matches, the rows on the other side of the filter's value (before or after an instant, below or
 * above an Equal's number) and the rows without a value, and the tenant's rows are known exactly
 * and cheaply from the list counters (store/list-counts.ts). So when the matches are likely the
 * larger part, the total is the counters' sum less the other side and the NULLs, all in one
 * statement, so in one snapshot: exact whichever side is counted. A wrong guess costs time, never
 * exactness.
 *
 * A date range's side is guessed from where its instant falls in id order (stamps grow with ids:
 * a row is stamped when it is inserted): the first row of the later side in the stamp's index (one
 * probe) and the counters of its bucket and those after it. An Equal's from the planner's
 * statistics: the share of the table's rows holding the value, when it is among the most common.
 */
import { BUCKET_BITS, counterTotalSql, type CountedTable } from '../list-counts.js';

/** A filter's parts, as SQL text of the list definition and its compiled terms. */
interface SideParts {
  /** The table, aliased (`users u`). */
  from: string;
  /** The id column (`u.id`). */
  id: string;
  /** The terms choosing the rows the list may show (the tenant's, live or all), joined with AND. */
  scope: string;
  /** The tenant's placeholder (`$1`). */
  tenant: string;
  /** The counters' table, and whether the list counts trashed rows too. */
  counted: CountedTable;
  withTrashed: boolean;
  /** The filtered column (`u.created_at`). */
  column: string;
  /** The filter's term, and the terms of the other side of its value (NULLs are on neither). */
  matches: string;
  others: readonly string[];
}

/** A date range: its other side is one term; `later`, whether the matches are the later side (GreaterThan, GreaterThanOrEqual). */
export interface RangeParts extends SideParts {
  later: boolean;
}

/** An Equal on a number: its other side is the terms below and above the value (`value`, its placeholder) of `table`'s `attribute`. */
export interface EqualParts extends SideParts {
  table: string;
  attribute: string;
  value: string;
}

/** The sum of the counters: the tenant's rows of the list (of the buckets `buckets` chooses, a condition on `bucket`). */
const rows = (p: SideParts, buckets?: string) => `(${counterTotalSql(p.counted, p.withTrashed, p.tenant, buckets)})`;

/** The rows of the list with an id up to `id` (an SQL expression): the counters before its bucket, and its bucket's own entries up to it. */
const rank = (p: SideParts, id: string) =>
  `(${rows(p, `< ((${id}) >> ${BUCKET_BITS})`)} + (SELECT count(*) FROM ${p.from} WHERE ${p.scope} AND ${p.id} >= ((${id}) >> ${BUCKET_BITS}) << ${BUCKET_BITS} AND ${p.id} <= (${id})))`;

/**
 * `est`: the tenant's rows (`total`) and those guessed on the later side (`later`, the rows of the
 * buckets from that of the later side's first row in stamp order on; none when it is empty).
 */
function estimate(p: RangeParts): string {
  const laterTerm = p.later ? p.matches : p.others[0];
  const first = `SELECT ${p.id} >> ${BUCKET_BITS} FROM ${p.from} WHERE ${p.scope} AND ${laterTerm} ORDER BY (${p.column}) NULLS FIRST, ${p.id} LIMIT 1`;
  return `est AS MATERIALIZED (SELECT ${rows(p)} AS total, ${rows(p, `>= (${first})`)} AS later)`;
}

/** Whether the other side is counted: the matches are guessed the larger side. */
const flipped = (p: RangeParts) => (p.later ? 'est.later * 2 > est.total' : 'est.later * 2 < est.total');

/** The matches (`direct`), or the other side and the rows without a value (`other`), with `columns` aggregated. */
const direct = (p: SideParts, columns: string) => `direct AS MATERIALIZED (SELECT ${columns} FROM ${p.from} WHERE ${p.scope} AND ${p.matches})`;
const otherSide = (p: SideParts, columns: string) =>
  `other AS MATERIALIZED (SELECT ${columns} FROM (${[...p.others, `(${p.column}) IS NULL`].map((term) => `SELECT ${p.id} AS id FROM ${p.from} WHERE ${p.scope} AND ${term}`).join(' UNION ALL ')}) AS o)`;

/** `n`: the tenant's rows less the other side's count when `flip` holds, else the matches' count. */
const sidedTotal = (flip: string) => `CASE WHEN ${flip} THEN est.total - (SELECT n FROM other) ELSE (SELECT n FROM direct) END AS n`;

/**
 * The total, as `n`: the matches counted, or (when `flip`, a condition on `est`, holds) the
 * tenant's rows (`est.total`) less the other side and the rows without a value. Each side's scan
 * runs only when chosen (PostgreSQL runs a CTE when a row of it is asked for).
 */
const countSql = (p: SideParts, est: string, flip: string) =>
  `WITH ${est}, ${direct(p, 'count(*) AS n')}, ${otherSide(p, 'count(*) AS n')}
    SELECT ${sidedTotal(flip)} FROM est`;

/** The total of a date range, as `n`. */
export const rangeCountSql = (p: RangeParts) => countSql(p, estimate(p), flipped(p));

/**
 * The total of an Equal on a number, as `n`: counted from the other side when the planner's
 * statistics give the value to more than two thirds of the table's rows (a table of one large
 * tenant mostly; for a small tenant either side is small). The other side is two or three index
 * ranges (below, above, NULL) read one after another, the matches one range read by parallel
 * workers too: at a million users, 430,000 entries of the other side took longer than 520,000
 * matches (about 200 against 115 ms on the loaded 2-core machine), 190,000 far less than 760,000
 * (53 against 178).
 */
export function equalCountSql(p: EqualParts): string {
  // The table's schema as the statement names it (a regclass constant): current_schema() would
  // keep the whole statement off parallel workers (it is parallel unsafe).
  const schema = `SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = '${p.table}'::regclass`;
  const share = `SELECT m.f FROM pg_stats s, unnest(s.most_common_vals::text::text[], s.most_common_freqs) AS m(v, f)
    WHERE s.schemaname = (${schema}) AND s.tablename = '${p.table}' AND s.attname = '${p.attribute}' AND m.v = ${p.value}::text`;
  return countSql(p, `est AS MATERIALIZED (SELECT ${rows(p)} AS total, (${share}) AS share)`, 'est.share * 3 > 2');
}

/**
 * The total (`n`) and the matches' id span (`lo`, `hi`; list-query.ts, `IdSpan`). Counted from the
 * matches, the span is their lowest and highest id. Counted from the other side, it is the ids past
 * the other side's (after its highest when the matches are the later side, before its lowest when
 * they are the earlier), up to the tenant's last (from its first) id, when the counters show that
 * no match lies among the other side's ids: the rows up to (from) that id are exactly as many as
 * the other side's. Otherwise (stamps that do not follow the ids) no span (NULLs): the page is then
 * read among all the matches.
 */
export function rangeSpanCountSql(p: RangeParts): string {
  const tenantIds = `SELECT min(${p.id}) AS first, max(${p.id}) AS last FROM ${p.from} WHERE ${p.scope}`;
  const apart = p.later ? `${rank(p, 'o.hi')} = o.n` : `est.total - ${rank(p, 'o.lo')} + 1 = o.n`;
  const [lo, hi] = p.later ? ['o.hi + 1', 't.last'] : ['t.first', 'o.lo - 1'];
  // `ok` once: OFFSET 0 keeps the planner from copying its counts into both columns.
  const bound = `bound AS MATERIALIZED (SELECT CASE WHEN ok THEN lo END AS lo, CASE WHEN ok THEN hi END AS hi
    FROM (SELECT o.n > 0 AND ${apart} AS ok, ${lo} AS lo, ${hi} AS hi FROM other o, est, (${tenantIds}) AS t OFFSET 0) AS b)`;
  const aggregates = `count(*) AS n, min(${p.id}) AS lo, max(${p.id}) AS hi`;
  const pick = (column: string) => `CASE WHEN ${flipped(p)} THEN (SELECT ${column} FROM bound) ELSE (SELECT ${column} FROM direct) END AS ${column}`;
  return `WITH ${estimate(p)}, ${direct(p, aggregates)}, ${otherSide(p, 'count(*) AS n, min(id) AS lo, max(id) AS hi')}, ${bound}
    SELECT ${sidedTotal(flipped(p))}, ${pick('lo')}, ${pick('hi')} FROM est`;
}
