/**
 * The oracle of date range totals from the counters' stamp bounds (src/store/stamp-bounds.ts), the
 * same on both stores: the span fixture's tenants (stamps in id order, imported rows, shuffled
 * stamps), then writes by SQL that the counters' triggers follow (stamps moved forward and back,
 * soft deletes and restores, hard deletes, rows moved to another tenant, new rows sharing one
 * stamp), so the bounds are wider than the rows; every range operator, with and without trashed
 * rows, at instants equal to stored stamps and beyond them, answers the plain filter's total,
 * rows and order (the filter applied here to the tenant's rows, read once per stamp: one query
 * per list instead of two, and each list's reads at once, took the PostgreSQL file from 42 to 12 s).
 */
import { expect } from 'vitest';
import type { ListQuery } from '../../src/contract/index.js';
import { BUCKET_BITS, highest, lowest, STAMPS } from '../../src/store/list-counts.js';
import { f, q } from './contract/fixtures.js';
import { SPAN_RANGES, SPAN_TENANTS, type SpanRange } from './span-fixture.js';

export const BOUNDED_TABLES = ['users', 'customers'] as const;
export type BoundedTable = (typeof BOUNDED_TABLES)[number];

/** SQL both stores run after the load. */
export const BOUND_WRITES: readonly string[] = BOUNDED_TABLES.flatMap((t) => [
  `UPDATE ${t} SET updated_at = '2026-01-01T00:00:00.000Z' WHERE id % 211 = 0`,
  `UPDATE ${t} SET updated_at = '2023-01-01T00:00:00.000Z' WHERE id % 307 = 0`,
  `UPDATE ${t} SET created_at = '2019-05-05T00:00:00.000Z' WHERE id = 5003`,
  `UPDATE ${t} SET deleted_at = '2025-07-01T00:00:00.000Z', updated_at = '2025-07-01T00:00:00.000Z' WHERE id % 17 = 0 AND deleted_at IS NULL`,
  `UPDATE ${t} SET deleted_at = NULL WHERE id % 39 = 0`,
  `DELETE FROM ${t} WHERE id % 23 = 0`,
  `UPDATE ${t} SET tenant_id = ${SPAN_TENANTS.other} WHERE id BETWEEN 6000 AND 6100 AND tenant_id = ${SPAN_TENANTS.interleaved}`,
  `WITH RECURSIVE n(i) AS (SELECT 12001 UNION ALL SELECT i + 1 FROM n WHERE i < 12300)
   INSERT INTO ${t} (id, tenant_id, first_name, last_name, email, created_at, updated_at) SELECT i, 1 + i % 3, 'N', 'W', '${t}n' || i || '@x.example', '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z' FROM n`,
]);

/** A store's side of the oracle. */
export interface BoundsStore {
  /** Rows of a statement with `?`-free SQL. */
  sql(text: string): Promise<Record<string, unknown>[]>;
  /** The store's list. */
  list(table: BoundedTable, tenant: number, query: ListQuery): Promise<{ rows: { id: number }[]; total: number }>;
  /** Whether the list's total is counted from the bounds (not the store's own count). */
  zoned(table: BoundedTable, tenant: number, query: ListQuery): Promise<boolean>;
}

/** Buckets whose counter bounds do not hold every row's stamps (live or trashed), as text; and those whose bounds are not exactly the rows'. */
export async function boundsOff(store: BoundsStore, table: string): Promise<{ loose: string[]; inexact: string[] }> {
  const rows = await store.sql(
    `SELECT tenant_id, id >> ${BUCKET_BITS} AS bucket, ${STAMPS.map((s) => `min(${s}) AS ${lowest(s)}, max(${s}) AS ${highest(s)}`).join(', ')} FROM ${table} GROUP BY tenant_id, id >> ${BUCKET_BITS}`,
  );
  const counters = await store.sql(`SELECT tenant_id, bucket, ${STAMPS.map((s) => `${lowest(s)}, ${highest(s)}`).join(', ')} FROM list_counts WHERE list = '${table}'`);
  const key = (r: Record<string, unknown>) => `${String(r.tenant_id)}/${String(r.bucket)}`;
  const byKey = new Map(counters.map((c) => [key(c), c]));
  const loose: string[] = [];
  const inexact: string[] = [];
  for (const r of rows) {
    const c = byKey.get(key(r));
    const holds = c !== undefined && STAMPS.every((s) => String(c[lowest(s)]) <= String(r[lowest(s)]) && String(c[highest(s)]) >= String(r[highest(s)]));
    if (!holds) loose.push(`${key(r)} ${JSON.stringify(c)} ${JSON.stringify(r)}`);
    if (c === undefined || STAMPS.some((s) => c[lowest(s)] !== r[lowest(s)] || c[highest(s)] !== r[highest(s)])) inexact.push(key(r));
  }
  return { loose, inexact };
}

