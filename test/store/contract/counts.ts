import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { seedBulk } from '../../../src/admin/seed/index.js';
import { BUCKET_BITS, COUNTED_TABLES, highest, lowest, STAMPS } from '../../../src/store/list-counts.js';
import { openStore } from '../../../src/store/index.js';
import type { DataStore } from '../../../src/store/port.js';
import { conferenceWorld } from './conferences.js';
import { asPostgres, eachStore, type Fixture, fixture, q, type StoreFactory } from './fixtures.js';

/**
 * SQL on the store's database, on a connection of its own (another process, as an admin command
 * beside `serve`): statements no port method writes, such as a hard delete.
 */
export async function sql(store: DataStore, text: string): Promise<Record<string, unknown>[]> {
  if (store.backend === 'postgres') return (await asPostgres(store).pool.query(text)).rows;
  const db = new Database(store.location);
  try {
    const statement = db.prepare(text);
    if (statement.reader) return statement.all() as Record<string, unknown>[];
    statement.run();
    return [];
  } finally {
    db.close();
  }
}

/** `admin seed` beside `store`: SQLite's bulk loader runs on a store of its own (a store whose lists run on read workers cannot load). */
export async function bulkSeed(store: DataStore, tenant: number, counts: { users: number; customers: number }) {
  if (store.backend === 'postgres') return seedBulk(store, tenant, counts);
  const own = openStore(store.location);
  try {
    return await seedBulk(own, tenant, counts);
  } finally {
    await own.close();
  }
}

/**
 * Per tenant, counted table and id bucket, as `tenant/table/bucket live trashed`: the counter rows
 * that count any row, or COUNT(*) of the rows.
 */
export async function bucketCounters(store: DataStore, from: 'counters' | 'rows'): Promise<string[]> {
  const text =
    from === 'counters'
      ? 'SELECT tenant_id, list, bucket, live, trashed FROM list_counts WHERE live <> 0 OR trashed <> 0'
      : COUNTED_TABLES.map(
          (t) => `SELECT tenant_id, '${t}' AS list, id >> ${BUCKET_BITS} AS bucket, count(*) - count(deleted_at) AS live, count(deleted_at) AS trashed FROM ${t} GROUP BY tenant_id, id >> ${BUCKET_BITS}`,
        ).join(' UNION ALL ');
  return (await sql(store, text)).map((r) => `${String(r.tenant_id)}/${String(r.list)}/${String(r.bucket)} ${String(r.live)} ${String(r.trashed)}`).sort();
}

/**
 * The buckets holding a row whose stamp lies outside its counter row's bounds (store/stamp-bounds.ts),
 * as `tenant/table/bucket`: none, whatever was written.
 */
export async function boundsBroken(store: DataStore): Promise<string[]> {
  const rows = COUNTED_TABLES.map(
    (t) => `SELECT tenant_id, '${t}' AS list, id >> ${BUCKET_BITS} AS bucket, ${STAMPS.map((s) => `min(${s}) AS ${lowest(s)}, max(${s}) AS ${highest(s)}`).join(', ')} FROM ${t} GROUP BY tenant_id, id >> ${BUCKET_BITS}`,
  );
  const holds = STAMPS.map((s) => `c.${lowest(s)} <= r.${lowest(s)} AND c.${highest(s)} >= r.${highest(s)}`).join(' AND ');
  const text = `SELECT r.tenant_id, r.list, r.bucket FROM (${rows.join(' UNION ALL ')}) AS r
    LEFT JOIN list_counts c ON c.tenant_id = r.tenant_id AND c.list = r.list AND c.bucket = r.bucket WHERE c.bucket IS NULL OR NOT (${holds})`;
  return (await sql(store, text)).map((r) => `${String(r.tenant_id)}/${String(r.list)}/${String(r.bucket)}`);
}

/** Per tenant and counted table, as `tenant/table live trashed`: COUNT(*) of the rows. */
async function counters(store: DataStore): Promise<string[]> {
  const text = COUNTED_TABLES.map((t) => `SELECT tenant_id, '${t}' AS list, count(*) - count(deleted_at) AS live, count(deleted_at) AS trashed FROM ${t} GROUP BY tenant_id`).join(' UNION ALL ');
  return (await sql(store, text)).map((r) => `${String(r.tenant_id)}/${String(r.list)} ${String(r.live)} ${String(r.trashed)}`).sort();
}

