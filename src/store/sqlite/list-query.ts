import type { ListFilter, ListQuery } from '../../contract/index.js';
import { changeSignal, type Db } from './db.js';
import type Database from 'better-sqlite3';
import { liveTenantMatch, trigramMatch } from './trigram.js';
import { boundedStamp, BUCKET_BITS, bucketPageSql, counterTotalSql } from '../list-counts.js';
import { boundedRangeSql, type RangeOperator } from '../stamp-bounds.js';
import { type ColumnDef, type ListDef, orderedById } from '../rows/list-def.js';

/**
 * How a list reaches its tenant's rows (ARCHITECTURE.md, "Index trap"; measured with
 * test/store/tools/tenant-plans.ts on 100,000 rows of one tenant beside 50 of another):
 * - `index`, for a small tenant: `INDEXED BY` the tenant index (and its `tenant > 0` term);
 *   every query reads only the tenant's rows (at most SMALL_TENANT_ROWS) instead of scanning the
 *   table (12-27 ms a page before).
 * - `scan`, for a large tenant: the SQL as before that index existed, which the planner cannot
 *   see without the `tenant > 0` term: it walks the order or filter index and stops after the
 *   page. Allowed to use the tenant index, it sorted the whole tenant (pages 0.06 -> 25-100 ms,
 *   filtered counts up to 30x slower). Only an unfiltered count reads the tenant index (covering:
 *   the tenant's entries only, 4.6 -> 1.8 ms live, 14.6 -> 1.8 ms with trashed).
 */
export type TenantAccess = 'index' | 'scan';

/** Tenants with at most this many rows (deleted included) in a table are listed through its tenant index. */
export const SMALL_TENANT_ROWS = 2000;

/** Stands in compiled parameters for the tenant id (a semi-join binds it again). */
export const TENANT = Symbol('tenant');

/** Escape character for LIKE patterns. */
const ESC = '\\';

/** Makes `%`, `_` and the escape character literal in a LIKE pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => ESC + c);
}

const COMPARE: Record<string, string> = {
  Equal: '=',
  NotEqual: '<>',
  GreaterThan: '>',
  GreaterThanOrEqual: '>=',
  LessThan: '<',
  LessThanOrEqual: '<=',
};

/**
 * The WHERE fragment and parameters of one filter (decisions §6, §10):
 * text compares with ASCII case folding (COLLATE NOCASE); `Contains` is a LIKE with `%`, `_`
 * escaped, matching integers and dates by their text form (SQLite's LIKE folds ASCII case);
 * integers compare numerically, booleans as 1/0; dates arrive as normalised ISO strings, whose text order is time
 * order. NotEqual and the ordering operators never match NULL (SQL semantics).
 */
export function compileFilter(col: ColumnDef, filter: ListFilter): { sql: string; params: unknown[] } {
  const op = filter.operator;
  if (col.type === 'boolean' && filter.value !== null) {
    // Booleans compare as 1/0; `Contains` of `1` or `0` in a 1/0 value is equality.
    return { sql: `(${col.sql}) ${COMPARE[op === 'Contains' ? 'Equal' : op]} ?`, params: [Number(filter.value)] };
  }
  if (op === 'IsNull') return { sql: `(${col.sql}) IS NULL`, params: [] };
  if (op === 'NotNull') return { sql: `(${col.sql}) IS NOT NULL`, params: [] };
  if (op === 'Contains') {
    const target = col.type === 'integer' ? `CAST((${col.sql}) AS TEXT)` : `(${col.sql})`;
    return { sql: `${target} LIKE ? ESCAPE '${ESC}'`, params: [`%${escapeLike(String(filter.value))}%`] };
  }
  const sqlOp = COMPARE[op];
  if (!sqlOp) throw new Error(`Unknown operator ${op}`);
  if (col.type === 'text') return { sql: `(${col.sql}) COLLATE NOCASE ${sqlOp} ?`, params: [String(filter.value)] };
  if (col.type === 'integer') {
    const n = typeof filter.value === 'number' ? filter.value : Number(filter.value);
    if (!Number.isSafeInteger(n)) throw new Error(`Not an integer: ${String(filter.value)}`);
    return { sql: `(${col.sql}) ${sqlOp} ?`, params: [n] };
  }
  return { sql: `(${col.sql}) ${sqlOp} ?`, params: [new Date(String(filter.value)).toISOString()] };
}

/** The ORDER BY clause: nulls first ascending, last descending (SQLite's NULL is smallest); ties by id. */
export function compileOrder(def: ListDef, attribute: string, direction: 'asc' | 'desc'): string {
  const col = def.columns[attribute];
  if (!col) throw new Error(`Unknown order attribute ${attribute}`);
  const dir = direction === 'desc' ? 'DESC' : 'ASC';
  const expr = col.type === 'text' ? `${col.sql} COLLATE NOCASE` : col.sql;
  if (col.sql === def.idColumn) return `${def.idColumn} ${dir}`;
  return `${expr} ${dir}, ${def.idColumn} ${dir}`;
}

