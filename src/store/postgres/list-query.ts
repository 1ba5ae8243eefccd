import type { ListFilter, ListQuery } from '../../contract/index.js';
import { type ColumnDef, type ListDef, orderedById } from '../rows/list-def.js';
import { fold } from './folded.js';
import { boundedStamp, bucketPageSql, counterTotalSql, type Stamp } from '../list-counts.js';
import { boundedRangeSql, type RangeOperator } from '../stamp-bounds.js';
import { equalCountSql, rangeCountSql, rangeSpanCountSql, type RangeParts } from './range-count.js';
import { manyWords, probedCountSql } from './trigram-probe.js';

/** One whitelisted attribute: SQLite's `ColumnDef` (its semi-join's index is SQLite's only; a `countIndex` says the attribute has an index of its own here too). */
export type PgColumnDef = Pick<ColumnDef, 'sql' | 'type' | 'join' | 'countIndex'> & {
  semi?: Omit<NonNullable<ColumnDef['semi']>, 'index'>;
  /**
   * The table holding this attribute's folded text by tenant and id, and its column there (see
   * `throughTexts`). `ordered`: that table also has the text's order index (tenant, text NULLS
   * FIRST, id) INCLUDE (deleted_at) (customer-texts.ts), so every filter and the order on the
   * attribute read it; otherwise only a `Contains` of 3 or more characters does (its trigram
   * index), and the list's own table's index answers the rest.
   */
  texts?: { table: string; column: string; ordered?: boolean };
};

/**
 * A resource's list definition: the shared `ListDef` of store/rows/ (only its fragments ever reach
 * SQL, every value is bound) less SQLite's tenant index, so both stores compile the same definitions.
 */
export type PgListDef = Omit<ListDef, 'tenantIndex' | 'columns'> & { columns: Readonly<Record<string, PgColumnDef>> };

/** A statement and its values, as `pg`'s `client.query()` takes them. */
export interface PgQuery {
  text: string;
  values: unknown[];
}

/**
 * A compiled list query: the page (its values end with the limit and offset), the total (as `n`),
 * and the tables the total reads (its cache is kept while none of them is written).
 */
export interface PgCompiledList {
  page: PgQuery;
  count: PgQuery;
  tables: string[];
  /**
   * For a page found among all the matches (`scattered`): the same page looked for among the
   * first `WALK_ROWS` rows in id order (from the first match on, given the matches' `IdSpan`), and
   * the rows it holds when it is found there (`rows`); when the walk answers fewer, `page` is read
   * instead. Without the total, the walk reads forward and finds the page only when it is whole.
   */
  walk?: { page: PgQuery; rows: number };
  /** For a date range's page in id order: `count` answering the matches' `IdSpan` too (`lo`, `hi`). */
  spanCount?: PgQuery;
  /**
   * For a filter on a joined attribute (`semi`, the department's name): `count` as two statements
   * of one snapshot, the joined table's matching ids (`ids`: one row, the array as `ids`) and then
   * the count of the rows with those ids (`count(ids)`), whose values the planner sees. Through the join it
   * estimates a fiftieth of the tenant for any department and scans serially; given the ids, a
   * department of half a million users is counted by a parallel index-only scan (85 -> 44 ms at a
   * million users, docs/performance.md).
   */
  countIds?: { ids: PgQuery; count: (ids: unknown[]) => PgQuery };
}

/**
 * Ids that every match of a list lies between, which the count of a date range in id order
 * answers from the same index-only scan (`lo` and `hi` beside `n`, `spanCount`): the matches'
 * lowest and highest id, or, counted from the other side of the instant, the ids past that side's
 * (range-count.ts). A walk in id order starts there instead of at the tenant's first row.
 * Dates grow with ids (a row is stamped when it is inserted), so a late range's matches are the
 * last ids: a walk from the tenant's first row met none of them, and the page was read among all
 * the matches (a second scan as long as the count's). The two aggregates cost about a tenth more
 * than the count alone (at 1M users), so they are asked only when that walk fell short
 * (people.ts, `runList`).
 */
export interface IdSpan {
  lo: number;
  hi: number;
}

