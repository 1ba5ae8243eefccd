/**
 * A database of its own for one test (or test file) on the run's PostgreSQL, so files run in
 * parallel: an empty one, or a copy of the run's migrated template (global-setup.ts), which is
 * about six times cheaper than creating a database and running the migrations.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** The run's server; a clear failure in a project without the PostgreSQL global setup. */
function serverUrl(): string {
  const url = inject('postgresUrl');
  if (!url) {
    throw new Error(
      'This test uses PostgreSQL, but its vitest project has no PostgreSQL: put it where the `pg` project finds it (vitest.config.ts), e.g. name it *postgres*.test.ts.',
    );
  }
  return url;
}

async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(serverUrl());
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function create(clause: string): Promise<TestDatabase> {
  const name = `confctl_test_${randomBytes(6).toString('hex')}`;
  await asAdmin((c) => c.query(`CREATE DATABASE ${name}${clause}`));
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => asAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined) };
}

/** An empty database: no confctl schema. */
export const createTestDatabase = (): Promise<TestDatabase> => create('');

/** A database with confctl's current schema and no rows, copied from the run's template. */
export const createMigratedDatabase = (): Promise<TestDatabase> => create(` TEMPLATE ${inject('postgresTemplate')}`);
