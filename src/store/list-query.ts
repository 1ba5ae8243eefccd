import type { AttributeType, ListFilter, ListQuery } from '../contract/index.js';
import type { Db } from './db.js';
import type Database from 'better-sqlite3';

/** One whitelisted attribute: the SQL expression it stands for and how it compares. */
export interface ColumnDef {
  sql: string;
  type: AttributeType;
  /** The expression needs the definition's `joins` (the count query joins only when needed). */
  join?: boolean;
}

/**
 * A resource's list definition. Only these fragments ever reach SQL; user input is bound.
 * `from` must alias the main table so that `idColumn`, `tenantColumn` and `deletedColumn` resolve;
 * `joins` (LEFT JOINs for selected or derived columns) is left out of the count unless the filter
 * needs it: counting 100,000 rows through a join cost ~5x the plain count.
 */
export interface ListDef {
  select: string;
  from: string;
  joins?: string;
  tenantColumn: string;
  deletedColumn: string;
  idColumn: string;
  columns: Readonly<Record<string, ColumnDef>>;
}

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
 * integers compare numerically; dates arrive as normalised ISO strings, whose text order is time
 * order. NotEqual and the ordering operators never match NULL (SQL semantics).
 */
export function compileFilter(col: ColumnDef, filter: ListFilter): { sql: string; params: unknown[] } {
  const op = filter.operator;
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
  countSql: string;
  params: unknown[];
  limit: number;
  offset: number;
}

export function compileList(def: ListDef, query: ListQuery): CompiledList {
  const where = [`${def.tenantColumn} = ?`];
  const params: unknown[] = [];
  let countJoins = false;
  if (!query.with_trashed) where.push(`${def.deletedColumn} IS NULL`);
  if (query.filter) {
    const col = def.columns[query.filter.attribute];
    if (!col) throw new Error(`Unknown filter attribute ${query.filter.attribute}`);
    const f = compileFilter(col, query.filter);
    countJoins = col.join === true;
    where.push(f.sql);
    params.push(...f.params);
  }
  const whereSql = where.join(' AND ');
  const order = compileOrder(def, query.order_by, query.order_direction);
  return {
    pageSql: `SELECT ${def.select} FROM ${def.from} ${def.joins ?? ''} WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`,
    countSql: `SELECT COUNT(*) AS n FROM ${def.from} ${countJoins ? (def.joins ?? '') : ''} WHERE ${whereSql}`,
    params,
    limit: query.page_size,
    offset: (query.page_number - 1) * query.page_size,
  };
}

/**
 * Runs list queries for one resource on one store. Statements are prepared once per distinct SQL
 * text and cached: the texts come only from the whitelist, so the cache is bounded
 * (attributes x operators x directions x with_trashed).
 */
export class ListRunner<Row> {
  private readonly cache = new Map<string, Database.Statement>();
  /** Exact totals by count SQL and parameters, valid while `totalsStamp` still describes the database. */
  private readonly totals = new Map<string, number>();
  private totalsStamp = '';
  private readonly changes: Database.Statement;
  constructor(
    private readonly db: Db,
    readonly def: ListDef,
  ) {
    this.changes = db.prepare('SELECT total_changes() AS n');
  }

  /**
   * The exact total, from the cache when nothing was written since it was counted: counting a
   * large table dominates a list request, and paging through a list repeats the same count.
   * `total_changes()` moves with this connection's writes, `data_version` with other
   * connections' commits (an admin command beside `serve`), so a stale total is never served.
   */
  private total(sql: string, params: unknown[]): number {
    const stamp = `${this.db.pragma('data_version', { simple: true })}:${(this.changes.get() as { n: number }).n}`;
    if (stamp !== this.totalsStamp || this.totals.size >= 256) {
      this.totals.clear();
      this.totalsStamp = stamp;
    }
    const key = `${sql}\u0000${JSON.stringify(params)}`;
    let n = this.totals.get(key);
    if (n === undefined) this.totals.set(key, (n = (this.stmt(sql).get(...params) as { n: number }).n));
    return n;
  }

  private stmt(sql: string): Database.Statement {
    let s = this.cache.get(sql);
    if (!s) this.cache.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  run(tenantId: number, query: ListQuery): { rows: Row[]; total: number } {
    const c = compileList(this.def, query);
    const params = [tenantId, ...c.params];
    const total = this.total(c.countSql, params);
    const rows = c.offset >= total ? [] : (this.stmt(c.pageSql).all(...params, c.limit, c.offset) as Row[]);
    return { rows, total };
  }

  /** The SQL a query compiles to, for EXPLAIN QUERY PLAN checks. */
  explain(tenantId: number, query: ListQuery): { page: string[]; count: string[] } {
    const c = compileList(this.def, query);
    const params = [tenantId, ...c.params];
    const plan = (sql: string, p: unknown[]) =>
      (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...p) as { detail: string }[]).map((r) => r.detail);
    return { page: plan(c.pageSql, [...params, c.limit, c.offset]), count: plan(c.countSql, params) };
  }
}