/**
 * The rows of the tenant a page of a `scattered` filter is first looked for among, in id order:
 * a page of 15 is found there when at least 1 row in 133 matches (a one- or two-letter Contains
 * usually), for about 2,000 index entries and heap rows read, at most, instead of every match.
 */
export const WALK_ROWS = 2000;

/**
 * An unfiltered page in id order that would step over more entries than this walks from its
 * counter bucket instead (`bucketPageSql`): at a million rows the walk cost 0.6-0.7 ms and an
 * OFFSET about 0.37 µs an entry (2-core shared machine, warm), so the walk wins past about 1,600.
 */
export const BUCKET_WALK_FROM = 2000;

const COMPARE: Readonly<Record<string, string>> = {
  Equal: '=',
  NotEqual: '<>',
  GreaterThan: '>',
  GreaterThanOrEqual: '>=',
  LessThan: '<',
  LessThanOrEqual: '<=',
};

/** The operator of the other side of a date range's instant (the rows without a stamp are on neither). */
const OTHER_SIDE: Readonly<Record<string, ListFilter['operator']>> = {
  GreaterThan: 'LessThanOrEqual',
  GreaterThanOrEqual: 'LessThan',
  LessThan: 'GreaterThanOrEqual',
  LessThanOrEqual: 'GreaterThan',
};

/** Makes `%`, `_` and the escape character `\` literal in a LIKE pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Whether a `Contains` value has a trigram (3 or more characters), which a trigram index serves. */
const hasTrigram = (value: string) => [...value].length >= 3;

/**
 * `Contains` of `value` in `folded`, a folded text: `%`, `_` and `\` literal. A value of 1 or 2
 * characters has no trigram: a trigram index would return every row of the table to be checked
 * (9 s at 1,000,000 users). strpos matches the same rows and no trigram index serves it, so the
 * tenant's btree index is read instead.
 */
function containsTerm(folded: string, value: string, bind: (value: unknown) => string): string {
  if (!hasTrigram(value)) return `strpos(${folded}, ${fold(bind(value))}) > 0`;
  return `${folded} LIKE ${fold(bind(`%${escapeLike(value)}%`))} ESCAPE '\\'`;
}

/** A boolean as 1/0, whether stored so or derived as an SQL boolean (`started_at IS NOT NULL`). */
const asInteger = (sql: string) => `CAST((${sql}) AS integer)`;

/**
 * The WHERE term of one filter (decisions §6, §10); `bind` adds a value and returns its
 * placeholder. Text compares folded (see `fold`), in code point order. `Contains` is a LIKE (or,
 * for under 3 characters, strpos) on the folded text form (integers cast to text, dates as stored,
 * ISO text) with `%`, `_` and `\` literal. Integers compare numerically, booleans as 1/0, dates as
 * their ISO text (in "C" order, as schema.ts declares every text column: text order is time
 * order). NotEqual and the ordering operators never match NULL (SQL semantics).
 */
function compileFilter(col: PgColumnDef, filter: ListFilter, bind: (value: unknown) => string): string {
  const op = filter.operator;
  if (col.type === 'boolean' && filter.value !== null) {
    // `Contains` of 1 or 0 in a 1/0 value is equality.
    return `${asInteger(col.sql)} ${COMPARE[op === 'Contains' ? 'Equal' : op]} ${bind(Number(filter.value))}`;
  }
  if (op === 'IsNull') return `(${col.sql}) IS NULL`;
  if (op === 'NotNull') return `(${col.sql}) IS NOT NULL`;
  if (op === 'Contains') {
    const text = col.type === 'integer' ? `CAST((${col.sql}) AS text)` : col.sql;
    return containsTerm(fold(text), String(filter.value), bind);
  }
  const sqlOp = COMPARE[op];
  if (!sqlOp) throw new Error(`Unknown operator ${op}`);
  if (col.type === 'text') return `${fold(col.sql)} ${sqlOp} ${fold(bind(String(filter.value)))}`;
  if (col.type === 'integer') {
    const n = typeof filter.value === 'number' ? filter.value : Number(filter.value);
    if (!Number.isSafeInteger(n)) throw new Error(`Not an integer: ${String(filter.value)}`);
    // bigint: a value beyond an integer column's range compares instead of failing.
    return `(${col.sql}) ${sqlOp} ${bind(n)}::bigint`;
  }
  return `(${col.sql}) ${sqlOp} ${bind(new Date(String(filter.value)).toISOString())}`;
}

