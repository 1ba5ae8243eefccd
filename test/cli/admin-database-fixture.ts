import pg from 'pg';
import { afterAll, afterEach } from 'vitest';
import { openLocal } from '../../src/local/open.js';
import type { Awaitable, DataStore } from '../../src/store/port.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Backend } from '../e2e/harness.js';
import { createTestDatabase, type TestDatabase } from '../pg/database.js';
import { type AdminFake, adminFake } from './admin-helpers.js';

/** An admin fake on one backend, with the store its commands work on at hand. */
export interface BackendAdmin extends AdminFake {
  /** Runs `work` on the commands' store, opened beside them (the data directory's, or the database's). */
  store: <T>(work: (store: DataStore) => Awaitable<T>) => Promise<T>;
  /** The database's URL (with its password), on PostgreSQL. */
  url?: string;
  /** Where the commands say the data is: the data directory, or the database's URL with its password masked. */
  where: string;
  /** The flags that name the store when it is not named by the environment (`how: 'flag'`): `--database URL`, or none (the data directory is CONFCTL_DATA). */
  flags: string[];
}

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
  function admin(env: Record<string, string> = {}, more: Omit<Parameters<typeof adminFake>[0], 'env'> = {}): AdminFake {
    const f = adminFake({ ...more, env });
    fakes.push(f);
    return f;
  }
  /**
   * An admin fake whose commands work on `backend`: its data directory (`CONFCTL_DATA`), or a
   * fresh database given as `CONFCTL_DATABASE_URL`, as an operator would set either; with `how`
   * 'flag', the database is not in the environment and the commands name it with `flags`.
   * `more.env` adds to the environment (CONFCTL_MEDIA_DIR, say).
   */
  async function adminOn(backend: Backend, more: Parameters<typeof adminFake>[0] = {}, how: 'env' | 'flag' = 'env'): Promise<BackendAdmin> {
    const url = backend === 'postgres' ? await database() : undefined;
    const f = admin({ ...(url && how === 'env' && { CONFCTL_DATABASE_URL: url }), ...more.env }, more);
    const open = async () => {
      if (url) {
        const store = await openPostgresStore(url);
        return { store, close: () => store.close() };
      }
      const { store } = openLocal(f.dataDir, {});
      return { store, close: () => store.close() };
    };
    return {
      ...f,
      url,
      where: url ? url.replace(':hunter2@', ':***@') : f.dataDir,
      flags: url && how === 'flag' ? ['--database', url] : [],
      async store(work) {
        const opened = await open();
        try {
          return await work(opened.store);
        } finally {
          await opened.close();
        }
      },
    };
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
  return { database, admin, adminOn, query, schemaExists };
}

/** The conferences of tenant 1 that have not started, by id (the demo set's ids are 1 to 6 on both stores). */
export async function waitingConferences(store: DataStore) {
  const waiting = [];
  for (const id of [1, 2, 3, 4, 5, 6]) {
    const c = await store.conferences.get(1, id);
    if (c && !c.started_at) waiting.push(c);
  }
  return waiting;
}

/** The first conference of tenant 1 that has not started. */
export async function waitingConference(store: DataStore) {
  const [first] = await waitingConferences(store);
  if (!first) throw new Error('no conference waits to start');
  return first;
}
