import { describe, expect, it } from 'vitest';
import type { ListQuery } from '../../../src/contract/index.js';
import { openPostgresStore } from '../../../src/store/postgres/index.js';
import { compileList, WALK_ROWS } from '../../../src/store/postgres/list-query.js';
import { PG_CUSTOMER_LIST_DEF } from '../../../src/store/postgres/people.js';
import { USER_LIST_DEF } from '../../../src/store/rows/users.js';
import { f, q } from '../contract/fixtures.js';
import { SPAN_RANGES, spanProbes, spanRows, type SpanRange } from '../span-fixture.js';
import { loadedStore, loadSpanRows, sidesRun } from './loaded-store.js';

/**
 * PostgreSQL's date ranges in id order walk for their page within the matches' id span, which the
 * count answers from the same index-only scan (list-query.ts, `IdSpan`): the store's lists answer
 * the plain query's rows, order and total, whether the stamps follow the ids or not, with another
 * tenant's rows interleaved, in both directions, with trashed rows, on pages past the first and
 * past the middle (read from the end).
 */
const { tenants, users, customers } = spanRows();
const fx = loadedStore(loadSpanRows);

/** The matching ids of the plain query, in id order. */
async function matching(table: string, tenant: number, attribute: string, operator: SpanRange, value: string, trashed: boolean): Promise<number[]> {
  const { rows } = await fx.client.query<{ id: string }>(
    `SELECT id FROM ${table} WHERE tenant_id = $1 ${trashed ? '' : 'AND deleted_at IS NULL'} AND ${attribute} ${SPAN_RANGES[operator]} $2 ORDER BY id`,
    [tenant, value],
  );
  return rows.map((r) => Number(r.id));
}