/**
 * A filter on an attribute whose folded text a narrow table holds (`PgColumnDef.texts`): the
 * filter as the ids of that table's matching rows (`term`), their count read from that table alone
 * (`count`; of a `Contains` of several words, through the trigram probe: trigram-probe.ts), and the test of one row of the list (`hit`, for a page walked for, see `scattered`).
 * Through the list's own table, each trigram match of a `Contains` was checked on its heap page of
 * the wide table (a broad value's count read every page), and an `Equal` or a range on a derived
 * text read each match's heap page (an expression index is index-only only when it carries the
 * columns the expression is made of). Every filter goes through a table with the text's order
 * index (`ordered`: the customers' address and city-and-country, customer-texts.ts); a `Contains`
 * of 3 or more characters through any (the users' names and the customers' e-mail too,
 * folded-texts.ts). The stored text is the fold of the attribute (`fold`), so each test is written
 * on it directly: `fold(x) = fold(v)` is `stored = fold(v)`, which its indexes answer. Undefined for
 * any other filter.
 */
function throughTexts(def: PgListDef, col: PgColumnDef, filter: ListFilter, withTrashed: boolean, bind: (value: unknown) => string) {
  if (!col.texts) return undefined;
  const trigrams = filter.operator === 'Contains' && filter.value !== null && hasTrigram(String(filter.value));
  if (!col.texts.ordered && !trigrams) return undefined;
  const live = withTrashed ? '' : ' AND t.deleted_at IS NULL';
  // The placeholder of the filter's value: a `Contains` pattern's, for the probe.
  let value = '';
  const test = foldedTextTerm(`t.${col.texts.column}`, filter, (v) => (value = bind(v)));
  const where = `t.tenant_id = $1${live}`;
  const matches = `FROM ${col.texts.table} t WHERE ${where} AND ${test}`;
  const probed = trigrams && manyWords(String(filter.value));
  return {
    table: col.texts.table,
    test,
    term: `${def.idColumn} IN (SELECT t.id ${matches})`,
    hit: `EXISTS (SELECT 1 FROM ${col.texts.table} t WHERE t.tenant_id = $1 AND t.id = ${def.idColumn} AND ${test})`,
    count: probed ? probedCountSql(col.texts.table, col.texts.column, where, test, fold(value)) : `SELECT count(*) AS n ${matches}`,
  };
}

/** `compileFilter`'s term for a text attribute, on `column`, which holds the attribute's text already folded. */
function foldedTextTerm(column: string, filter: ListFilter, bind: (value: unknown) => string): string {
  const op = filter.operator;
  if (op === 'IsNull') return `${column} IS NULL`;
  if (op === 'NotNull') return `${column} IS NOT NULL`;
  const value = String(filter.value);
  // As `compileFilter` (for a value with no trigram the order index is read, covering).
  if (op === 'Contains') return containsTerm(column, value, bind);
  const sqlOp = COMPARE[op];
  if (!sqlOp) throw new Error(`Unknown operator ${op}`);
  return `${column} ${sqlOp} ${fold(bind(value))}`;
}

/**
 * The ids of a page in the order of an attribute whose folded text a narrow table holds
 * (`PgColumnDef.texts`), read from that table's index on (tenant, text NULLS FIRST, id) INCLUDE
 * (deleted_at) (customer-texts.ts): an index-only walk. Through the customers' own expression
 * index, every entry an offset stepped over was read from the heap too, to learn `deleted_at`
 * (page 1,000 of a million customers: 15,786 heap rows, 11.5 against 2.2 ms warm). A filter
 * through the same table (`throughTexts`) is its term there; any other is a semi-join on the
 * list's own table (`filter`: its term there). The stored text is the attribute's fold, so the
 * order is `compileOrder`'s.
 */
