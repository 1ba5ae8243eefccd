/**
 * vitest globalSetup of the projects that use PostgreSQL: one server for the whole run
 * (postgres-server.ts) with one migrated template database; tests `inject('postgresUrl')` and copy
 * the template through test/pg/database.ts. Each project runs its global setup itself, so the
 * first one starts the server and the last teardown stops it (a count on `globalThis`, which the
 * projects' setups share: they run in vitest's main process).
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { startPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** A database with confctl's schema (its trigram indexes too) and no rows, to copy with `CREATE DATABASE … TEMPLATE`. */
    postgresTemplate: string;
  }
}

const TEMPLATE = 'confctl_template';

interface Shared {
  users: number;
  started: Promise<{ url: string; stop: () => Promise<void> }>;
}
const key = Symbol.for('confctl.test.postgres');
const registry = globalThis as typeof globalThis & { [key]?: Shared };

async function query(url: string, sql: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Starts the server and makes the template as a store's first open leaves a database; it then accepts no connections (a copy needs none open). */
async function start(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = await startPostgres();
  try {
    await query(server.url, `CREATE DATABASE ${TEMPLATE}`);
    const url = new URL(server.url);
    url.pathname = `/${TEMPLATE}`;
    // A store's first open migrates the database and builds pg_trgm's trigram indexes; a copy of
    // what it leaves opens by reading the catalog only. The template was only migrated before, and
    // each open of a fresh copy built the indexes again: about a tenth of PostgreSQL's time in the
    // store contract's file (`pg_stat_statements`).
    const store = await openPostgresStore(url.href);
    const notices = store.notices;
    await store.close();
    if (notices.length) throw new Error(`The test PostgreSQL's template: ${notices.join(' ')}`);
    await query(server.url, `ALTER DATABASE ${TEMPLATE} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (registry[key] ??= { users: 0, started: start() });
  shared.users++;
  const { url, stop } = await shared.started;
  project.provide('postgresUrl', url);
  project.provide('postgresTemplate', TEMPLATE);
  return async () => {
    if (--shared.users > 0) return;
    delete registry[key];
    await stop();
  };
}