describe('PostgreSQL date ranges within the id span of their matches', () => {
  for (const [table, rows] of [
    ['users', users],
    ['customers', customers],
  ] as const) {
    it(`answers the plain query's rows, order and total for ${table}`, async () => {
      const list = (tenant: number, query: ListQuery) => (table === 'users' ? fx.store.users.list(tenant, query) : fx.store.customers.list(tenant, query));
      for (const tenant of Object.values(tenants)) {
        for (const attribute of ['created_at', 'updated_at'] as const) {
          for (const value of spanProbes(rows, tenant, attribute)) {
            for (const operator of Object.keys(SPAN_RANGES) as SpanRange[]) {
              for (const with_trashed of [false, true]) {
                const all = await matching(table, tenant, attribute, operator, value, with_trashed);
                for (const order_direction of ['asc', 'desc'] as const) {
                  const expected = order_direction === 'asc' ? all : [...all].reverse();
                  const last = Math.max(1, Math.ceil(all.length / 15));
                  for (const page_number of [1, 2, Math.ceil(last / 2), last]) {
                    const query = q({ filter: f(attribute, 'date', operator, value), with_trashed, order_direction, page_size: 15, page_number });
                    const got = await list(tenant, query);
                    expect({ query, total: got.total, ids: got.rows.map((r) => r.id) }).toEqual({ query, total: all.length, ids: expected.slice((page_number - 1) * 15, page_number * 15) });
                  }
                }
              }
            }
          }
        }
      }
      // Over a thousand lists and plain queries: a loaded machine may take longer than the default.
    }, 120_000);
  }

  it("counts the span with the total, and finds a late range's first page in the walk from the span's start, where the tenant's first rows hold none of it", async () => {
    const tenant = tenants.interleaved;
    const value = spanProbes(users, tenant, 'created_at')[1];
    const query = q({ filter: f('created_at', 'date', 'GreaterThan', value), page_size: 15 });
    const all = await matching('users', tenant, 'created_at', 'GreaterThan', value, false);
    const { spanCount, walk } = compileList(USER_LIST_DEF, tenant, query);
    const counted = (await fx.client.query<{ n: string; lo: string; hi: string }>(spanCount!)).rows[0];
    expect(counted).toEqual({ n: String(all.length), lo: String(all[0]), hi: String(all[all.length - 1]) });
    // The tenant's rows before the first match are more than a walk reads.
    expect(users.filter((r) => r.tenant_id === tenant && r.deleted_at === null && r.id < all[0]).length).toBeGreaterThan(WALK_ROWS);
    const walked = async (over: Partial<ListQuery>, span?: { lo: number; hi: number }) => {
      const { walk } = compileList(USER_LIST_DEF, tenant, { ...query, ...over }, all.length, span);
      return (await fx.client.query<{ id: string }>(walk!.page)).rows.map((r) => Number(r.id));
    };
    const span = { lo: all[0], hi: all[all.length - 1] };
    expect(await walked({}, span)).toEqual(all.slice(0, 15));
    expect(await walked({})).toEqual([]);
    // not counted yet, the walk from the tenant's first row finds none either
    expect((await fx.client.query(walk!.page)).rows).toEqual([]);
    expect(await walked({ order_direction: 'desc' }, span)).toEqual([...all].reverse().slice(0, 15));
    expect(await walked({ page_number: 3 }, span)).toEqual(all.slice(30, 45));
  });

  it("counts a late range with its id span after a walk from the tenant's first row fell short, and walks from the first match; an early range's walk answers before a plain count", async () => {
    const other = await openPostgresStore(fx.url);
    try {
      const sent: string[] = [];
      other.lists.pool.on('connect', (connection) => {
        const original = connection.query.bind(connection) as (...args: unknown[]) => unknown;
        (connection as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
          const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
          if (text) sent.push(text);
          return original(...args);
        };
      });
      const tenant = tenants.interleaved;
      const [early, , late] = spanProbes(users, tenant, 'created_at');
      const listed = async (operator: 'GreaterThan' | 'LessThan', value: string) => {
        const query = q({ filter: f('created_at', 'date', operator, value), page_size: 15 });
        sent.length = 0;
        const got = await other.users.list(tenant, query);
        const all = await matching('users', tenant, 'created_at', operator, value, false);
        expect({ total: got.total, ids: got.rows.map((r) => r.id) }).toEqual({ total: all.length, ids: all.slice(0, 15) });
        return {
          counts: sent.filter((t) => t.startsWith('WITH z AS')).map((t) => (t.includes('bound AS') ? 'span' : 'plain')),
          walks: sent.filter((t) => t.includes('AS walked')).map((t) => (t.includes('BETWEEN') ? 'in span' : 'from the first row')),
          sorted: sent.some((t) => t.includes('AS matched')),
        };
      };
      expect(await listed('GreaterThan', late)).toEqual({ counts: ['span'], walks: ['from the first row', 'in span'], sorted: false });
      expect(await listed('LessThan', early)).toEqual({ counts: ['plain'], walks: ['from the first row'], sorted: false });
      // counted, with its span: the walk from the first match at once
      expect(await listed('GreaterThan', late)).toEqual({ counts: [], walks: ['in span'], sorted: false });
    } finally {
      await other.close();
    }
  });

  it('counts a range from the smaller side of its instant: exact totals with NULL stamps, trashed rows and with_trashed; a span only where no match lies among the other side', async () => {
    const operators = Object.keys(SPAN_RANGES) as SpanRange[];
    let unspanned = 0;
    for (const [table, rows, def] of [
      ['users', users, USER_LIST_DEF],
      ['customers', customers, PG_CUSTOMER_LIST_DEF],
    ] as const) {
      for (const tenant of Object.values(tenants)) {
        // deleted_at: NULL on live rows, one stamp on every 13th
        const probes = {
          created_at: spanProbes(rows, tenant, 'created_at'),
          updated_at: spanProbes(rows, tenant, 'updated_at'),
          deleted_at: ['2025-01-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
        };
        for (const [attribute, values] of Object.entries(probes)) {
          for (const value of values) {
            for (const operator of operators) {
              for (const with_trashed of [false, true]) {
                const all = await matching(table, tenant, attribute, operator, value, with_trashed);
                const { count, spanCount } = compileList(def, tenant, q({ filter: f(attribute, 'date', operator, value), with_trashed }));
                const counted = (await fx.client.query<{ n: string }>(count)).rows[0];
                const spanned = (await fx.client.query<{ n: string; lo: string | null; hi: string | null }>(spanCount!)).rows[0];
                const at = { table, tenant, attribute, value, operator, with_trashed };
                expect({ ...at, n: Number(counted.n), spanned: Number(spanned.n) }).toEqual({ ...at, n: all.length, spanned: all.length });
                if (spanned.lo === null || spanned.hi === null) {
                  if (all.length > 0) unspanned++;
                } else if (all.length > 0) {
                  expect({ ...at, lo: Number(spanned.lo) <= all[0], hi: Number(spanned.hi) >= all[all.length - 1] }).toEqual({ ...at, lo: true, hi: true });
                }
              }
            }
          }
        }
      }
    }
    // the shuffled tenant's and the imported rows' stamps do not follow the ids
    expect(unspanned).toBeGreaterThan(0);
  }, 120_000);

  it('counts the other side when the matches are the larger, and answers the span past it when the stamps follow the ids (bounds that tell nothing: the fallback of the count from the stamp bounds)', async () => {
    const tenant = tenants.other;
    await fx.client.query('BEGIN');
    await fx.client.query("UPDATE list_counts SET min_created_at = '', max_created_at = '~'");
    const own = users.filter((r) => r.tenant_id === tenant && r.deleted_at === null);
    const [early, , late] = spanProbes(users, tenant, 'created_at');
    const cases = [
      ['GreaterThan', early, { direct: false, other: true }],
      ['LessThan', late, { direct: false, other: true }],
      ['GreaterThan', late, { direct: true, other: false }],
      ['LessThan', early, { direct: true, other: false }],
    ] as const;
    for (const [operator, value, sides] of cases) {
      const all = await matching('users', tenant, 'created_at', operator, value, false);
      const { spanCount } = compileList(USER_LIST_DEF, tenant, q({ filter: f('created_at', 'date', operator, value) }));
      expect({ operator, value, sides: await sidesRun(fx.client, spanCount!) }).toEqual({ operator, value, sides });
      const counted = (await fx.client.query<{ n: string; lo: string; hi: string }>(spanCount!)).rows[0];
      // counted from the matches, their first and last ids; from the other side, the ids past its last (before its first) up to the tenant's last (from its first)
      const others = own.filter((r) => !all.includes(r.id)).map((r) => r.id);
      const span = !sides.other ? [all[0], all[all.length - 1]] : operator === 'GreaterThan' ? [others[others.length - 1] + 1, own[own.length - 1].id] : [own[0].id, others[0] - 1];
      expect({ operator, counted }).toEqual({ operator, counted: { n: String(all.length), lo: String(span[0]), hi: String(span[1]) } });
    }
    await fx.client.query('ROLLBACK');
  });

  it('counts index-only, and walks by id within the span', async () => {
    // a late instant: its few matches are what the planner reads through the created_at index at this size, as it does at a million
    const query = q({ filter: f('created_at', 'date', 'GreaterThan', '2024-01-08T23:00:00.000Z'), page_size: 15 });
    const plan = async (statement: { text: string; values: unknown[] }) => {
      await fx.client.query('BEGIN');
      try {
        await fx.client.query('SET LOCAL enable_seqscan = off');
        await fx.client.query('SET LOCAL enable_bitmapscan = off');
        const { rows } = await fx.client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${statement.text}`, values: statement.values });
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await fx.client.query('ROLLBACK');
      }
    };
    for (const [def, index] of [
      [USER_LIST_DEF, 'users'],
      [PG_CUSTOMER_LIST_DEF, 'customers'],
    ] as const) {
      const c = compileList(def, tenants.interleaved, query, 1000, { lo: 5000, hi: 9000 });
      // counted from either side of the instant (range-count.ts); the late instant's matches through the stamp's index
      expect(c.count.text).toMatch(/^WITH z AS MATERIALIZED .* est AS MATERIALIZED .* direct AS MATERIALIZED \(SELECT count\(\*\) AS n FROM/s);
      expect(c.spanCount!.text).toMatch(/direct AS MATERIALIZED \(SELECT count\(\*\) AS n, min\([uc]\.id\) AS lo, max\([uc]\.id\) AS hi FROM/);
      const counting = await plan(c.spanCount!);
      expect(counting).toMatch(new RegExp(`CTE direct\\n[^\\n]*\\n(\\s+->[^\\n]*\\n)*?\\s+->\\s+(Parallel )?Index Only Scan using ${index}_created on`));
      // from the bounds: the straddling rows between the instant and their farthest bound, through the same index
      expect(counting).toMatch(new RegExp(`Index (Only )?Scan using ${index}_created on [^\\n]+\\n\\s+Index Cond: \\([^\\n]*\\(created_at > '[^']+'::text\\) AND \\(created_at <= \\(InitPlan`));
      // the span bounds the index scan (the tenant index's or the primary key's, as the planner likes), not a filter after it
      expect(await plan(c.walk!.page)).toMatch(new RegExp(`Index Scan using ${index}_(tenant|pkey) on [^\\n]+\\n\\s+Index Cond: \\([^\\n]*\\(id >= '5000'::bigint\\) AND \\(id <= '9000'::bigint\\)\\)`));
    }
    // no span for anything else: an Equal, another order, a short Contains
    for (const over of [{ filter: f('created_at', 'date', 'Equal', '2024-01-01T00:00:00.000Z') }, { order_by: 'created_at' }, { filter: f('last_name', 'text', 'Contains', 'a') }]) {
      expect(compileList(USER_LIST_DEF, 1, { ...query, ...over }).spanCount).toBeUndefined();
    }
  });
});