function idsThroughTexts(
  def: PgListDef,
  texts: NonNullable<PgColumnDef['texts']>,
  q: { filter?: string; sameTable?: string; joins: string; direction: 'asc' | 'desc'; withTrashed: boolean; limit: string; offset: string },
): string {
  const dir = q.direction === 'desc' ? 'DESC' : 'ASC';
  const terms = ['t.tenant_id = $1', ...(q.withTrashed ? [] : ['t.deleted_at IS NULL'])];
  if (q.sameTable) terms.push(q.sameTable);
  else if (q.filter) terms.push(`t.id IN (SELECT ${def.idColumn} FROM ${def.from} ${q.joins} WHERE ${def.tenantColumn} = $1 AND ${q.filter})`);
  return `SELECT t.id FROM ${texts.table} t WHERE ${terms.join(' AND ')} ORDER BY t.${texts.column} ${dir} ${q.direction === 'desc' ? 'NULLS LAST' : 'NULLS FIRST'}, t.id ${dir} LIMIT ${q.limit} OFFSET ${q.offset}`;
}

/** An attribute read through a semi-join (`PgColumnDef.semi` set). */
type SemiColumn = PgColumnDef & { semi: NonNullable<PgColumnDef['semi']> };

/**
 * A filter on a joined attribute as a semi-join on the foreign key (`semi`), as the SQLite
 * compiler does: `fk IN (SELECT id FROM table WHERE tenant_id = $1 AND <filter on column>)`, so
 * the users' own indexes answer it (the department filter through a join read every user: 1.4 s
 * at 1,000,000). IsNull/NotNull test the key itself (the foreign key guarantees the joined row,
 * whose column is NOT NULL).
 */
function compileSemi(col: SemiColumn, filter: ListFilter, bind: (value: unknown) => string): string {
  const { fk } = col.semi;
  if (filter.operator === 'IsNull') return `${fk} IS NULL`;
  if (filter.operator === 'NotNull') return `${fk} IS NOT NULL`;
  return `${fk} IN (${semiIds(col, filter, bind)})`;
}

/** The ids of the joined table's rows (of the tenant `$1`) that a semi-join filter matches. */
const semiIds = (col: SemiColumn, filter: ListFilter, bind: (value: unknown) => string): string =>
  `SELECT id FROM ${col.semi.table} WHERE tenant_id = $1 AND ${compileFilter({ sql: col.semi.column, type: col.type }, filter, bind)}`;

/**
 * `PgCompiledList.countIds` of a semi-join filter (not IsNull/NotNull, which test the key itself):
 * `scope` is the terms before the filter's (the tenant `$1`, live rows), which read no other value.
 */
function semiCountIds(col: SemiColumn, filter: ListFilter, from: string, scope: string, tenantId: number): PgCompiledList['countIds'] {
  if (filter.operator === 'IsNull' || filter.operator === 'NotNull') return undefined;
  const values: unknown[] = [tenantId];
  const matching = semiIds(col, filter, (value) => `$${values.push(value)}`);
  return {
    ids: { text: `SELECT coalesce(array_agg(id), '{}') AS ids FROM (${matching}) AS matching`, values },
    count: (ids) => ({ text: `SELECT count(*) AS n FROM ${from} WHERE ${scope} AND ${col.semi.fk} = ANY($2::bigint[])`, values: [tenantId, ids] }),
  };
}

/**
 * The count (and, for a date range, the count answering its `IdSpan`) of a filter on a counted
 * table that may be counted from the smaller side of its value (range-count.ts): a date range, or
 * an Equal on a number with an index for its counts (`status`, `department_id`). `scope` is the
 * terms before the filter's, `matches` the filter's term, `value` its value's placeholder.
 * Undefined for any other filter.
 */
function sidedCount(def: PgListDef, col: PgColumnDef, filter: ListFilter, terms: { scope: string; matches: string; value: string }, withTrashed: boolean) {
  if (!def.counted || col.join) return undefined;
  const parts = { from: def.from, id: def.idColumn, tenant: '$1', counted: def.counted, withTrashed, column: col.sql, ...terms };
  const other = (operator: ListFilter['operator']) => compileFilter(col, { ...filter, operator }, () => terms.value);
  const opposite = OTHER_SIDE[filter.operator];
  if (col.type === 'date' && opposite) {
    const range = { ...parts, others: [other(opposite)], later: opposite.startsWith('Less') };
    const stamp = boundedStamp(filter.attribute, col.sql);
    if (!stamp) return { count: rangeCountSql(range), spanCount: rangeSpanCountSql(range) };
    const bounded = (span: boolean) => boundedRange({ ...range, value: terms.value }, stamp, COMPARE[filter.operator] as RangeOperator, span);
    return { count: bounded(false), spanCount: bounded(true) };
  }
  const attribute = /^(?:\w+\.)?(\w+)$/.exec(col.sql)?.[1];
  if (col.type === 'integer' && filter.operator === 'Equal' && col.countIndex && attribute) {
    return { count: equalCountSql({ ...parts, others: [other('LessThan'), other('GreaterThan')], table: def.counted, attribute }) };
  }
  return undefined;
}

