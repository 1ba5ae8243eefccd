import { describe, expect, it } from 'vitest';
import { retryBusy } from '../../../src/server/busy.js';
import { isBusyError } from '../../../src/store/index.js';
import { openPostgresStore } from '../../../src/store/postgres/index.js';
import { connect, migratedDatabase } from './databases.js';

/**
 * A restore while a write is half done: the write holds `customers` (an INSERT takes its lock
 * first) and then needs its foreign key's lock on `tenants`, which the restore, locking the data
 * tables parents first, already holds while it waits for `customers`. PostgreSQL breaks the
 * deadlock by rolling one of them back; that must be the server's busy retry, never a 500.
 */
describe('PostgreSQL snapshot restore meeting a write', () => {
  it('a restore rolled back by a deadlock with a write is busy, and the retry restores the snapshot once the write is done', async () => {
    const env = await migratedDatabase();
    const store = await openPostgresStore(env.db.url);
    const writer = await connect(env.db.url);
    try {
      const tenant = (await env.client.query<{ id: number }>(`INSERT INTO tenants (created_at) VALUES ('2026-01-01T00:00:00.000Z') RETURNING id`)).rows[0];
      await store.snapshots.save('clean', [], '2026-01-01T00:00:00.000Z', false);
      // The restore's backend, waiting first, is the one that detects the deadlock.
      await writer.query(`SET deadlock_timeout = '60s'`);
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE customers IN ROW EXCLUSIVE MODE');
      const restore = Promise.resolve(store.snapshots.restore('clean')).then(
        () => undefined,
        (err: unknown) => err,
      );
      await waitForLockWait(env.client, 'customers');
      const forKey = writer.query('SELECT 1 FROM tenants WHERE id = $1 FOR KEY SHARE', [tenant.id]);
      const err = await restore;
      expect((err as { code?: string }).code).toBe('40P01');
      expect(isBusyError(err)).toBe(true);
      await forKey;
      const retried = retryBusy(() => store.snapshots.restore('clean'), () => 0);
      await waitForLockWait(env.client, 'tenants');
      await writer.query('COMMIT');
      expect((await retried).info.name).toBe('clean');
      expect((await env.client.query('SELECT id FROM tenants')).rows).toEqual([{ id: tenant.id }]);
    } finally {
      await writer.end();
      await store.close();
      await env.close();
    }
  }, 30_000);
});

/** Resolves once some backend waits for a lock on `table`. */
async function waitForLockWait(client: import('pg').Client, table: string): Promise<void> {
  for (;;) {
    const { rows } = await client.query(`SELECT 1 FROM pg_locks WHERE NOT granted AND relation = $1::regclass`, [table]);
    if (rows.length > 0) return;
    await new Promise((done) => setTimeout(done, 10));
  }
}
