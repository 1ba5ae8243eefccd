/** A database of its own for one test file on the run's PostgreSQL, so files run in parallel. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(inject('postgresUrl'));
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `confctl_test_${randomBytes(6).toString('hex')}`;
  await asAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => asAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined) };
}