/**
 * A date range's total (and with `span`, its `IdSpan`) from the counters' stamp bounds
 * (store/stamp-bounds.ts), counted from the smaller side of the instant (range-count.ts) when the
 * stamps do not follow the ids.
 */
function boundedRange(range: RangeParts & { value: string }, stamp: Stamp, operator: RangeOperator, span: boolean): string {
  const fallback = span ? rangeSpanCountSql(range) : rangeCountSql(range);
  return boundedRangeSql({
    table: range.counted,
    stamp,
    operator,
    withTrashed: range.withTrashed,
    tenant: range.tenant,
    value: range.value,
    prelude: '',
    from: range.from,
    id: range.id,
    column: range.column,
    scope: range.scope,
    idsFrom: range.from,
    current: 'smaller',
    fallback: `SELECT n, ${span ? 'lo, hi' : 'NULL::bigint AS lo, NULL::bigint AS hi'} FROM (${fallback}) AS f`,
    span,
  });
}

/** `sidedCount`'s statements by the shape they were written for: their text never holds a value. */
const sidedCounts = new Map<string, ReturnType<typeof sidedCount>>();

/**
 * `sidedCount`, written once per shape (list, attribute, operator, trash, terms) and kept: a list
 * is compiled twice per request, and writing its count each time (a statement of several
 * subqueries) cost the bench's PostgreSQL `Equal` row about 2 % of `serve`'s CPU in the statement's
 * text alone, and more in the garbage collector. The shapes are a few per attribute.
 */
function sidedCountOf(def: PgListDef, col: PgColumnDef, filter: ListFilter, terms: { scope: string; matches: string; value: string }, withTrashed: boolean) {
  const key = `${def.from}\0${def.idColumn}\0${def.counted}\0${col.sql}\0${filter.attribute}\0${filter.operator}\0${withTrashed}\0${terms.scope}\0${terms.matches}\0${terms.value}`;
  if (sidedCounts.has(key)) return sidedCounts.get(key);
  const sided = sidedCount(def, col, filter, terms, withTrashed);
  if (sidedCounts.size >= 1000) sidedCounts.clear();
  sidedCounts.set(key, sided);
  return sided;
}

/**
 * Whether the planner's guess of how many rows a filter matches is no guide to where they lie in
 * id order: a date range (dates grow with ids, so a late range lies at the end) or a Contains of 1
 * or 2 characters (estimated as a third of the rows, however rare). For an id-ordered page the
 * planner would then walk the table in id order testing each row, reading the heap of every row
 * before the first match (4 s for created_at after a date when the matches were the last 45 %, 9 s
 * for a one-letter Contains matching nothing, at 1,000,000 users). Such a page is found among all
 * the matching ids instead (`OFFSET 0` keeps the planner from merging the two), through the
 * filter's own index, which holds them index-only, and sorted: a cost of the order of the count's.
 */
export function scattered(filter: ListFilter): boolean {
  if (filter.operator === 'Contains') return !hasTrigram(String(filter.value));
  return filter.attribute !== 'id' && ['GreaterThan', 'GreaterThanOrEqual', 'LessThan', 'LessThanOrEqual'].includes(filter.operator);
}

/** The tables named after FROM or JOIN in SQL text of a list definition (`users u`, `LEFT JOIN departments d …`). */
const tablesOf = (sql: string) => [...sql.matchAll(/(?:^|\bJOIN\s+)(\w+)/g)].map((m) => m[1]);

/**
 * The ORDER BY clause: nulls first ascending and last descending, as SQLite sorts them (PostgreSQL's
 * default is the opposite); ties by id in the same direction; text by its fold, dates by their ISO
 * text, both in "C" (code point) order.
 */
