/**
 * Date range totals from the list counters' per-bucket stamp bounds (zone maps; SQLite's
 * migration 19, PostgreSQL's 10), the same statement on both stores. Each counter row of a tenant,
 * table and id bucket (store/list-counts.ts) holds, per stamp (`STAMPS`), a least and a greatest
 * value that every row of the bucket, live or trashed, lies between: bounds only widen (an insert
 * or an update takes in the row's stamps, a delete leaves them), so they stay true without being
 * computed again, and a recount sets them exactly. So for `stamp > T` (or `>=`, `<`, `<=`):
 * - a bucket whose nearer bound passes the filter (least > T) matches with every row it counts:
 *   its counter is summed;
 * - a bucket whose farther bound fails it (greatest <= T) matches with none;
 * - the rows of the buckets between (straddling T: a bucket or two when stamps grow with ids) are
 *   counted through the stamp's index, over the stamps from T to the farthest bound of those
 *   buckets alone.
 * The stamps are NOT NULL: no row is on neither side. The bounds are compared as the filter
 * compares the stamps (ISO text, BINARY on SQLite, "C" on PostgreSQL), so the sum is exact.
 *
 * When the stamps do not follow the ids (imported or shuffled), most buckets straddle and the
 * index range spans most rows: the statement then answers through the store's own count
 * (`fallback`), chosen inside it from the counters, by the index entries the straddling count may
 * read (the rows of every bucket whose bounds meet that range) against those the store's count
 * reads. Both are exact; a wrong choice costs time alone. One statement, so one snapshot.
 */
import { BUCKET_BITS, highest, LIST_COUNTS, lowest, type CountedTable, type Stamp } from './list-counts.js';

/** The range operators, as SQL. */
export type RangeOperator = '>' | '>=' | '<' | '<=';

/** A date range's total (and with `span`, its matches' least and greatest id) through the bounds. */
export interface BoundedRange {
  table: CountedTable;
  stamp: Stamp;
  operator: RangeOperator;
  withTrashed: boolean;
  /** SQL expressions of the tenant and the instant (placeholders, or subqueries of `prelude`). */
  tenant: string;
  value: string;
  /** CTEs before the statement's own (`name AS (...)`, with a trailing comma), or ''. */
  prelude: string;
  /** The table as the count of the straddling rows reads it (aliased, and on SQLite with its stamp index named), its id and stamp columns. */
  from: string;
  id: string;
  column: string;
  /** The terms choosing the tenant's rows the list counts (live, or all), with `tenant`. */
  scope: string;
  /** The table as a probe for the first (last) id of a bucket reads it, in id order (SQLite: the tenant index), with `scope`. */
  idsFrom: string;
  /** What the store's own count reads: every match (`matches`, SQLite) or the smaller side of the instant (`smaller`, PostgreSQL). */
  current: 'matches' | 'smaller';
  /** The store's own count as a statement answering `n`, `lo` and `hi` (that a LIMIT may end). */
  fallback: string;
  /** Whether `lo` and `hi` are wanted (else NULL). */
  span: boolean;
}

/** SQL's NULL-aware least and greatest of two values, the same on both stores. */
const least = (a: string, b: string) => `CASE WHEN (${a}) IS NULL OR (${b}) < (${a}) THEN (${b}) ELSE (${a}) END`;
const greatest = (a: string, b: string) => `CASE WHEN (${a}) IS NULL OR (${b}) > (${a}) THEN (${b}) ELSE (${a}) END`;

/** The total as `n` (and `lo`, `hi`): see the module's comment. */
export function boundedRangeSql(r: BoundedRange): string {
  const later = r.operator.startsWith('>');
  // The bound a bucket's every row passes the filter by, and the one it passes by at all.
  const [near, far] = later ? [lowest(r.stamp), highest(r.stamp)] : [highest(r.stamp), lowest(r.stamp)];
  const counters = `FROM ${LIST_COUNTS} WHERE tenant_id = ${r.tenant} AND list = '${r.table}'`;
  const n = r.withTrashed ? 'live + trashed' : 'live';
  const whole = `${near} ${r.operator} ${r.value}`;
  const straddles = `NOT (${whole}) AND ${far} ${r.operator} ${r.value}`;
  // The straddling rows' stamps lie between the instant and `edge`, their farthest far bound.
  const [edge, within] = later ? ['max', '<='] : ['min', '>='];
  const stats = `SELECT coalesce(sum(CASE WHEN ${whole} THEN ${n} ELSE 0 END), 0) AS whole,
      coalesce(sum(CASE WHEN ${straddles} THEN live + trashed ELSE 0 END), 0) AS part,
      coalesce(sum(${n}), 0) AS total,
      ${edge}(CASE WHEN ${straddles} THEN ${far} END) AS edge,
      min(CASE WHEN ${whole} AND ${n} > 0 THEN bucket END) AS first_bucket,
      max(CASE WHEN ${whole} AND ${n} > 0 THEN bucket END) AS last_bucket
    ${counters}`;
  // The index entries the straddling count may read: the rows of every bucket with a stamp in its range.
  const reads = `(SELECT coalesce(sum(live + trashed), 0) ${counters} AND ${far} ${r.operator} ${r.value} AND ${near} ${within} s.edge)`;
  const matches = 's.whole + s.part';
  const current = r.current === 'matches' ? matches : least(matches, 's.total - s.whole');
  const zone = `z AS MATERIALIZED (SELECT s.*, CASE WHEN s.edge IS NULL OR ${reads} <= ${current} THEN 1 ELSE 0 END AS zoned FROM (${stats}) AS s)`;
  const straddling = `(${r.id} >> ${BUCKET_BITS}) IN (SELECT bucket ${counters} AND ${straddles})`;
  const probe = (bucket: string, dir: 'ASC' | 'DESC') => {
    const start = dir === 'ASC' ? `>= (SELECT ${bucket} FROM z) << ${BUCKET_BITS}` : `< ((SELECT ${bucket} FROM z) + 1) << ${BUCKET_BITS}`;
    return `(SELECT ${r.id} FROM ${r.idsFrom} WHERE ${r.scope} AND ${r.id} ${start} ORDER BY ${r.id} ${dir} LIMIT 1)`;
  };
  const [lo, hi] = r.span ? [least(`min(${r.id})`, probe('first_bucket', 'ASC')), greatest(`max(${r.id})`, probe('last_bucket', 'DESC'))] : ['CAST(NULL AS bigint)', 'CAST(NULL AS bigint)'];
  const arm = `SELECT (SELECT whole FROM z) + count(*) AS n, ${lo} AS lo, ${hi} AS hi
    FROM ${r.from} WHERE ${r.scope} AND ${r.column} ${r.operator} ${r.value} AND ${r.column} ${within} (SELECT edge FROM z) AND ${straddling}`;
  // Each way is a subquery limited to one row or none: both stores skip a subquery whose limit is
  // 0 without reading it (SQLite would still read one whose WHERE holds a false subquery).
  const way = (sql: string, taken: string) => `SELECT n, lo, hi FROM (${sql} LIMIT (SELECT ${taken} FROM z)) AS w`;
  return `WITH ${r.prelude}${zone}
    SELECT CAST(sum(n) AS bigint) AS n, min(lo) AS lo, max(hi) AS hi FROM (${way(arm, 'zoned')} UNION ALL ${way(r.fallback, '1 - zoned')}) AS a`;
}
