import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, PG_SCHEMA_VERSION } from '../../../src/store/postgres/migrate.js';
import { PG_MIGRATIONS, resetSequences } from '../../../src/store/postgres/schema.js';
import { createTestDatabase, type TestDatabase } from '../../pg/database.js';
import { connect } from './databases.js';
import { BUCKET_BITS } from '../../../src/store/list-counts.js';

const BUCKET = 1 << BUCKET_BITS;

const opened: pg.Client[] = [];
const made: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.end()));
  await Promise.all(made.splice(0).map((d) => d.drop()));
});

async function fresh(clients = 1): Promise<pg.Client[]> {
  const db = await createTestDatabase();
  made.push(db);
  const list = await Promise.all(Array.from({ length: clients }, () => connect(db.url)));
  opened.push(...list);
  return list;
}

const version = async (c: pg.Client) => (await c.query<{ version: number }>('SELECT version FROM confctl_schema')).rows;
const exists = async (c: pg.Client, table: string) =>
  (await c.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [table])).rows[0].t !== null;

describe('PostgreSQL migrations', () => {
  it('brings a fresh database to the current version, and is a no-op once there', async () => {
    const [c] = await fresh();
    await migrate(c);
    expect(await version(c)).toEqual([{ version: PG_SCHEMA_VERSION }]);
    expect(PG_SCHEMA_VERSION).toBe(PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version);
    await c.query("INSERT INTO tenants (created_at) VALUES ('2025-01-01T00:00:00.000Z')");
    await migrate(c);
    expect(await version(c)).toEqual([{ version: PG_SCHEMA_VERSION }]);
    expect((await c.query('SELECT count(*)::int AS n FROM tenants')).rows).toEqual([{ n: 1 }]);
  });

  it('migrates exactly once when five processes start at once', async () => {
    const clients = await fresh(5);
    await Promise.all(clients.map((c) => migrate(c)));
    expect(await version(clients[0])).toEqual([{ version: PG_SCHEMA_VERSION }]);

    // A migration that takes a while and counts its runs: the others wait for it, then skip it.
    const counted = [{ version: 1, name: 'counted', sql: 'SELECT pg_sleep(0.2); CREATE TABLE IF NOT EXISTS runs (n int); INSERT INTO runs VALUES (1);' }];
    const others = await fresh(5);
    await Promise.all(others.map((c) => migrate(c, counted)));
    expect((await others[0].query('SELECT count(*)::int AS n FROM runs')).rows).toEqual([{ n: 1 }]);
    expect(await version(others[0])).toEqual([{ version: 1 }]);
  });

  it('rolls a failing migration back whole, with every other pending one and the version', async () => {
    const [c] = await fresh();
    const one = { version: 1, name: 'one', sql: 'CREATE TABLE one (x int);' };
    await expect(migrate(c, [one, { version: 2, name: 'bad', sql: 'CREATE TABLE two (x int); SELECT 1/0;' }])).rejects.toThrow(/division by zero/);
    expect(await exists(c, 'one')).toBe(false);
    expect(await exists(c, 'confctl_schema')).toBe(false);

    await migrate(c, [one]);
    const pending = [one, { version: 2, name: 'two', sql: 'CREATE TABLE two (x int);' }, { version: 3, name: 'bad', sql: 'CREATE TABLE three (x int); SELECT 1/0;' }];
    await expect(migrate(c, pending)).rejects.toThrow(/division by zero/);
    expect(await version(c)).toEqual([{ version: 1 }]);
    expect([await exists(c, 'one'), await exists(c, 'two'), await exists(c, 'three')]).toEqual([true, false, false]);
    // The client is left outside any transaction, ready for the corrected list.
    await migrate(c, pending.slice(0, 2));
    expect(await version(c)).toEqual([{ version: 2 }]);
  });

  it('refuses a database of a newer version and changes nothing', async () => {
    const [c] = await fresh();
    await migrate(c);
    await c.query('UPDATE confctl_schema SET version = $1', [PG_SCHEMA_VERSION + 1]);
    await expect(migrate(c)).rejects.toThrow(`Database schema version ${PG_SCHEMA_VERSION + 1} is newer than this confctl (${PG_SCHEMA_VERSION}).`);
    expect(await version(c)).toEqual([{ version: PG_SCHEMA_VERSION + 1 }]);
  });

  it('migration 7 counts the rows of a version-6 database per id bucket in place, and its triggers keep them', async () => {
    const [c] = await fresh();
    await migrate(c, PG_MIGRATIONS.filter((m) => m.version <= 6));
    // Two tenants' customers interleaved over several buckets, some soft-deleted.
    await c.query(`INSERT INTO tenants (id, created_at) VALUES (1, 'x'), (2, 'x');
      INSERT INTO customers (id, tenant_id, first_name, last_name, email, created_at, updated_at, deleted_at)
      SELECT i, 1 + (i % 9 = 0)::int, 'F', 'L', 'c' || i || '@x.example', 'x', 'x', CASE WHEN i % 4 = 0 THEN 'x' END FROM generate_series(1, 3 * ${BUCKET} + 500) AS i;`);
    await migrate(c);
    expect(await version(c)).toEqual([{ version: PG_SCHEMA_VERSION }]);
    const perBucket = async () => [
      (await c.query("SELECT tenant_id, bucket, live, trashed FROM list_counts WHERE list = 'customers' AND (live <> 0 OR trashed <> 0) ORDER BY 1, 2")).rows,
      (await c.query(`SELECT tenant_id, id >> ${BUCKET_BITS} AS bucket, count(*) - count(deleted_at) AS live, count(deleted_at) AS trashed FROM customers GROUP BY 1, 2 ORDER BY 1, 2`)).rows,
    ];
    const [counters, rows] = await perBucket();
    expect(counters).toEqual(rows);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    // The triggers, kept, add to the buckets now: an insert, a soft delete, a move to another tenant, a hard delete.
    await c.query(`INSERT INTO customers (id, tenant_id, first_name, last_name, email, created_at, updated_at) VALUES (${5 * BUCKET}, 1, 'F', 'L', 'new@x.example', 'x', 'x')`);
    await c.query(`UPDATE customers SET deleted_at = 'y' WHERE id BETWEEN 5 AND ${BUCKET + 5} AND deleted_at IS NULL`);
    await c.query(`UPDATE customers SET tenant_id = 2 WHERE id % 7 = 0`);
    await c.query(`DELETE FROM customers WHERE id % 11 = 0`);
    const [after, recounted] = await perBucket();
    expect(after).toEqual(recounted);
    expect(after).not.toEqual(counters);
  });

  it('sets every identity sequence past the largest copied id', async () => {
    const [c] = await fresh();
    await migrate(c);
    await c.query("INSERT INTO tenants (id, created_at) VALUES (41, 'x'), (7, 'x')");
    await c.query("INSERT INTO roles (id, tenant_id, name, created_at) VALUES (1000, 41, 'Admin', 'x')");
    await resetSequences(c);
    const next = async (sql: string) => Number((await c.query<{ id: string }>(`${sql} RETURNING id`)).rows[0].id);
    expect(await next("INSERT INTO tenants (created_at) VALUES ('x')")).toBe(42);
    expect(await next("INSERT INTO roles (tenant_id, name, created_at) VALUES (41, 'Member', 'x')")).toBe(1001);
    expect(await next("INSERT INTO providers (name, created_at) VALUES ('zoom', 'x')")).toBe(1);
    // Every table with an integer id has an identity column, and so a sequence that was reset.
    const identities = await c.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES' AND column_name = 'id' ORDER BY 1",
    );
    expect(identities.rows.map((r) => r.table_name)).toEqual([
      'calendars',
      'conference_accounts',
      'conference_attendees',
      'conferences',
      'connected_accounts',
      'customers',
      'departments',
      'event_attendees',
      'events',
      'fault_rules',
      'invitations',
      'meeting_links',
      'providers',
      'recordings',
      'roles',
      'tenants',
      'users',
      'webhook_attempts',
      'webhook_deliveries',
    ]);
  });
});
