import type pg from 'pg';
import { CUSTOMER_TEXTS } from './customer-texts.js';
import { fold } from './folded.js';
import { CUSTOMER_EMAILS, USER_NAMES } from './folded-texts.js';
import { MIGRATION_LOCK } from './migrate.js';

/**
 * The trigram (pg_trgm) GIN indexes answering `Contains` on text attributes whose values are
 * many and varied: a substring of 3 or more characters then reads only the rows holding its
 * trigrams instead of every row of the tenant. Each is on exactly the folded expression the list
 * compiler writes (see `fold`; `LIKE` on it is what pg_trgm's `gin_trgm_ops` serves), or on a
 * table of folded texts (folded-texts.ts). They are not part of the numbered migrations because
 * pg_trgm may be missing from a user's own PostgreSQL: lists then work without them, only slower
 * (see `TRIGRAM_MISSING`).
 */
export const TRIGRAM_INDEXES: ReadonlyArray<{ name: string; table: string; expr: string }> = [
  { name: 'users_email_trgm', table: 'users', expr: fold('email') },
  { name: 'user_names_first_name_trgm', table: USER_NAMES.table, expr: 'first_name' },
  { name: 'user_names_last_name_trgm', table: USER_NAMES.table, expr: 'last_name' },
  { name: 'customer_emails_email_trgm', table: CUSTOMER_EMAILS.table, expr: 'email' },
  { name: 'customers_first_name_trgm', table: 'customers', expr: fold('first_name') },
  { name: 'customers_last_name_trgm', table: 'customers', expr: fold('last_name') },
  { name: 'customer_texts_address_trgm', table: CUSTOMER_TEXTS, expr: 'address' },
  { name: 'customer_texts_city_country_trgm', table: CUSTOMER_TEXTS, expr: 'city_country' },
];

/** What `serve` says when the database has no pg_trgm (and confctl may not create it). */
export const TRIGRAM_MISSING =
  "PostgreSQL's pg_trgm extension is not available to this database, so list filters with Contains read every row of the tenant " +
  '(slow for large tenants; results are the same). Install it (the postgresql-contrib package on most systems) and run ' +
  "CREATE EXTENSION pg_trgm; in this database as its owner or a superuser, then restart confctl: it adds its trigram indexes then.";

/**
 * Whether pg_trgm and every trigram index are there, in one catalog read: no lock, no DDL. An open
 * that finds them (every open after the first) skips `ensureTrigramIndexes`, whose `CREATE INDEX
 * IF NOT EXISTS` takes a SHARE lock on each table, holding back writers while it runs.
 */
export async function trigramIndexesPresent(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ ready: boolean }>(
    `SELECT EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_trgm')
       AND (SELECT count(*) FROM pg_class WHERE relkind = 'i' AND relname = ANY($1) AND relnamespace = current_schema()::regnamespace) = $2 AS ready`,
    [TRIGRAM_INDEXES.map((i) => i.name), TRIGRAM_INDEXES.length],
  );
  return rows[0].ready;
}

/**
 * Creates pg_trgm in the database if it is not there (PostgreSQL 13 and later let the database's
 * owner, or a user with CREATE on it, create this trusted extension) and then any missing trigram
 * index; answers whether the extension is there. A server without the extension, or a user who
 * may not create it, answers false and changes nothing. Runs in a transaction of its own under the
 * migrations' advisory lock, so instances starting together build each index once.
 */
export async function ensureTrigramIndexes(client: pg.ClientBase): Promise<boolean> {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    const { rows } = await client.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'");
    if (!rows.length) {
      try {
        await client.query('CREATE EXTENSION pg_trgm');
      } catch {
        await client.query('ROLLBACK');
        return false;
      }
    }
    for (const i of TRIGRAM_INDEXES) await client.query(`CREATE INDEX IF NOT EXISTS ${i.name} ON ${i.table} USING gin ((${i.expr}) gin_trgm_ops)`);
    await client.query('COMMIT');
    return true;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
