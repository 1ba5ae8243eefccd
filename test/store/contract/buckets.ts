import { describe, expect, it } from 'vitest';
import { BUCKET_BITS } from '../../../src/store/list-counts.js';
import type { DataStore } from '../../../src/store/port.js';
import { bucketCounters, bulkSeed, sql } from './counts.js';
import { eachStore, type Fixture, fixture, q, type StoreFactory } from './fixtures.js';

const BUCKET = 1 << BUCKET_BITS;

/**
 * Deep pages in id order through the counters' buckets (store/list-counts.ts): for a large tenant
 * whose ids have gaps, whole buckets of another tenant's ids between its own, soft-deleted,
 * restored and hard-deleted rows and emptied buckets, every page (live and with trashed, asc and
 * desc, of sizes that straddle the buckets' edges) holds the rows of a plain `ORDER BY id` query
 * at the same offset, and the counters equal COUNT(*) per bucket. Needs a second connection to the
 * database (the writes of another process), so not `:memory:`.
 */
export function bucketContract(factory: StoreFactory) {
  describe.skipIf(!factory.attach)(`${factory.name}: deep pages through the counters' buckets`, () => {
    let store: DataStore;
    let fx: Fixture;
    eachStore(factory, async (s) => {
      store = s;
      fx = await fixture(store);
    });

    /** The tenant's rows of `table` in id order, as the plain query reads them. */
    const plain = async (table: string, tenant: number, withTrashed: boolean, direction: 'asc' | 'desc') =>
      (await sql(store, `SELECT id FROM ${table} WHERE tenant_id = ${tenant}${withTrashed ? '' : ' AND deleted_at IS NULL'} ORDER BY id ${direction}`)).map((r) => Number(r.id));

    it('answer the rows of the plain query at every offset, whatever the gaps, deletes and other tenants between', async () => {
      // Tenant A's ids in two runs with more than a bucket of tenant B's ids between them; the first run spans whole buckets.
      // Enough rows that the middle pages lie more than a bucket from either end (the walk from a bucket is for those).
      await bulkSeed(store, fx.a, { users: 2 * BUCKET + 800, customers: 2 * BUCKET + 800 });
      await bulkSeed(store, fx.b, { users: BUCKET + 100, customers: BUCKET + 100 });
      await bulkSeed(store, fx.a, { users: 2 * BUCKET, customers: 2 * BUCKET });
      for (const table of ['users', 'customers']) {
        // Soft deletes, some restored; hard deletes leaving gaps, and a whole bucket of A's ids gone (a counter row of zeros).
        await sql(store, `UPDATE ${table} SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE tenant_id = ${fx.a} AND id % 5 = 0`);
        await sql(store, `UPDATE ${table} SET deleted_at = NULL WHERE tenant_id = ${fx.a} AND id % 15 = 0`);
        await sql(store, `DELETE FROM ${table} WHERE tenant_id = ${fx.a} AND (id % 13 = 0 OR id >> ${BUCKET_BITS} = 1)`);
      }
      await store.users.insert(fx.a, { first_name: 'Late', last_name: 'Comer', email: 'late.comer@a.example' });
      await store.customers.insert(fx.a, { first_name: 'Late', last_name: 'Comer', email: 'late.comer@c.example' });
      const counters = await bucketCounters(store, 'counters');
      expect(counters).toEqual(await bucketCounters(store, 'rows'));
      expect(await sql(store, `SELECT live, trashed FROM list_counts WHERE tenant_id = ${fx.a} AND list = 'users' AND bucket = 1`)).toEqual([{ live: 0, trashed: 0 }]);

      const list = { users: (query = q()) => store.users.list(fx.a, query), customers: (query = q()) => store.customers.list(fx.a, query) };
      for (const table of ['users', 'customers'] as const) {
        for (const with_trashed of [false, true]) {
          for (const order_direction of ['asc', 'desc'] as const) {
            const expected = await plain(table, fx.a, with_trashed, order_direction);
            expect(expected.length).toBeGreaterThan(2.2 * BUCKET);
            /** Pages `numbers` of `page_size` rows hold the plain query's rows at their offsets, and its total. */
            const expectPages = async (page_size: number, numbers: number[]) => {
              for (const page_number of numbers) {
                const { rows, total } = await list[table](q({ page_size, page_number, with_trashed, order_direction }));
                const offset = (page_number - 1) * page_size;
                expect({ page_size, page_number, total, ids: rows.map((r) => r.id) }).toEqual({ page_size, page_number, total: expected.length, ids: expected.slice(offset, offset + page_size) });
              }
            };
            // Every third page of a size that does not divide a bucket, to one past the end: no page continues where the last ended.
            const last = Math.ceil(expected.length / 97) + 1;
            await expectPages(97, Array.from({ length: last }, (_, i) => i + 1).filter((p) => p % 3 === 1 || p === last));
            // Around each edge between two buckets of the tenant's rows in this order: single rows, and a page of 7 across it.
            const edges = expected.flatMap((id, i) => (i > 0 && id >> BUCKET_BITS !== expected[i - 1] >> BUCKET_BITS ? [i] : []));
            expect(edges.length).toBeGreaterThanOrEqual(2);
            for (const edge of edges) {
              await expectPages(1, [edge, edge + 1, edge + 2]);
              await expectPages(7, [Math.floor((edge - 3) / 7) + 1]);
            }
          }
        }
      }
    }, 60_000);
  });
}
