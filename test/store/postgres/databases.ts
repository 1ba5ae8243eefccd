/**
 * Databases for the PostgreSQL store's tests: a fresh one per test from the run's server
 * (test/pg), optionally with a locale whose case mapping and order differ from ASCII's, to show
 * that confctl's comparisons do not depend on it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createMigratedDatabase, type TestDatabase } from '../../pg/database.js';
import { migrate } from '../../../src/store/postgres/migrate.js';

async function asAdmin(sql: string): Promise<void> {
  const client = new pg.Client(inject('postgresUrl'));
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A database whose default collation is ICU's `icuLocale` (e.g. `tr-TR`, where `lower('I')` is `ı`). */
export async function createLocaleDatabase(icuLocale: string): Promise<TestDatabase> {
  if (!/^[a-zA-Z-]+$/.test(icuLocale)) throw new Error(`Bad locale ${icuLocale}`);
  const name = `confctl_test_${randomBytes(6).toString('hex')}`;
  await asAdmin(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE '${icuLocale}' LOCALE 'C'`);
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client(url);
  await client.connect();
  return client;
}

/**
 * A fresh database with confctl's schema, and a client on it; `close` drops both. With `icuLocale`
 * the database is of that locale and migrated here; otherwise it is a copy of the run's template.
 */
export async function migratedDatabase(icuLocale?: string): Promise<{ db: TestDatabase; client: pg.Client; close: () => Promise<void> }> {
  const db = icuLocale ? await createLocaleDatabase(icuLocale) : await createMigratedDatabase();
  const client = await connect(db.url);
  if (icuLocale) await migrate(client);
  return {
    db,
    client,
    close: async () => {
      await client.end();
      await db.drop();
    },
  };
}
