import { afterEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { openPostgresStore } from '../../../src/store/postgres/index.js';
import { MIGRATION_LOCK } from '../../../src/store/postgres/migrate.js';
import { TRIGRAM_INDEXES } from '../../../src/store/postgres/trigram.js';
import { createMigratedDatabase, type TestDatabase } from '../../pg/database.js';
import { connect } from './databases.js';

/**
 * Opening a database whose schema and trigram indexes are current only reads it: no migrations'
 * lock, no DDL (whose `CREATE INDEX IF NOT EXISTS` would take a SHARE lock on each table). One
 * that is not current still goes through the migrations and the index builds, under the lock.
 */
describe('opening a current PostgreSQL database', () => {
  const made: TestDatabase[] = [];
  const clients: pg.Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end()));
    await Promise.all(made.splice(0).map((d) => d.drop()));
  });

  async function database(): Promise<{ url: string; other: pg.Client }> {
    const db = await createMigratedDatabase();
    made.push(db);
    await (await openPostgresStore(db.url)).close();
    const other = await connect(db.url);
    clients.push(other);
    return { url: db.url, other };
  }

  /** Answers 'waited' once a session of the database waits on a lock, as the open would behind `other`'s; polls until `settled`. */
  async function lockWait(watch: pg.Client, settled: () => boolean): Promise<string> {
    while (!settled()) {
      const { rows } = await watch.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
      if (rows[0].n > 0) return 'waited';
      await new Promise((next) => setTimeout(next, 10));
    }
    return 'opened';
  }

  it('takes neither the migrations lock nor a table lock', async () => {
    const { url, other } = await database();
    // Another session holds the migrations' lock and a lock that conflicts with SHARE on users.
    await other.query('BEGIN');
    await other.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await other.query('LOCK TABLE users IN ROW EXCLUSIVE MODE');
    const watch = await connect(url);
    clients.push(watch);
    let settled = false;
    const opening = openPostgresStore(url).finally(() => (settled = true));
    const opened = await Promise.race([opening.then(() => 'opened'), lockWait(watch, () => settled)]);
    await other.query('ROLLBACK');
    await (await opening).close();
    expect(opened).toBe('opened');
  });

  it('builds a trigram index that is missing, then opens as before', async () => {
    const { url, other } = await database();
    const [dropped] = TRIGRAM_INDEXES;
    await other.query(`DROP INDEX ${dropped.name}`);
    await (await openPostgresStore(url)).close();
    const { rows } = await other.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_class WHERE relkind = 'i' AND relname = $1", [dropped.name]);
    expect(rows).toEqual([{ n: 1 }]);
  });
});
