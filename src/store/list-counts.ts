/**
 * Exact row counters for the lists whose unfiltered totals and deep id-ordered pages they answer
 * (the same table on both stores, so `admin copy` copies it as it is): `list_counts` holds, per
 * tenant, table and id bucket (`bucket = id >> BUCKET_BITS`; SQLite's migration 16, PostgreSQL's
 * migration 7), the live rows and the soft-deleted ones. Migrations 13 and 6 (as released) keyed
 * them by tenant and table alone. Each store's triggers keep them exact on every row write by any
 * process (insert, soft delete and back, hard delete, a row moved to another tenant), one upsert
 * per counted row write, so
 * - the unfiltered total (and with trashed) of a million rows is the sum of the tenant's bucket
 *   rows (about a thousand) instead of a count of a million index entries;
 * - the page at any offset of the unfiltered list in id order finds its bucket from the running
 *   sum of those rows and walks at most one bucket's entries before the page (`bucketPageSql`),
 *   instead of stepping over every earlier row, in the same statement, so in the same snapshot.
 * A bulk path that writes rows with the triggers set aside calls its store's recount
 * (`recountSql`) before it commits.
 */

/** The counters' table. */
export const LIST_COUNTS = 'list_counts';

/**
 * The low bits of an id that do not choose its bucket: a bucket holds the ids
 * `[bucket << BUCKET_BITS, (bucket + 1) << BUCKET_BITS)`. Measured at a million rows (2-core
 * shared machine, warm, p50): with 12 bits (245 counter rows, a walk of at most 4,096 entries) the
 * middle page's ids took 0.3 ms on SQLite and 0.6-0.7 ms on PostgreSQL, the total 0.07 and 0.27 ms;
 * with 10 bits (977 rows, 1,024 entries) 0.9 and 1.9 ms, the total 0.07 and 0.8 ms: the running
 * sum over the counters costs more than the walk in the bucket.
 */
export const BUCKET_BITS = 12;

/** The tables counted: the lists with unfiltered totals of large tenants. */
export const COUNTED_TABLES = ['users', 'customers', 'conferences'] as const;
export type CountedTable = (typeof COUNTED_TABLES)[number];

/**
 * The stamps whose per-bucket bounds the counters hold (SQLite's migration 19, PostgreSQL's 10):
 * every counted table has them, NOT NULL. See store/stamp-bounds.ts.
 */
export const STAMPS = ['created_at', 'updated_at'] as const;
export type Stamp = (typeof STAMPS)[number];

/** The stamp a filter on `attribute` ranges over when the counters hold its bounds: the attribute is a stamp and its column `sql` is that stamp (not a joined row's). */
export function boundedStamp(attribute: string, sql: string): Stamp | undefined {
  return STAMPS.find((s) => s === attribute && sql.endsWith(s));
}

/** The counters' columns of the least and the greatest `stamp` of a bucket's rows. */
export const lowest = (stamp: Stamp) => `min_${stamp}`;
export const highest = (stamp: Stamp) => `max_${stamp}`;

/** The bound columns, in the order `boundValues` gives their values. */
export const BOUND_COLUMNS = STAMPS.flatMap((s) => [lowest(s), highest(s)]);

/** Values for `BOUND_COLUMNS` of one row: `row` the row (`NEW.`, or '' for a column), `least`/`greatest` wrapping each stamp (an aggregate). */
export const boundValues = (row = '', least = '', greatest = '') => STAMPS.flatMap((s) => [`${least}(${row}${s})`, `${greatest}(${row}${s})`]).join(', ');

/** How the counters are keyed: per tenant and table (migrations 13 and 6, as released) or per id bucket too (16 and 7). */
export type CounterKey = 'tenant' | 'bucket';

/** The bucket of the row `row` (`NEW.`, `OLD.` or '' for a plain column reference). */
export const bucketOf = (row = '') => `${row}id >> ${BUCKET_BITS}`;

/** The counters' key columns after `tenant_id, list` (`, bucket` when bucketed). */
export const keyColumns = (key: CounterKey) => (key === 'bucket' ? ', bucket' : '');

/**
 * The statements that count the counted `tables` again from their rows, replacing their counters
 * (with `bounds`, the stamps' exact bounds too: migrations 19 and 10 on). `tenant_id > 0` (every
 * row) lets SQLite count through the covering partial tenant indexes (migration 2 and 4);
 * PostgreSQL reads it as the no-op it is.
 */