function compileOrder(def: PgListDef, attribute: string, direction: 'asc' | 'desc'): string {
  const col = def.columns[attribute];
  if (!col) throw new Error(`Unknown order attribute ${attribute}`);
  const dir = direction === 'desc' ? 'DESC' : 'ASC';
  if (col.sql === def.idColumn) return `${def.idColumn} ${dir}`;
  const expr = col.type === 'text' ? fold(col.sql) : col.type === 'boolean' ? asInteger(col.sql) : `(${col.sql})`;
  return `${expr} ${dir} ${direction === 'desc' ? 'NULLS LAST' : 'NULLS FIRST'}, ${def.idColumn} ${dir}`;
}

/**
 * The page's window in the order its ids are read: `limit` rows after `offset`, read `reversed`
 * or not. With the list's `total` known, a page past the middle is read from the other end, so
 * the rows an offset steps over are never more than half the list (the last of 63,340 pages of a
 * million users stepped over 950,000 index entries, 80 ms warm), and a page past the end reads
 * nothing (limit 0).
 */
function pageWindow(query: ListQuery, total: number | undefined): { limit: number; offset: number; reversed: boolean } {
  const start = (query.page_number - 1) * query.page_size;
  if (total === undefined || start + query.page_size / 2 <= total / 2) return { limit: query.page_size, offset: start, reversed: false };
  return { limit: Math.max(0, Math.min(query.page_size, total - start)), offset: Math.max(0, total - start - query.page_size), reversed: true };
}

/**
 * Compiles a list query of one tenant to numbered placeholders: the tenant id is `$1`, then the
 * filter's value, then (in the page only) the limit and offset. The page is a deferred join: the
 * ids of the page are found first (through the indexes, joining only when the filter or order
 * needs it), and only those rows are selected, so the rows an offset skips never have their
 * select list computed (a user's JSON text is dozens of function calls). `total`, the count's
 * answer in the same state, lets the page be read from the nearer end (see `pageWindow`); `span`,
 * its `IdSpan` in the same state, bounds the walk.
 */