/** Compiled SQL of a list query, with the values to bind in order. */
export interface CompiledList {
  pageSql: string;
  /**
   * For id-ordered pages: `pageSql` continued after a known id instead of skipping `offset` rows
   * (binds the query's parameters, then that id and the limit). See `ListRunner`'s seeks.
   */
  seekSql?: string;
  /**
   * For pages that walk an index of exactly the matching rows in id order: the page's ids walked
   * from the other end (binds the query's parameters, then how many rows to take and how many to
   * skip from the end), for a page past the middle of the exact total: the last page of a million
   * rows skipped a million index entries, now none.
   */
  tailSql?: string;
  /**
   * For a large tenant's unfiltered pages in id order: the page's ids walked from the bucket that
   * holds its first row (store/list-counts.ts, `bucketPageSql`), for a page that would otherwise
   * step over more than a bucket's entries (binds the offset, the query's parameters, the limit).
   */
  bucketSql?: string;
  /**
   * A date range's page looked for among WINDOW_ROWS of the tenant's rows in the order from an id
   * on (binds the query's parameters, the limit, the offset, and that id as `{ start }`): the page
   * when it answers a whole page (or the rest of the total), else `pageSql` answers. See
   * `ListRunner.window`.
   */
  windowSql?: string;
  /**
   * With `windowSql`: `countSql` answering, in the same scan, the first match's id in the order
   * too (`end`: as `lo`, the least id, ascending; as `hi`, the greatest, descending), and the
   * `start` that walks the window from the tenant's first row in the order.
   */
  span?: { sql: string; end: 'lo' | 'hi'; unbounded: number };
  /** Answers the total as `n`. */
  countSql: string;
  params: unknown[];
  /** The count's parameters, when they differ from the page's (a trigram count). */
  countParams?: unknown[];
  /**
   * A page for a small total (at most NARROW_ROWS): the matching rows picked by id through the
   * trigram table, then sorted, instead of walking the order's index until the page is found
   * (a rare value's first page read most of the table). Binds `narrowParams`, the limit, the offset.
   */
  narrowSql?: string;
  narrowParams?: unknown[];
  /**
   * The page reads its rows in id order from an index whose entries for this tenant are exactly
   * the matching live rows (see `rangeIndex`): it reads `offset + limit` entries, whatever the
   * data. `ListRunner.bounded` relies on it.
   */
  range?: boolean;
  /** The total is the sum of the table's per-tenant bucket counters (store/list-counts.ts): a few hundred rows read at a million rows. */
  counterTotal?: boolean;
  limit: number;
  offset: number;
}

/** The operators of a range, whose date filters may pick their page among the matching ids (see `compileList`). */
const RANGES: ReadonlySet<string> = new Set(['GreaterThan', 'GreaterThanOrEqual', 'LessThan', 'LessThanOrEqual']);

/** The rows of a tenant, first in the order, among which a date range's page is looked for first (`windowSql`): about 2 ms. */
const WINDOW_ROWS = 5000;

/**
 * The other tenants' live rows up to which a trigram count tests theirs by their own texts rather
 * than match the tenant's phrase (see `compileList`): about 1 ms per 1,000 customers.
 */
export const OTHER_TENANTS_ROWS = 2000;

/** Totals up to this many rows take `narrowSql`'s page, when there is one. */
export const NARROW_ROWS = 2000;

/** A semi-join filter (see `ColumnDef.semi`); the tenant is bound through `TENANT`. */
function compileSemi(semi: NonNullable<ColumnDef['semi']>, col: ColumnDef, filter: ListFilter): { sql: string; params: unknown[] } {
  if (filter.operator === 'IsNull') return { sql: `${semi.fk} IS NULL`, params: [] };
  if (filter.operator === 'NotNull') return { sql: `${semi.fk} IS NOT NULL`, params: [] };
  const f = compileFilter({ sql: semi.column, type: col.type }, filter);
  return { sql: `${semi.fk} IN (SELECT id FROM ${semi.table} WHERE tenant_id = ? AND ${f.sql})`, params: [TENANT, ...f.params] };
}

/**
 * The index whose entries for the tenant are exactly the rows a live, id-ordered list matches, in
 * id order, when there is one: the tenant index (tenant, deleted_at) for an unfiltered list, the
 * filter column's count index (column, tenant, deleted_at) for an Equal filter on a large
 * tenant. With every key column bound by equality, equal keys sort by rowid, so the page walks
 * `offset + limit` entries and never sorts. A count index on (column, id, tenant, deleted_at)
 * (`ColumnDef.countIndexById`) is walked the same way, in id order, but its entries of the value
 * are every tenant's. (A small tenant's filtered list keeps the tenant index: at most
 * SMALL_TENANT_ROWS rows either way.)
 */
function rangeIndex(def: ListDef, query: ListQuery, col: ColumnDef | undefined, access: TenantAccess): string | undefined {
  if (query.with_trashed || !orderedById(def, query.order_by)) return undefined;
  if (!query.filter) return def.tenantIndex;
  const equal = query.filter.operator === 'Equal' && query.filter.value !== null && col?.type !== 'boolean' && !col?.semi;
  return equal && access === 'scan' ? col?.countIndex : undefined;
}

/**
 * Compiles a list query. The tenant id is bound first (then wherever `params` holds `TENANT`);
 * `access` says how to reach the tenant's rows (see `TenantAccess`).
 */
