/**
 * Exact totals of a date range counted from its smaller side. A range's count is an index-only
 * scan of every match (about 950,000 entries, 107 ms with two parallel workers, for created_at
 * after the first stamp of a million users); the rows of the tenant fall into three parts, the
 * matches, the other side of the instant and the rows without a stamp, and the tenant's rows are
 * known exactly and cheaply from the list counters (store/list-counts.ts). So when the matches
 * are likely the larger side, the total is the counters' sum less the other side and the NULLs,
 * all in one statement, so in one snapshot: exact whichever side is counted, never more than
 * about half the tenant's entries read.
 *
 * Which side is smaller is guessed from where the instant falls in id order (stamps grow with ids:
 * a row is stamped when it is inserted): the first row of the later side in the stamp's index (one
 * probe) and the counters of its bucket and those after it. A wrong guess costs time, never
 * exactness.
 */
import { BUCKET_BITS, counterTotalSql, type CountedTable } from '../list-counts.js';

/** The date range's parts, as SQL text of the list definition and its compiled terms. */
export interface RangeParts {
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
  /** The stamp's column (`u.created_at`). */
  column: string;
  /** The filter's term, and the term of the other side of its instant (NULLs are on neither). */
  matches: string;
  other: string;
  /** Whether the matches are the later side (GreaterThan, GreaterThanOrEqual). */
  later: boolean;
}

/** The sum of the counters: the tenant's rows of the list (of the buckets `buckets` chooses, a condition on `bucket`). */
const rows = (p: RangeParts, buckets?: string) => `(${counterTotalSql(p.counted, p.withTrashed, p.tenant, buckets)})`;

/** The rows of the list with an id up to `id` (an SQL expression): the counters before its bucket, and its bucket's own entries up to it. */
const rank = (p: RangeParts, id: string) =>
  `(${rows(p, `< ((${id}) >> ${BUCKET_BITS})`)} + (SELECT count(*) FROM ${p.from} WHERE ${p.scope} AND ${p.id} >= ((${id}) >> ${BUCKET_BITS}) << ${BUCKET_BITS} AND ${p.id} <= (${id})))`;

/**
 * `est`: the tenant's rows (`total`) and those guessed on the later side (`later`, the rows of the
 * buckets from that of the later side's first row in stamp order on; none when it is empty).
 */
function estimate(p: RangeParts): string {
  const laterTerm = p.later ? p.matches : p.other;
  const first = `SELECT ${p.id} >> ${BUCKET_BITS} FROM ${p.from} WHERE ${p.scope} AND ${laterTerm} ORDER BY (${p.column}) NULLS FIRST, ${p.id} LIMIT 1`;
  return `est AS MATERIALIZED (SELECT ${rows(p)} AS total, ${rows(p, `>= (${first})`)} AS later)`;
}

/** Whether the other side is counted: the matches are guessed the larger side. */
const flipped = (p: RangeParts) => (p.later ? 'est.later * 2 > est.total' : 'est.later * 2 < est.total');

/** The rows of one side (`term`), or of the other side and those without a stamp, with `columns` aggregated. */
const side = (p: RangeParts, name: string, columns: string, term: string) => `${name} AS MATERIALIZED (SELECT ${columns} FROM ${p.from} WHERE ${p.scope} AND ${term})`;
const otherSide = (p: RangeParts, columns: string) =>
  `other AS MATERIALIZED (SELECT ${columns} FROM (SELECT ${p.id} AS id FROM ${p.from} WHERE ${p.scope} AND ${p.other}
    UNION ALL SELECT ${p.id} AS id FROM ${p.from} WHERE ${p.scope} AND (${p.column}) IS NULL) AS o)`;

/**
 * The total of the range, as `n`: the matches counted, or the tenant's rows less the other side
 * and the rows without a stamp. Each side's scan runs only when chosen (PostgreSQL runs a CTE
 * when a row of it is asked for).
 */
export function rangeCountSql(p: RangeParts): string {
  return `WITH ${estimate(p)}, ${side(p, 'direct', 'count(*) AS n', p.matches)}, ${otherSide(p, 'count(*) AS n')}
    SELECT CASE WHEN ${flipped(p)} THEN est.total - (SELECT n FROM other) ELSE (SELECT n FROM direct) END AS n FROM est`;
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
  return `WITH ${estimate(p)}, ${side(p, 'direct', aggregates, p.matches)}, ${otherSide(p, 'count(*) AS n, min(id) AS lo, max(id) AS hi')}, ${bound}
    SELECT CASE WHEN ${flipped(p)} THEN est.total - (SELECT n FROM other) ELSE (SELECT n FROM direct) END AS n, ${pick('lo')}, ${pick('hi')} FROM est`;
}
