import pg from 'pg';
import { afterAll, afterEach } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../pg/database.js';
import { type AdminFake, adminFake } from './admin-helpers.js';

/**
 * What the `admin … --database` CLI tests share; call it at a test file's top level: it
 * registers the hooks that dispose the fakes after each test and drop the databases after all.
 */
export function adminDatabaseFixture() {
  const made: TestDatabase[] = [];
  const fakes: AdminFake[] = [];
  afterEach(() => fakes.splice(0).forEach((f) => f.dispose()));
  afterAll(() => Promise.all(made.map((d) => d.drop())));

  /** A fresh database's URL with a password (the test server trusts local connections). */
  async function database(): Promise<string> {
    const db = await createTestDatabase();
    made.push(db);
    const url = new URL(db.url);
    url.password = 'hunter2';
    return url.href;
  }
  function admin(env: Record<string, string> = {}): AdminFake {
    const f = adminFake({ env });
    fakes.push(f);
    return f;
  }
  /** Rows of one statement on its own connection. */
  async function query<R extends pg.QueryResultRow = any>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
    const c = new pg.Client(url);
    await c.connect();
    try {
      return (await c.query<R>(text, values)).rows;
    } finally {
      await c.end();
    }
  }
  /** Whether confctl's schema exists in the database (reads must not create it). */
  const schemaExists = async (url: string) => (await query(url, "SELECT to_regclass('confctl_schema') IS NOT NULL AS p"))[0].p as boolean;
  return { database, admin, query, schemaExists };
}