export function compileList(def: ListDef, query: ListQuery, access: TenantAccess = 'scan'): CompiledList {
  const where: string[] = [];
  const params: unknown[] = [];
  let countJoins = false;
  let countIndex: string | undefined;
  if (!query.with_trashed) where.push(`${def.deletedColumn} IS NULL`);
  const col = query.filter && def.columns[query.filter.attribute];
  let filterSql = '';
  if (query.filter) {
    if (!col) throw new Error(`Unknown filter attribute ${query.filter.attribute}`);
    const f = col.semi ? compileSemi(col.semi, col, query.filter) : compileFilter(col, query.filter);
    filterSql = f.sql;
    countJoins = col.join === true && !col.semi;
    if (col.semi && query.filter.operator !== 'IsNull' && query.filter.operator !== 'NotNull') countIndex = col.semi.index;
    else if (col.countIndex) countIndex = col.countIndex;
    where.push(f.sql);
    params.push(...f.params);
  }
  const indexed = `${def.from} INDEXED BY ${def.tenantIndex}`;
  const byIndex = [`${def.tenantColumn} = ?`, `${def.tenantColumn} > 0`, ...where].join(' AND ');
  const byScan = [`${def.tenantColumn} = ?`, ...where].join(' AND ');
  const [from, whereSql] = access === 'index' ? [indexed, byIndex] : [def.from, byScan];
  const [countFrom, countWhere] = !query.filter
    ? [indexed, byIndex]
    : access === 'scan' && countIndex
      ? [`${def.from} INDEXED BY ${countIndex}`, [`${def.tenantColumn} = ?`, `${def.tenantColumn} > 0`, ...where].join(' AND ')]
      : [from, whereSql];
  const order = compileOrder(def, query.order_by, query.order_direction);
  const offset = (query.page_number - 1) * query.page_size;
  const orderCol = def.columns[query.order_by];
  const pageJoins = def.selectJoins !== false || countJoins || orderCol?.join ? (def.joins ?? '') : '';
  let pageSql = `SELECT ${def.select} FROM ${from} ${pageJoins} WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`;
  // A live list in id order, unfiltered or an Equal filter: the page walks `range` (see
  // `rangeIndex`); with trashed rows, unfiltered, the index of all the tenant's rows in id order.
  // A deep page (what `--all` walks): OFFSET steps over every skipped row, reading and joining
  // it. Deferred join instead: skip ids alone through that index, which is covering, whatever the
  // tenant's size, then fetch and join only the page's rows; past the middle of the total, from
  // the other end. Filtered pages in other orders keep their own index walk (measured no better
  // deferred); unfiltered ones skip through the order's count index (below).
  const range = rangeIndex(def, query, col || undefined, access);
  const byId = orderedById(def, query.order_by);
  const walk = range ?? (query.with_trashed && !query.filter && byId ? def.tenantIdsIndex : undefined);
  const deferred = (ids: string) => `SELECT ${def.select} FROM (${ids}) AS page CROSS JOIN ${def.from} ON ${def.idColumn} = page.page_id ${pageJoins} ORDER BY ${order}`;
  let seekSql: string | undefined;
  let tailSql: string | undefined;
  let bucketSql: string | undefined;
  if (walk) {
    const ranged = `${def.from} INDEXED BY ${walk}`;
    const ids = (direction: 'asc' | 'desc', extra = '') =>
      `SELECT ${def.idColumn} AS page_id FROM ${ranged} WHERE ${byIndex}${extra} ORDER BY ${compileOrder(def, query.order_by, direction)}`;
    pageSql = offset > 0 ? deferred(`${ids(query.order_direction)} LIMIT ? OFFSET ?`) : `SELECT ${def.select} FROM ${ranged} ${pageJoins} WHERE ${byIndex} ORDER BY ${order} LIMIT ? OFFSET ?`;
    const after = query.order_direction === 'desc' ? '<' : '>';
    if (!query.filter) seekSql = deferred(`${ids(query.order_direction, ` AND ${def.idColumn} ${after} ?`)} LIMIT ?`);
    tailSql = deferred(`${ids(query.order_direction === 'desc' ? 'asc' : 'desc')} LIMIT ? OFFSET ?`);
    if (!query.filter && def.counted && access === 'scan') {
      const bucketWalk = { table: def.counted, withTrashed: query.with_trashed, direction: query.order_direction };
      bucketSql = deferred(bucketPageSql(bucketWalk, { from: ranged, where: byIndex, id: def.idColumn }, { offset: '?', tenant: '?', limit: '?' }));
    }
  }
  // An unfiltered large tenant's page in the order of another attribute: the planner walks the
  // attribute's plain index and reads each row to test its tenant and deleted_at, so page 1,000
  // of a million users read 15,000 rows (13-53 ms). The attribute's count index (attribute,
  // tenant, deleted_at) holds both: the page's ids are skipped to in that index alone, the same
  // entries in the same order, then only the page's rows are read (0.4-5.5 ms, the same rows).
  if (access === 'scan' && !query.filter && !byId && orderCol?.countIndex && !orderCol.join) {
    pageSql = deferred(`SELECT ${def.idColumn} AS page_id FROM ${def.from} INDEXED BY ${orderCol.countIndex} WHERE ${byIndex} ORDER BY ${order} LIMIT ? OFFSET ?`);
  }
  // A date range in id order, for a large tenant: a walk in id order testing each row meets the
  // matches at once when they lie early in that order, but a range of late dates (dates grow
  // with ids) stepped over every earlier row with its JSON text first (at 1M users, `created_at`
  // GreaterThan a date of the last half: 0.3-0.6 s of CPU). So the page is first looked for among
  // WINDOW_ROWS of the tenant's rows in the order (`windowSql`): its first ones, or from the
  // first match on (`span`; see `ListRunner.window`); only when they hold too few matches (the
  // stamps do not follow the ids) is it picked among all the matching ids, read from the
  // column's covering count index and sorted (a bounded sort: about 1.5 times the count's cost).
  let windowSql: string | undefined;
  let span: CompiledList['span'];
  const op = query.filter?.operator;
  const tenantIds = query.with_trashed ? def.tenantIdsIndex : def.tenantIndex;
  if (access === 'scan' && tenantIds && col?.type === 'date' && col.countIndex && op && RANGES.has(op) && byId) {
    const asc = query.order_direction === 'asc';
    const matching = [`${def.tenantColumn} = ?`, `${def.tenantColumn} > 0`, ...where].join(' AND ');
    pageSql = deferred(`SELECT ${def.idColumn} AS page_id FROM ${def.from} INDEXED BY ${col.countIndex} WHERE ${matching} ORDER BY ${order} LIMIT ? OFFSET ?`);
    const tenantRows = [`${def.tenantColumn} = ?`, `${def.tenantColumn} > 0`, ...(query.with_trashed ? [] : [`${def.deletedColumn} IS NULL`])].join(' AND ');
    const first = `SELECT ${def.idColumn} AS page_id FROM ${def.from} INDEXED BY ${tenantIds} WHERE ${tenantRows} AND ${def.idColumn} ${asc ? '>=' : '<='} @start ORDER BY ${order} LIMIT ${WINDOW_ROWS}`;
    windowSql = `SELECT ${def.select} FROM (${first}) AS page CROSS JOIN ${def.from} ON ${def.idColumn} = page.page_id ${pageJoins} WHERE ${where[where.length - 1]} ORDER BY ${order} LIMIT ? OFFSET ?`;
    span = { sql: `, ${asc ? 'MIN' : 'MAX'}(${def.idColumn}) AS ${asc ? 'lo' : 'hi'}`, end: asc ? 'lo' : 'hi', unbounded: asc ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER };
  }
  /** Unfiltered, the table's per-tenant counter is the total. */
  const counted = query.filter ? undefined : def.counted;
  const count = (columns: string) => `SELECT COUNT(*) AS n${columns} FROM ${countFrom} ${countJoins ? (def.joins ?? '') : ''} WHERE ${countWhere}`;
  const compiled: CompiledList = {
    pageSql,
    seekSql,
    tailSql,
    bucketSql,
    windowSql,
    span: span && { ...span, sql: count(span.sql) },
    range: range !== undefined && !(query.filter && col?.countIndexById),
    counterTotal: counted !== undefined,
    countSql: counted !== undefined ? counterTotalSql(counted, query.with_trashed, '?') : count(''),
    params,
    limit: query.page_size,
    offset,
  };
  const stamp = query.filter && col ? boundedStamp(query.filter.attribute, col.sql) : undefined;
  if (access === 'scan' && def.counted && tenantIds && col?.type === 'date' && col.countIndex && op && RANGES.has(op) && stamp) {
    // A date range's total (and its span's end) from the counters' stamp bounds (store/stamp-bounds.ts),
    // its own count the fallback: the tenant and the instant bound first (`zq`), then the fallback's.
    const live = query.with_trashed ? [] : [`${def.deletedColumn} IS NULL`];
    const scope = [`${def.tenantColumn} = (SELECT t FROM zq)`, `${def.tenantColumn} > 0`, ...live].join(' AND ');
    const bounded = (lo: boolean) =>
      boundedRangeSql({
        table: def.counted!,
        stamp,
        operator: COMPARE[op] as RangeOperator,
        withTrashed: query.with_trashed,
        tenant: '(SELECT t FROM zq)',
        value: '(SELECT v FROM zq)',
        prelude: 'zq AS (SELECT ? AS t, ? AS v), ',
        from: `${def.from} INDEXED BY ${col.countIndex}`,
        id: def.idColumn,
        column: col.sql,
        scope,
        idsFrom: `${def.from} INDEXED BY ${tenantIds}`,
        current: 'matches',
        fallback: count(lo && span ? `, ${span.end === 'lo' ? `MIN(${def.idColumn}) AS lo, NULL AS hi` : `NULL AS lo, MAX(${def.idColumn}) AS hi`}` : ', NULL AS lo, NULL AS hi'),
        span: lo,
      });
    compiled.countSql = bounded(false);
    if (compiled.span) compiled.span.sql = bounded(true);
    compiled.countParams = [...params, TENANT, ...params];
  }
  const match =
    col?.trigram && access === 'scan' && !query.with_trashed && query.filter?.operator === 'Contains' && query.filter.value !== null
      ? trigramMatch(col.trigram.column, String(query.filter.value))
      : undefined;
  if (col?.trigram && match) {
    // A large tenant's live rows whose text contains the value: the trigram table's matches of the
    // tenant's phrase and the value's (trigram.ts: it holds live rows alone, each with its
    // tenant), a doclist in id order, but for the rows whose ids are pending (their texts there
    // may be stale or missing); of those, the ones whose own text passes the filter (a few hundred
    // at most). Both bind the tenant first, as every compiled query does.
    //
    // While the other tenants hold at most OTHER_TENANTS_ROWS live rows, the count takes the
    // value's matches of every tenant, without the tenant's phrase, less those of the other
    // tenants' rows, each tested by its own text (as a pending row is): the same total, as the
    // trigram table holds exactly the live rows' texts but the pending ones'. ANDed with the
    // value's matches, the tenant's phrase (every live row of a dominant tenant) was stepped
    // through once per match: at 1M customers a quarter to a third of a broad value's count.
    const { fts, pending } = col.trigram;
    const notPending = (id: string) => `${id} NOT IN (SELECT id FROM ${pending})`;
    // A match below every pending id is none of them (with none pending, min(id) is NULL and the
    // NOT IN answers): new rows take the highest ids, so while only inserts are pending no match
    // probes the pending ids (at 1M customers with 144 pending, the count of "germany", 171,000
    // matches, 39 -> 34 ms of CPU).
    const notPendingMatch = `(rowid < (SELECT min(id) FROM ${pending}) OR ${notPending('rowid')})`;
    const matches = `SELECT rowid FROM ${fts} WHERE ${liveTenantMatch(fts)} AND ${fts} MATCH ? AND ${notPendingMatch}`;
    const pendingMatches = `SELECT ${def.idColumn} FROM ${pending} CROSS JOIN ${def.from} ON ${def.idColumn} = ${pending}.id WHERE ${def.tenantColumn} = ? AND ${def.deletedColumn} IS NULL AND ${filterSql}`;
    // Through the tenants, each read by its own tenant index entries (a range of tenant ids there was planned as a skip-scan of every entry).
    const others = (select: string, terms: string) =>
      `SELECT ${select} FROM tenants CROSS JOIN ${def.from} INDEXED BY ${def.tenantIndex} ON ${def.tenantColumn} = tenants.id WHERE tenants.id <> ? AND ${def.tenantColumn} > 0 AND ${def.deletedColumn} IS NULL${terms}`;
    // (A tenant id of 0 or less would have rows outside the tenant index: none is ever made, and then this is not taken.)
    const fewOthers = `(SELECT COUNT(*) FROM (${others('1', '')} LIMIT ${OTHER_TENANTS_ROWS + 1})) <= ${OTHER_TENANTS_ROWS} AND (SELECT min(id) FROM tenants) > 0`;
    const allMatches = `SELECT COUNT(*) FROM ${fts} WHERE ${fts} MATCH ? AND ${notPendingMatch}`;
    const othersMatches = `SELECT COUNT(*) FROM (${others(def.idColumn, ` AND ${notPending(def.idColumn)} AND ${filterSql}`)})`;
    compiled.countSql = `SELECT CASE WHEN ${fewOthers} THEN (${allMatches}) - (${othersMatches}) ELSE (SELECT COUNT(*) FROM (${matches})) END + (SELECT COUNT(*) FROM (${pendingMatches})) AS n`;
    compiled.countParams = [match, TENANT, ...params, TENANT, match, TENANT, ...params];
    compiled.narrowSql = `SELECT ${def.select} FROM ${def.from} ${pageJoins} WHERE ${def.idColumn} IN (${matches} UNION ALL ${pendingMatches}) ORDER BY ${order} LIMIT ? OFFSET ?`;
    compiled.narrowParams = [match, TENANT, ...params];
  }
  return compiled;
}

