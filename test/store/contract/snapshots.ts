import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { DataStore } from '../../../src/store/port.js';
import { NOT_IN_SNAPSHOTS, SNAPSHOT_TABLES, SnapshotError } from '../../../src/store/snapshots.js';
import { asPostgres, eachStore, type Fixture, fixture, q, type StoreFactory } from './fixtures.js';

const FILES = [
  { path: 'recordings/rec-1.wav', content: Buffer.from([0, 1, 2, 255]) },
  { path: 'recordings/nested/b.mp4', content: Buffer.from('bytes') },
];

/** The store's own tables (not the database engine's). */
async function tablesOf(store: DataStore): Promise<string[]> {
  if (store.backend === 'sqlite') return sqliteTables(store.location);
  const { rows } = await asPostgres(store).pool.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
  );
  return rows.map((r) => r.table_name);
}

/** The tables of the SQLite database at `file` (virtual ones too, not their shadow tables), read on a connection of its own. */
function sqliteTables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").pluck().all() as string[];
  } finally {
    db.close();
  }
}

const rejection = async (work: () => unknown) => {
  try {
    await work();
  } catch (err) {
    return err instanceof SnapshotError ? err.kind : err;
  }
  return 'resolved';
};

/**
 * `DataStore.snapshots` (store/snapshots.ts): a restore puts back every snapshot table as it was
 * saved, in one transaction that every cache and every other connection notices. Only stores
 * whose database outlives them (a file, a PostgreSQL database) keep snapshots.
 */