export function compileList(def: PgListDef, tenantId: number, query: ListQuery, total?: number, span?: IdSpan): PgCompiledList {
  const values: unknown[] = [tenantId];
  const bind = (value: unknown) => `$${values.push(value)}`;
  const where = [`${def.tenantColumn} = $1`];
  if (!query.with_trashed) where.push(`${def.deletedColumn} IS NULL`);
  let filterJoins = '';
  // A filter counted from the smaller side of its value (`sidedCount`).
  let sided: ReturnType<typeof sidedCount>;
  const tables = tablesOf(def.from);
  let texts: ReturnType<typeof throughTexts>;
  let countIds: PgCompiledList['countIds'];
  if (query.filter) {
    const col = def.columns[query.filter.attribute];
    if (!col) throw new Error(`Unknown filter attribute ${query.filter.attribute}`);
    texts = throughTexts(def, col, query.filter, query.with_trashed, bind);
    if (texts) where.push(texts.term);
    else if (col.semi) {
      const semi = { ...col, semi: col.semi };
      const scope = where.join(' AND ');
      where.push(compileSemi(semi, query.filter, bind));
      tables.push(col.semi.table);
      countIds = semiCountIds(semi, query.filter, def.from, scope, tenantId);
    } else {
      const scope = where.join(' AND ');
      where.push(compileFilter(col, query.filter, bind));
      sided = sidedCountOf(def, col, query.filter, { scope, matches: where[where.length - 1], value: `$${values.length}` }, query.with_trashed);
      if (col.join) filterJoins = def.joins ?? '';
      tables.push(...tablesOf(filterJoins));
    }
  }
  const order = compileOrder(def, query.order_by, query.order_direction);
  const pageJoins = def.columns[query.order_by]?.join ? (def.joins ?? '') : filterJoins;
  const whereSql = where.join(' AND ');
  const byId = orderedById(def, query.order_by);
  const amongMatches = byId && query.filter !== null && scattered(query.filter);
  const counted = (columns: string) => ({ text: `SELECT count(*) AS n${columns} FROM ${def.from} ${filterJoins} WHERE ${whereSql}`, values: [...values] });
  // Unfiltered, the sum of the tenant's bucket counters answers (store/list-counts.ts) instead of a count of the tenant's index entries.
  const unfiltered = !query.filter && def.counted ? { text: counterTotalSql(def.counted, query.with_trashed, '$1'), values: [tenantId] } : undefined;
  const count = texts ? { text: texts.count, values: [...values] } : (unfiltered ?? (sided ? { text: sided.count, values: [...values] } : counted('')));
  // A date range's count may answer its `IdSpan` too (a short Contains matches all over the ids).
  const spanOf = () => (sided?.spanCount ? { text: sided.spanCount, values: [...values] } : counted(`, min(${def.idColumn}) AS lo, max(${def.idColumn}) AS hi`));
  const spanCount = amongMatches && query.filter?.operator !== 'Contains' ? spanOf() : undefined;
  // Every match lies within the span: the page's ids are looked for there alone.
  const inSpan = span && amongMatches ? [`${def.idColumn} BETWEEN ${bind(span.lo)} AND ${bind(span.hi)}`] : [];
  const pageWhere = [...where, ...inSpan].join(' AND ');
  const window = pageWindow(query, total);
  const limit = bind(window.limit);
  const offset = bind(window.offset);
  const readDirection = window.reversed === (query.order_direction === 'desc') ? 'asc' : 'desc';
  // Unfiltered in id order, a page that would step over more than BUCKET_WALK_FROM entries walks from its bucket (store/list-counts.ts).
  const orderTexts = def.columns[query.order_by]?.texts?.ordered ? def.columns[query.order_by].texts : undefined;
  const bucketed = byId && !query.filter && window.offset > BUCKET_WALK_FROM ? def.counted : undefined;
  const ids = amongMatches
    ? `SELECT id FROM (SELECT ${def.idColumn} AS id FROM ${def.from} ${pageJoins} WHERE ${pageWhere} OFFSET 0) AS matched ORDER BY id ${readDirection.toUpperCase()} LIMIT ${limit} OFFSET ${offset}`
    : bucketed
      ? bucketPageSql({ table: bucketed, withTrashed: query.with_trashed, direction: readDirection }, { from: def.from, where: whereSql, id: def.idColumn }, { offset, tenant: '$1', limit })
      : orderTexts
        ? idsThroughTexts(def, orderTexts, {
            filter: query.filter ? where[where.length - 1] : undefined,
            sameTable: texts?.table === orderTexts.table ? texts.test : undefined,
            joins: pageJoins,
            direction: readDirection,
            withTrashed: query.with_trashed,
            limit,
            offset,
          })
        : `SELECT ${def.idColumn} FROM ${def.from} ${pageJoins} WHERE ${whereSql} ORDER BY ${compileOrder(def, query.order_by, readDirection)} LIMIT ${limit} OFFSET ${offset}`;
  // A select list of the main table alone (`selectJoins: false`) joins only what the order needs.
  const selectJoins = def.selectJoins === false ? (def.columns[query.order_by]?.join ? (def.joins ?? '') : '') : (def.joins ?? '');
  const pageOf = (idsSql: string) => ({ text: `SELECT ${def.select} FROM ${def.from} ${selectJoins} WHERE ${def.idColumn} IN (${idsSql}) ORDER BY ${order}`, values });
  const page = pageOf(ids);
  if (!amongMatches || window.limit === 0) return { page, count, tables, countIds };
  // The filter's term is the last of `where` (or its test of one row, through the texts' table); the walk reads the tenant's rows in id order (within the span) and tests it on each.
  const [filterSql, ...scope] = [texts?.hit ?? where[where.length - 1], ...where.slice(0, -1), ...inSpan];
  const walkIds = `SELECT id FROM (SELECT ${def.idColumn} AS id, ${filterSql} AS hit FROM ${def.from} ${pageJoins} WHERE ${scope.join(' AND ')}
    ORDER BY ${def.idColumn} ${readDirection.toUpperCase()} LIMIT ${WALK_ROWS}) AS walked WHERE hit LIMIT ${limit} OFFSET ${offset}`;
  return { page, count, tables, walk: { page: pageOf(walkIds), rows: window.limit }, spanCount, countIds };
}
