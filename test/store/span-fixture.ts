/**
 * Rows for the tests of a date range's id span (list-query.ts, `windowSql`; postgres/list-query.ts,
 * `walk`), the same on both stores: three large tenants whose rows interleave by id. In `interleaved`
 * (7,200 rows, more than a date range's first window) and `other` the stamps follow the ids, as
 * the seeder's and a server's do, except `interleaved`'s imported rows, stamped years earlier; in
 * `shuffled` they follow no order. Some rows were updated with arbitrary stamps, and every 13th
 * row is trashed.
 */

export interface SpanRow {
  id: number;
  tenant_id: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export const SPAN_TENANTS = { interleaved: 1, other: 2, shuffled: 3 } as const;

const ROWS = 12_000;
const minutes = (from: string, n: number) => new Date(Date.parse(from) + n * 60_000).toISOString();

/** A deterministic generator of numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One table's rows, ids 1 to 12,000; `seed` varies the shuffle and the updates. */
function rowsOf(seed: number): SpanRow[] {
  const next = random(seed);
  const order = Array.from({ length: ROWS }, (_, i) => i);
  for (let i = ROWS - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return Array.from({ length: ROWS }, (_, i) => {
    const id = i + 1;
    const tenant = id % 5 === 0 ? SPAN_TENANTS.other : id % 5 === 1 ? SPAN_TENANTS.shuffled : SPAN_TENANTS.interleaved;
    const created =
      tenant === SPAN_TENANTS.shuffled ? minutes('2024-01-01', order[i]) : tenant === SPAN_TENANTS.interleaved && id % 97 === 0 ? minutes('2021-01-01', id) : minutes('2024-01-01', id);
    const updated = next() < 0.05 ? minutes('2024-01-01', Math.floor(next() * ROWS * 1.2)) : created;
    return { id, tenant_id: tenant, created_at: created, updated_at: updated, deleted_at: id % 13 === 0 ? '2025-06-01T00:00:00.000Z' : null };
  });
}

/** The tenants' ids and the users' and customers' rows. */
export function spanRows(): { tenants: typeof SPAN_TENANTS; users: SpanRow[]; customers: SpanRow[] } {
  return { tenants: SPAN_TENANTS, users: rowsOf(1), customers: rowsOf(2) };
}

/** The range operators, with their SQL, for the plain queries the tests compare with. */
export const SPAN_RANGES = { GreaterThan: '>', GreaterThanOrEqual: '>=', LessThan: '<', LessThanOrEqual: '<=' } as const;
export type SpanRange = keyof typeof SPAN_RANGES;

/** Stamps of the tenant's rows at these fractions of its rows in id order: early, late, and past the first window or walk (5,000 and 2,000 rows). */
export function spanProbes(rows: readonly SpanRow[], tenant: number, attribute: 'created_at' | 'updated_at'): string[] {
  const own = rows.filter((r) => r.tenant_id === tenant);
  return [0.05, 0.8, 0.97].map((at) => own[Math.floor(at * (own.length - 1))][attribute]);
}