export function snapshotContract(factory: StoreFactory) {
  describe.skipIf(!factory.attach)(`${factory.name}: snapshots`, () => {
    let store: DataStore;
    let fx: Fixture;
    eachStore(factory, async (s) => {
      store = s;
      fx = await fixture(store);
    });

    it('classifies every table of the schema: in snapshots, or left alone for a stated reason', async () => {
      const tables = await tablesOf(store);
      const unclassified = tables.filter((t) => !(SNAPSHOT_TABLES as readonly string[]).includes(t) && !(t in NOT_IN_SNAPSHOTS));
      expect(unclassified).toEqual([]);
      for (const t of SNAPSHOT_TABLES) expect(tables).toContain(t);
    });

    it('restores every tenant as saved, moving the change tokens, and later ids continue after the restored ones', async () => {
      await store.webhookDestinations.create({ tenant_id: fx.a, url: 'http://127.0.0.1:9/hook', events: null, secret: 's'.repeat(32) });
      await store.webhookOutbox.enqueue(fx.a, 'events.created', { id: 1, calendar_id: 1 });
      const saved = await store.snapshots.save('base', FILES, '2026-01-01T00:00:00.000Z', false);
      expect(saved).toMatchObject({ name: 'base', created_at: '2026-01-01T00:00:00.000Z', media_files: 2 });
      const before = {
        users: await store.users.list(fx.a, q({ with_trashed: true })),
        others: await store.users.list(fx.b, q()),
        customers: await store.customers.list(fx.a, q({ with_trashed: true })),
        tenants: await store.tenants.list(),
        keys: await store.keys.list(),
        deliveries: await store.webhookOutbox.list({ limit: 100 }),
      };

      await store.tenants.create('later.example');
      const key = await store.keys.create({ tenant_id: fx.a, name: 'later', permissions: ['*'] });
      await store.users.update(fx.a, fx.users.lovelace.id, { last_name: 'Changed' });
      const added = await store.customers.insert(fx.a, { first_name: 'New', last_name: 'Row', email: 'new@c.example' });
      await store.webhookOutbox.enqueue(fx.a, 'events.updated', { id: 1, calendar_id: 1 });
      const tokens = [await store.changeToken(), await store.tenancyToken()];

      const { info, files } = await store.snapshots.restore('base');
      expect(info).toMatchObject({ name: 'base', media_files: 2 });
      expect(files).toEqual(FILES.slice().sort((x, y) => x.path.localeCompare(y.path)));
      expect(await store.changeToken()).not.toBe(tokens[0]);
      expect(await store.tenancyToken()).not.toBe(tokens[1]);
      expect(await store.users.list(fx.a, q({ with_trashed: true }))).toEqual(before.users);
      expect(await store.users.list(fx.b, q())).toEqual(before.others);
      expect(await store.customers.list(fx.a, q({ with_trashed: true }))).toEqual(before.customers);
      expect(await store.tenants.list()).toEqual(before.tenants);
      expect(await store.keys.get(key.record.id)).toBeUndefined();
      expect(await store.keys.list()).toEqual(before.keys);
      expect(await store.webhookOutbox.list({ limit: 100 })).toEqual(before.deliveries);

      const again = await store.customers.insert(fx.a, { first_name: 'After', last_name: 'Restore', email: 'after@c.example' });
      expect(again.id).toBe(added.id);
      expect((await store.customers.get(fx.a, again.id))?.email).toBe('after@c.example');
    });

    it('another connection on the database sees the restored rows on its next read, its list totals included', async () => {
      const other = await factory.attach!(store);
      try {
        await store.snapshots.save('base', [], '2026-01-01T00:00:00.000Z', false);
        const total = (await other.customers.list(fx.a, q())).total;
        await other.customers.insert(fx.a, { first_name: 'Extra', last_name: 'Row', email: 'extra@c.example' });
        expect((await other.customers.list(fx.a, q())).total).toBe(total + 1);
        expect((await store.customers.list(fx.a, q())).total).toBe(total + 1);
        await store.snapshots.restore('base');
        expect((await other.customers.list(fx.a, q())).total).toBe(total);
        expect(await other.customers.findByEmail(fx.a, 'extra@c.example')).toBeUndefined();
        expect((await other.snapshots.list()).map((s) => s.name)).toEqual(['base']);
      } finally {
        await other.close();
      }
    });

    it('lists, replaces only when asked, deletes', async () => {
      expect(await store.snapshots.list()).toEqual([]);
      await store.snapshots.save('b', [], '2026-01-02T00:00:00.000Z', false);
      await store.snapshots.save('a.1', FILES, '2026-01-01T00:00:00.000Z', false);
      expect(await rejection(() => store.snapshots.save('b', FILES, '2026-01-03T00:00:00.000Z', false))).toBe('exists');
      expect((await store.snapshots.list()).map((s) => [s.name, s.media_files, s.created_at])).toEqual([
        ['a.1', 2, '2026-01-01T00:00:00.000Z'],
        ['b', 0, '2026-01-02T00:00:00.000Z'],
      ]);
      await store.snapshots.save('b', FILES, '2026-01-03T00:00:00.000Z', true);
      expect((await store.snapshots.list()).find((s) => s.name === 'b')).toMatchObject({ media_files: 2, created_at: '2026-01-03T00:00:00.000Z' });
      expect(await store.snapshots.remove('b')).toBe(true);
      expect(await store.snapshots.remove('b')).toBe(false);
      expect((await store.snapshots.list()).map((s) => s.name)).toEqual(['a.1']);
    });

    it('refuses a bad or unknown name, and a refused file list, before anything changes', async () => {
      await store.snapshots.save('base', FILES, '2026-01-01T00:00:00.000Z', false);
      await store.customers.insert(fx.a, { first_name: 'Kept', last_name: 'Row', email: 'kept@c.example' });
      for (const name of ['../x', 'a/b', '', '.hidden', 'x'.repeat(41), 'a b', 'a\\b']) {
        expect(await rejection(() => store.snapshots.save(name, [], '2026-01-01T00:00:00.000Z', false))).toBe('invalid_name');
        expect(await rejection(() => store.snapshots.restore(name))).toBe('invalid_name');
      }
      expect(await rejection(() => store.snapshots.restore('nope'))).toBe('not_found');
      const refused = await rejection(() =>
        store.snapshots.restore('base', () => {
          throw new Error('refused files');
        }),
      );
      expect(refused).toEqual(new Error('refused files'));
      expect(await store.customers.findByEmail(fx.a, 'kept@c.example')).toBeDefined();
    });
  });
}