/** Instants to filter by: stored stamps at these fractions of the tenant's rows in stamp order, and instants before and after every stamp. */
function instants(stamps: readonly string[]): string[] {
  const sorted = [...stamps].sort();
  const at = [0, 0.05, 0.5, 0.97, 1].map((x) => sorted[Math.floor(x * (sorted.length - 1))]);
  return [...new Set(['2000-01-01T00:00:00.000Z', ...at, '2026-02-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z'])];
}

/** `stamp OP value` as both stores compare text stamps (byte order: SQLite's BINARY, PostgreSQL's "C"). */
const COMPARE: Record<SpanRange, (stamp: string, value: string) => boolean> = {
  GreaterThan: (a, b) => a > b,
  GreaterThanOrEqual: (a, b) => a >= b,
  LessThan: (a, b) => a < b,
  LessThanOrEqual: (a, b) => a <= b,
};

/**
 * Every table, tenant, stamp, instant, operator and trash choice: the list's total, its first
 * page ascending and its last page descending are the plain query's. Answers how many lists were
 * counted from the bounds and how many by the store's own count.
 */
export async function expectPlainRanges(store: BoundsStore): Promise<{ zoned: number; fallback: number }> {
  const ways = { zoned: 0, fallback: 0 };
  for (const table of BOUNDED_TABLES) {
    for (const tenant of Object.values(SPAN_TENANTS)) {
      for (const stamp of STAMPS) {
        // The tenant's rows read once: each filter is applied to them here, as the plain query would.
        const rows = (await store.sql(`SELECT id, ${stamp} AS stamp, deleted_at IS NOT NULL AS trashed FROM ${table} WHERE tenant_id = ${tenant} ORDER BY id`)).map((r) => ({
          id: Number(r.id),
          stamp: String(r.stamp),
          trashed: Boolean(Number(r.trashed)),
        }));
        for (const value of instants(rows.map((r) => r.stamp))) {
          for (const operator of Object.keys(SPAN_RANGES) as SpanRange[]) {
            for (const with_trashed of [false, true]) {
              const plain = rows.filter((r) => (with_trashed || !r.trashed) && COMPARE[operator](r.stamp, value)).map((r) => r.id);
              const query = (over: Partial<ListQuery>) => q({ filter: f(stamp, 'date', operator, value), with_trashed, page_size: 15, ...over });
              const last = Math.max(1, Math.ceil(plain.length / 15));
              const [first, deep, zoned] = await Promise.all([
                store.list(table, tenant, query({})),
                store.list(table, tenant, query({ order_direction: 'desc', page_number: last })),
                store.zoned(table, tenant, query({})),
              ]);
              const desc = [...plain].reverse();
              const label = `${table} tenant ${tenant} ${stamp} ${operator} ${value} trashed ${with_trashed}`;
              expect({ label, total: first.total, first: first.rows.map((r) => r.id), deep: deep.total, last: deep.rows.map((r) => r.id) }).toEqual({
                label,
                total: plain.length,
                first: plain.slice(0, 15),
                deep: plain.length,
                last: desc.slice((last - 1) * 15, last * 15),
              });
              ways[zoned ? 'zoned' : 'fallback']++;
            }
          }
        }
      }
    }
  }
  return ways;
}

/** The statement's choice between the bounds and the store's count: `sql` up to its final SELECT, which then reads the choice. */
export const choiceSql = (sql: string) => `${sql.slice(0, sql.lastIndexOf('SELECT CAST(sum(n) AS bigint)'))} SELECT zoned FROM z`;