/**
 * Lists `serve` answers on its main thread (sqlite/served.ts); the others go to its read pool.
 * A list qualifies when SQLite reads at most MAIN_THREAD_ROWS index entries (and rows) for its
 * page, and its count is bounded too, known before it runs, from what the connection already holds:
 * - its tenant is small (at most SMALL_TENANT_ROWS rows in the table, deleted included): every
 *   statement, the count included, reaches the tenant's rows through the tenant index; or
 * - its page is a range (`CompiledList.range`: live rows in id order, unfiltered or an Equal
 *   filter) with `offset + page_size` at most MAIN_THREAD_ROWS, and its total is cached (counted
 *   since the last write, here or by a read worker: `ListMode.adoptTotal`), or unfiltered, read
 *   from the table's per-tenant row counters, or counted from the filter's count index while the
 *   tenant holds at most MAIN_THREAD_COUNT_ROWS rows in the table (see there); or
 * - its page is an unfiltered range at any depth: walked from the page's counter bucket
 *   (`bucketSql`, BUCKET_ROWS), the nearer end or the previous page's last id, at most about two
 *   buckets' entries, so `--all`'s pages after the first MAIN_THREAD_ROWS rows stay here too.
 * Anything else (a Contains, another order, a deeper filtered page, a large tenant's cold filtered
 * count) may read the whole tenant, and goes to a worker.
 */