export function recountSql(tables: readonly CountedTable[] = COUNTED_TABLES, key: CounterKey = 'bucket', bounds = key === 'bucket'): string[] {
  const bucket = key === 'bucket' ? `, ${bucketOf()}` : '';
  const [columns, values] = bounds ? [`, ${BOUND_COLUMNS.join(', ')}`, `, ${boundValues('', 'min', 'max')}`] : ['', ''];
  return [
    `DELETE FROM ${LIST_COUNTS} WHERE list IN (${tables.map((t) => `'${t}'`).join(', ')})`,
    ...tables.map(
      (table) =>
        `INSERT INTO ${LIST_COUNTS} (tenant_id, list${keyColumns(key)}, live, trashed${columns})
         SELECT tenant_id, '${table}'${bucket}, count(*) - count(deleted_at), count(deleted_at)${values} FROM ${table} WHERE tenant_id > 0 GROUP BY tenant_id${bucket}`,
    ),
  ];
}

/** The rows one counter row counts: live ones, or with the trashed ones too. */
const counted = (withTrashed: boolean) => (withTrashed ? 'live + trashed' : 'live');

/**
 * The exact unfiltered total of `table`'s rows of the tenant bound at `tenant` (a placeholder):
 * live ones, or with the trashed ones too; 0 for a tenant that never had a row there. `buckets`, a
 * condition on the bucket (`< …`), counts only the rows of the buckets it holds for.
 */
export function counterTotalSql(table: CountedTable, withTrashed: boolean, tenant: string, buckets?: string): string {
  return `SELECT coalesce(sum(${counted(withTrashed)}), 0) AS n FROM ${LIST_COUNTS} WHERE tenant_id = ${tenant} AND list = '${table}'${buckets ? ` AND bucket ${buckets}` : ''}`;
}

/** What `bucketPageSql` needs of a list: its table, which rows, and the direction of its id order. */
export interface BucketWalk {
  table: CountedTable;
  withTrashed: boolean;
  direction: 'asc' | 'desc';
}

/**
 * The ids of one page of the tenant's rows of `walk.table` in id order, as a statement: `from` is
 * the table, aliased as the list definition aliases it; `where` its terms choosing the tenant's
 * rows (live, or all); `id` the id column. Its placeholders come in this order: `offset` (the
 * page's first row, from 0), `tenant` (the counters' tenant), those of `where`, `limit`. The
 * counters' running sum, in the walk's direction, finds the bucket holding row `offset` and how
 * many of its rows come before it; the walk starts at that bucket's first id and skips those
 * alone: at most a bucket's entries, whatever the tenant's size, the gaps between its ids or the
 * other tenants' ids among them. Empty past the end.
 */
export function bucketPageSql(walk: BucketWalk, parts: { from: string; where: string; id: string }, placeholders: { offset: string; tenant: string; limit: string }): string {
  const dir = walk.direction === 'desc' ? 'DESC' : 'ASC';
  const counters = `SELECT bucket, ${counted(walk.withTrashed)} AS n, CAST(${placeholders.offset} AS bigint) AS o FROM ${LIST_COUNTS} WHERE tenant_id = ${placeholders.tenant} AND list = '${walk.table}'`;
  const running = `SELECT bucket, n, o, CAST(sum(n) OVER (ORDER BY bucket ${dir} ROWS UNBOUNDED PRECEDING) AS bigint) - n AS before FROM (${counters}) AS c`;
  // The one bucket whose rows, in the walk's order, run from row `before` to `before + n - 1`
  // with row `o` among them (a bucket of no rows holds none): no sort of the counters.
  const at = `SELECT bucket, o - before AS skip FROM (${running}) AS r WHERE before <= o AND before + n > o`;
  const start = walk.direction === 'desc' ? `${parts.id} < ((SELECT bucket FROM at) + 1) << ${BUCKET_BITS}` : `${parts.id} >= (SELECT bucket FROM at) << ${BUCKET_BITS}`;
  return `WITH at AS MATERIALIZED (${at}) SELECT ${parts.id} AS page_id FROM ${parts.from} WHERE ${parts.where} AND ${start} ORDER BY ${parts.id} ${dir} LIMIT ${placeholders.limit} OFFSET (SELECT skip FROM at)`;
}