/**
 * The list counters (store/list-counts.ts): after each kind of write, by the port or by SQL of
 * another connection, they equal COUNT(*) of the rows per id bucket, and the unfiltered totals they answer equal
 * the rows a full walk finds. Needs a second connection to the database, so not `:memory:`.
 */
export function countContract(factory: StoreFactory) {
  describe.skipIf(!factory.attach)(`${factory.name}: list counters`, () => {
    let store: DataStore;
    let fx: Fixture;
    eachStore(factory, async (s) => {
      store = s;
      fx = await fixture(store);
    });

    /** The counters are COUNT(*) per bucket, their stamp bounds hold the rows' stamps, and each tenant's unfiltered totals (live, and with trashed) are the rows'. */
    async function expectExact(): Promise<string[]> {
      expect(await bucketCounters(store, 'counters')).toEqual(await bucketCounters(store, 'rows'));
      expect(await boundsBroken(store)).toEqual([]);
      const rows = await counters(store);
      const counted = (tenant: number, table: string) => rows.find((r) => r.startsWith(`${tenant}/${table} `))?.split(' ').slice(1).map(Number) ?? [0, 0];
      for (const tenant of [fx.a, fx.b]) {
        for (const with_trashed of [false, true]) {
          const totals = [
            (await store.users.list(tenant, q({ with_trashed }))).total,
            (await store.customers.list(tenant, q({ with_trashed }))).total,
            (await store.conferences.list(tenant, q({ with_trashed }))).total,
          ];
          expect(totals).toEqual(COUNTED_TABLES.map((t) => counted(tenant, t)).map(([live, trashed]) => (with_trashed ? live + trashed : live)));
        }
      }
      return rows;
    }

    it('count the rows after inserts, updates, soft deletes, bulk loads, a snapshot restore and SQL writes', async () => {
      expect(await expectExact()).toEqual(
        [`${fx.a}/users 6 1`, `${fx.a}/customers 3 1`, `${fx.b}/users 1 0`, `${fx.b}/customers 1 0`].sort(),
      );
      const world = await conferenceWorld(store, fx);
      await store.users.update(fx.a, fx.users.plain.id, { last_name: 'Renamed' });
      await sql(store, `UPDATE customers SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = ${fx.customers.paris.id}`);
      await store.conferences.softDelete(fx.a, world.conf.id);
      await expectExact();

      await bulkSeed(store, fx.b, { users: 300, customers: 200 });
      const seeded = await expectExact();
      const bUsers = seeded.find((r) => r.startsWith(`${fx.b}/users `))!.split(' ').slice(1).map(Number);
      expect(bUsers[0] + bUsers[1]).toBe(301);

      await store.snapshots.save('counted', [], '2026-01-01T00:00:00.000Z', false);
      await store.customers.insert(fx.a, { first_name: 'After', last_name: 'Save', email: 'after@c.example' });
      await store.snapshots.restore('counted');
      expect(await expectExact()).toEqual(seeded);

      // What no port method writes today: a row back from the trash, moved to another tenant, removed for good.
      await sql(store, `UPDATE users SET deleted_at = NULL WHERE id = ${fx.users.deleted.id}`);
      await sql(store, `UPDATE customers SET tenant_id = ${fx.b} WHERE id = ${fx.customers.none.id}`);
      await sql(store, `UPDATE users SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE tenant_id = ${fx.b}`);
      await sql(store, `DELETE FROM customers WHERE id = ${fx.customers.gone.id}`);
      await sql(store, `UPDATE users SET updated_at = '2099-01-01T00:00:00.000Z', created_at = '1999-01-01T00:00:00.000Z' WHERE id = ${fx.users.plain.id}`);
      expect(await expectExact()).toContain(`${fx.b}/users 0 301`);

      // A tenant removed with its rows leaves no counter behind.
      const gone = (await store.tenants.create('gone.example')).id;
      await store.users.insert(gone, { first_name: 'Short', last_name: 'Lived', email: 'short@gone.example' });
      await sql(store, `DELETE FROM users WHERE tenant_id = ${gone}`);
      await sql(store, `DELETE FROM tenant_domains WHERE tenant_id = ${gone}`);
      await sql(store, `DELETE FROM tenants WHERE id = ${gone}`);
      await expectExact();
      expect(await sql(store, `SELECT * FROM list_counts WHERE tenant_id = ${gone}`)).toEqual([]);
    });
  });
}