export const MAIN_THREAD_ROWS = SMALL_TENANT_ROWS;

/**
 * Tenants with at most this many rows in a table (deleted included, the table's row counters)
 * count an Equal-filtered range page's total on the main thread: that count reads the filter's
 * count index (attribute, tenant, deleted_at), one entry per matching live row, so at most this
 * many. Measured with test/store/tools/main-thread-lists.ts (2-core shared machine, cold, the
 * least of three): an Equal matching 80 % of 50,000 users took 1.5 ms, of 100,000 2.5 ms. The
 * tenant's size alone bounds no more than SMALL_TENANT_ROWS: at 20,000 rows the slowest lists
 * (page 180 in the department's order, a 1-character Contains in the customers' address, a date
 * range) took 100, 16 and 5 ms, at 50,000 rows 232, 115 and 9 ms.
 */
export const MAIN_THREAD_COUNT_ROWS = 50_000;

/**
 * A page that would step over more entries than a counter bucket's ids walks from its bucket
 * instead (`bucketSql`): at a million rows the walk cost 0.3 ms, an OFFSET through the covering
 * index about 0.08 µs an entry (2-core shared machine, warm), so the two meet near a bucket's 4,096.
 */
const BUCKET_ROWS = 1 << BUCKET_BITS;

/** Thrown out of a list by `ListMode.ifBounded` before any of its SQL ran; allocated once (no stack per list). */
const UNBOUNDED = new Error('the list is not bounded');

