import type pg from 'pg';
import type { Queryable } from './pool.js';
import { PG_MIGRATIONS, type PgMigration } from './schema.js';

/** The schema version this code writes. */
export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;

/** The advisory lock serialising migrations: 'confctl' in ASCII, a key no other user is likely to take. */
export const MIGRATION_LOCK = 0x636f6e6663746cn;

/**
 * The schema version the database holds, read without a lock or DDL; undefined before the first
 * migration (no `confctl_schema`). For the fast path of an open: a version that is not the
 * current one still goes through `migrate`, which decides under the lock.
 */
export async function schemaVersion(db: Queryable): Promise<number | undefined> {
  if (!(await schemaTablePresent(db))) return undefined;
  return (await db.query<{ version: number }>('SELECT version FROM confctl_schema')).rows[0]?.version;
}

/** Whether the database has confctl's schema table, read without creating it. */
export async function schemaTablePresent(db: Queryable): Promise<boolean> {
  return (await db.query<{ present: boolean }>("SELECT to_regclass('confctl_schema') IS NOT NULL AS present")).rows[0].present;
}

/**
 * Brings the schema up to date in one transaction: every pending migration and the version bump
 * commit together or not at all. The transaction first takes an advisory lock held to its end, so
 * processes starting at once migrate one after the other, and each later one reads the version
 * its predecessor committed and finds nothing to do. A database of a newer version is refused.
 * `client` must not be inside a transaction; `migrations` is replaceable for tests only.
 */
export async function migrate(client: pg.ClientBase, migrations: readonly PgMigration[] = PG_MIGRATIONS): Promise<void> {
  const latest = migrations[migrations.length - 1].version;
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query('CREATE TABLE IF NOT EXISTS confctl_schema (version integer NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM confctl_schema');
    const current = rows[0]?.version ?? 0;
    if (current > latest) throw new Error(`Database schema version ${current} is newer than this confctl (${latest}).`);
    if (current < latest) {
      for (const m of migrations) if (m.version > current) await client.query(m.sql);
      if (rows.length === 0) await client.query('INSERT INTO confctl_schema (version) VALUES ($1)', [latest]);
      else await client.query('UPDATE confctl_schema SET version = $1', [latest]);
    }
    await client.query('COMMIT');
  } catch (err) {
    // The migration's error is the one to report, even when the connection is gone too.
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
