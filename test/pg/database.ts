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

/**
 * The connection this process creates and drops its databases on, opened once: a connection per
 * database made and dropped was most of the run's connections (434 of 1,336 in the `pg` tier), and
 * each costs PostgreSQL a backend process. Its socket does not keep the process alive; a closed
 * connection (the server restarted) is replaced on the next use.
 */
let admin: Promise<pg.Client> | undefined;

function adminClient(): Promise<pg.Client> {
  admin ??= (async () => {
    const client = new pg.Client(serverUrl());
    const forget = () => (admin = undefined);
    client.on('error', forget);
    client.on('end', forget);
    await client.connect().catch((err: unknown) => {
      forget();
      throw err;
    });
    (client as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
    return client;
  })();
  return admin;
}

/**
 * The admin connection's statements, one after another: pg runs one query at a time on a
 * connection anyway, and a query sent while another runs is deprecated (a warning, an error in pg 9).
 */
let queue: Promise<unknown> = Promise.resolve();

async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const turn = queue.then(async () => work(await adminClient()));
  queue = turn.catch(() => undefined);
  return turn;
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

/**
 * A database with confctl's current schema, trigram indexes included, and no rows, copied from
 * the run's template. `FILE_COPY` copies the template's files instead of writing every page
 * through the WAL (PostgreSQL 15's default, `WAL_LOG`): 15-18 against 24-64 ms of PostgreSQL's
 * CPU per copy, and 6 against 13-27 for its drop, measured here.
 */
export const createMigratedDatabase = (): Promise<TestDatabase> => create(` TEMPLATE ${inject('postgresTemplate')} STRATEGY FILE_COPY`);