/**
 * What the list runners of one store do besides running a list, set by `serve`'s read pool
 * (sqlite/served.ts) around one synchronous call of a repository's list method: nothing, refuse
 * an unbounded list before any of its SQL (`ifBounded`), or take a read worker's total instead of
 * running (`adoptTotal`). One per store, shared by its runners. Nothing here allocates per list:
 * the list method and its arguments are passed apart, not as a closure.
 */
export class ListMode {
  /** 'run': run the list; 'bounded': see `ifBounded`; 'adopt': see `adoptTotal`. */
  kind: 'run' | 'bounded' | 'adopt' = 'run';
  /** With 'adopt': the worker's total and the change token it was counted at. */
  total = 0;
  token = '';
  /** With 'bounded': see MAIN_THREAD_COUNT_ROWS. */
  countRows = MAIN_THREAD_COUNT_ROWS;

  /**
   * Runs `list(tenantId, query)` (a list method of this store's repositories, which runs
   * synchronously) when the list is bounded (see MAIN_THREAD_ROWS), answering its value; answers
   * undefined, having run none of its SQL, when it is not. `countRows`: MAIN_THREAD_COUNT_ROWS,
   * unless a test lowers it.
   */
  ifBounded<T>(list: (tenantId: number, query: ListQuery) => T, tenantId: number, query: ListQuery, countRows = MAIN_THREAD_COUNT_ROWS): T | undefined {
    this.kind = 'bounded';
    this.countRows = countRows;
    try {
      return list(tenantId, query);
    } catch (err) {
      if (err === UNBOUNDED) return undefined;
      throw err;
    } finally {
      this.kind = 'run';
    }
  }

  /**
   * Caches `total`, counted by a read worker, as the total of the list `list(tenantId, query)`
   * would run (running none of its SQL but the tenant's size), if the connection's change token is
   * still `token` and no transaction is open on it: nothing was committed by anyone since `token`
   * was read, before the worker's read began, so the worker counted the state the token describes.
   * `token` must be read with no write of this connection pending (a commit group's writes count
   * before they commit).
   */
  adoptTotal(total: number, token: string, list: (tenantId: number, query: ListQuery) => unknown, tenantId: number, query: ListQuery): void {
    this.kind = 'adopt';
    this.total = total;
    this.token = token;
    try {
      list(tenantId, query);
    } finally {
      this.kind = 'run';
    }
  }
}

/**
 * A count's answer: the total, and when a `CompiledList.span` counted it, the least or the
 * greatest id of the matches (null when none match).
 */
interface Counted {
  n: number;
  lo?: number | null;
  hi?: number | null;
}

/** How many answered pages a `ListRunner` keeps (see `pages`): a page of 100 users' JSON is about 40 KB. */
const PAGES = 64;

/**
 * Runs list queries for one resource on one store. Statements are prepared once per distinct SQL
 * text and cached: the texts come only from the whitelist, so the cache is bounded
 * (attributes x operators x directions x with_trashed).
 */
export class ListRunner<Row> {
  private readonly cache = new Map<string, Database.Statement>();
  /** Exact totals (and where their matches start, see `window`) by count SQL and parameters, valid while `totalsStamp` still describes the database. */
  private readonly totals = new Map<string, Counted>();
  private totalsStamp = '';
  /** Tenants' rows in the table, valid with the totals (see `tenantSize`). */
  private readonly sizes = new Map<number, number>();
  /**
   * The pages answered, by tenant, query and row shape, valid with the totals: identical lists (a
   * pipelined batch, clients polling one page) share one answer, its rows array included, until
   * anything is written (callers never modify an answer). At most `PAGES` of them, and of those in
   * id order only pages within the first MAIN_THREAD_ROWS rows (see `page`); a full map is emptied alone.
   */
  private readonly pages = new Map<string, { rows: Row[]; total: number }>();
  /**
   * Where the last id-ordered page of each query ended (`offset` rows in, at `id`), valid with the
   * totals: the next page (what `--all` asks for) continues after that id instead of stepping
   * over every earlier row, which made a walk through a large tenant quadratic. Nothing was
   * written since (the change token still matches), so both give the very same rows.
   */
  private readonly seeks = new Map<string, { offset: number; id: number }>();
  private readonly changeToken: () => string;
  private readonly tenantRows: Database.Statement;
  /** `mode`: the store's (see `ListMode`); a runner of its own by default, which only runs lists. */
  constructor(
    private readonly db: Db,
    readonly def: ListDef,
    private readonly mode: ListMode = new ListMode(),
  ) {
    this.changeToken = changeSignal(db);
    this.tenantRows = db.prepare(
      def.counted
        ? counterTotalSql(def.counted, true, '?')
        : `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${def.from} INDEXED BY ${def.tenantIndex} WHERE ${def.tenantColumn} = ? AND ${def.tenantColumn} > 0 LIMIT ${SMALL_TENANT_ROWS + 1})`,
    );
  }

  /** Forgets cached totals and tenant sizes once anything was written (here or by another connection). */
  private refresh(): void {
    const stamp = this.changeToken();
    if (stamp !== this.totalsStamp || this.totals.size >= 256 || this.sizes.size >= 256 || this.seeks.size >= 256) {
      this.totals.clear();
      this.sizes.clear();
      this.seeks.clear();
      this.pages.clear();
      this.totalsStamp = stamp;
    } else if (this.pages.size >= PAGES) {
      this.pages.clear();
    }
  }

  /** `index` for a tenant with at most SMALL_TENANT_ROWS rows in the table, else `scan`. */
  tenantAccess(tenantId: number): TenantAccess {
    this.refresh();
    return this.accessOf(tenantId);
  }

  /** `tenantAccess`, the caches already refreshed in this synchronous run. */
  private accessOf(tenantId: number): TenantAccess {
    return this.tenantSize(tenantId) <= SMALL_TENANT_ROWS ? 'index' : 'scan';
  }

  /**
   * The tenant's rows in the table, deleted included: the counter's, or, for a table without one,
   * Infinity past SMALL_TENANT_ROWS (its count stops there). The caches were refreshed first.
   */
  private tenantSize(tenantId: number): number {
    let n = this.sizes.get(tenantId);
    if (n === undefined) {
      n = (this.tenantRows.get(tenantId) as { n: number }).n;
      if (!this.def.counted && n > SMALL_TENANT_ROWS) n = Infinity;
      this.sizes.set(tenantId, n);
    }
    return n;
  }

  /**
   * The exact total, from the cache when nothing was written since it was counted (`page`,
   * earlier in the same synchronous run, refreshed the cache): counting a
   * large table dominates a list request, and paging through a list repeats the same count.
   * The change signal (see `changeSignal`) moves with this connection's writes and with other
   * connections' commits (an admin command beside `serve`), so a stale total is never served.
   */
  private total(key: string, sql: string, params: unknown[]): Counted {
    let counted = this.totals.get(key);
    if (counted === undefined) this.totals.set(key, (counted = this.stmt(sql).get(...params) as Counted));
    return counted;
  }

  /** See MAIN_THREAD_ROWS; `compile` ran first (the tenant's size is known, the cache fresh). */
  private bounded(tenantId: number, c: CompiledList, totalKey: string): boolean {
    const rows = this.sizes.get(tenantId)!;
    if (rows <= SMALL_TENANT_ROWS) return true;
    if (c.range !== true) return false;
    // Deeper, an unfiltered page is walked from its counter bucket, or from the nearer end or
    // the last page's id when those are closer (`answer`): at most about two buckets' entries of
    // a covering index, its total the counters'. A filtered one may step over every match.
    if (c.offset + c.limit > MAIN_THREAD_ROWS) return c.bucketSql !== undefined && c.counterTotal === true;
    return c.counterTotal === true || this.totals.has(totalKey) || rows <= this.mode.countRows;
  }

  private stmt(sql: string): Database.Statement {
    let s = this.cache.get(sql);
    if (!s) this.cache.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  /** The list's statements and parameters; the caches were refreshed first (`refresh`). */
  private compile(tenantId: number, query: ListQuery): { c: CompiledList; params: unknown[]; countParams: unknown[]; narrowParams?: unknown[] } {
    const c = compileList(this.def, query, this.accessOf(tenantId));
    const bind = (list: unknown[]) => [tenantId, ...list.map((p) => (p === TENANT ? tenantId : p))];
    const params = bind(c.params);
    return { c, params, countParams: c.countParams ? bind(c.countParams) : params, narrowParams: c.narrowParams && bind(c.narrowParams) };
  }

  run(tenantId: number, query: ListQuery): { rows: Row[]; total: number } {
    return this.page(tenantId, query, false, (row) => (row as { id?: unknown }).id);
  }

  /**
   * `run` with each row as its first column's value (better-sqlite3's pluck mode), for a
   * definition whose `select` is one expression, such as a row's JSON text (`idOf` reads a row's
   * id, for continuing after it; undefined when it cannot tell).
   */
  runPluck(tenantId: number, query: ListQuery, idOf: (row: Row) => unknown = () => undefined): { rows: Row[]; total: number } {
    return this.page(tenantId, query, true, idOf);
  }

  private page(tenantId: number, query: ListQuery, pluck: boolean, idOf: (row: Row) => unknown): { rows: Row[]; total: number } {
    this.refresh();
    if (this.mode.kind === 'adopt') return this.answer(tenantId, query, pluck, idOf);
    const pageKey = `${tenantId}\u0000${pluck ? 'pluck' : 'rows'}\u0000${JSON.stringify(query)}`;
    let answered = this.pages.get(pageKey);
    if (answered === undefined) {
      answered = this.answer(tenantId, query, pluck, idOf);
      // Pages in id order past the first MAIN_THREAD_ROWS rows are asked for once each (`--all`
      // walks them in turn, each cheap from its bucket or the last page's id): kept, their rows
      // outlived the young generation's collections for nothing. A deep page in another order
      // steps over every row before it (17 ms for page 1,000 of a million customers by address),
      // so an identical one, a client asking again, is answered from here.
      if (!orderedById(this.def, query.order_by) || query.page_number * query.page_size <= MAIN_THREAD_ROWS) this.pages.set(pageKey, answered);
    }
    return answered;
  }

  /** The page and total of a list (see `page`), or, in `ListMode` 'adopt', no rows and the worker's total. */
  private answer(tenantId: number, query: ListQuery, pluck: boolean, idOf: (row: Row) => unknown): { rows: Row[]; total: number } {
    const { c, params, countParams, narrowParams } = this.compile(tenantId, query);
    const totalKey = `${c.countSql}\u0000${JSON.stringify(countParams)}`;
    const mode = this.mode;
    if (mode.kind !== 'run') {
      if (mode.kind === 'bounded') {
        if (!this.bounded(tenantId, c, totalKey)) throw UNBOUNDED;
      } else {
        if (!this.db.inTransaction && this.totalsStamp === mode.token) this.totals.set(totalKey, { n: mode.total });
        return { rows: [], total: mode.total };
      }
    }
    const seekKey = c.seekSql && `${c.seekSql}\u0000${JSON.stringify(params)}`;
    const seek = seekKey ? this.seeks.get(seekKey) : undefined;
    const found = c.windowSql && !seek ? this.window(c, totalKey, params, countParams, pluck) : undefined;
    if (found) return this.seen(seekKey, c.offset, found.rows, idOf, found.total);
    const total = this.total(totalKey, c.countSql, countParams).n;
    if (c.offset >= total) return { rows: [], total };
    const end = Math.min(c.offset + c.limit, total);
    const [sql, bind] =
      seek && seek.offset === c.offset
        ? [c.seekSql!, [...params, seek.id, c.limit]]
        : c.bucketSql && Math.min(c.offset, total - end) > BUCKET_ROWS
          ? [c.bucketSql, [c.offset, tenantId, ...params, c.limit]]
          : c.tailSql && c.offset > total / 2
          ? [c.tailSql, [...params, end - c.offset, total - end]]
          : c.narrowSql && total <= NARROW_ROWS
            ? [c.narrowSql, [...narrowParams!, c.limit, c.offset]]
            : [c.pageSql, [...params, c.limit, c.offset]];
    return this.seen(seekKey, c.offset, this.all(sql, bind, pluck), idOf, total);
  }

  /**
   * A date range's page found in its window (`CompiledList.windowSql`), and its total; undefined
   * when the window does not hold the page (a sort of the matches picks it, see `page`). Counted
   * already, the window walks from where the count found the first match, when it did, else from
   * the tenant's first row in the order. Not counted yet, it walks from that first row before the
   * count: when it holds a whole page (a range of early dates, ascending), a plain count follows.
   * When it does not (a range of late dates: every earlier row was walked in vain), the count
   * answers the first match's id too (`CompiledList.span`), and the window walks again from there:
   * stamps grow with ids, so the page is found at once. The one more aggregate of the count's scan
   * costs less than the sort of every match it spares (at 1M users, 0.5 against 1.55 times the
   * count's CPU, measured in one process), and it is exact whatever the stamps: no match lies
   * before the first.
   */
  private window(c: CompiledList, key: string, params: unknown[], countParams: unknown[], pluck: boolean): { rows: Row[]; total: number } | undefined {
    const span = c.span!;
    const walk = (start: number | null | undefined) => this.all(c.windowSql!, [...params, c.limit, c.offset, { start: start ?? span.unbounded }], pluck);
    let counted = this.totals.get(key);
    if (counted && c.offset >= counted.n) return { rows: [], total: counted.n };
    let rows = walk(counted?.[span.end]);
    if (!counted) {
      counted = this.stmt(rows.length === c.limit ? c.countSql : span.sql).get(...countParams) as Counted;
      this.totals.set(key, counted);
      const first = counted[span.end];
      if (first != null && c.offset + rows.length < Math.min(c.offset + c.limit, counted.n)) rows = walk(first);
    }
    return c.offset + rows.length === Math.min(c.offset + c.limit, counted.n) ? { rows, total: counted.n } : undefined;
  }

  private all(sql: string, bind: unknown[], pluck: boolean): Row[] {
    const stmt = this.stmt(sql);
    try {
      return stmt.pluck(pluck).all(...bind) as Row[];
    } finally {
      if (pluck) stmt.pluck(false);
    }
  }

  /** The page answered, its last id noted for a continuation (see `seeks`). */
  private seen(seekKey: string | undefined, offset: number, rows: Row[], idOf: (row: Row) => unknown, total: number): { rows: Row[]; total: number } {
    const last = rows.length ? idOf(rows[rows.length - 1]) : undefined;
    if (seekKey && typeof last === 'number') this.seeks.set(seekKey, { offset: offset + rows.length, id: last });
    return { rows, total };
  }

  /**
   * The SQL a query compiles to, for EXPLAIN QUERY PLAN checks (`bucket`, `window` and `span`:
   * those of its `bucketSql`, `windowSql` and `span`, when it has them).
   */
  explain(tenantId: number, query: ListQuery): { page: string[]; count: string[]; bucket?: string[]; window?: string[]; span?: string[] } {
    this.refresh();
    const { c, params, countParams } = this.compile(tenantId, query);
    const plan = (sql: string, p: unknown[]) =>
      (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...p) as { detail: string }[]).map((r) => r.detail);
    const bucket = c.bucketSql === undefined ? {} : { bucket: plan(c.bucketSql, [c.offset, tenantId, ...params, c.limit]) };
    const window = c.windowSql && c.span ? { window: plan(c.windowSql, [...params, c.limit, c.offset, { start: 0 }]), span: plan(c.span.sql, countParams) } : {};
    return { page: plan(c.pageSql, [...params, c.limit, c.offset]), count: plan(c.countSql, countParams), ...bucket, ...window };
  }
}
