import type pg from 'pg';
import type { DatabaseStore } from '../port.js';
import { maskDatabaseUrl, SchemaMismatch } from '../util.js';
import { pgAttendees, pgCalendars, pgConferenceAccounts, pgConferences, pgConnectedAccounts, pgEvents, pgProviders, pgRecordings } from './conferences.js';
import { pgFaultRules } from './faults.js';
import { migrate, PG_SCHEMA_VERSION, schemaTablePresent, schemaVersion } from './migrate.js';
import { ListTotals } from './list-totals.js';
import { LIST_LANE_DEFAULTS, ListLane, type ListLaneOptions } from './list-lane.js';
import { pgCustomers, pgUsers } from './people.js';
import { createPool, inTransaction, one, type Queryable } from './pool.js';
import { countInWindow, peekWindow, pruneWindows, readChangeCounters, sharedSetting, SIGNING_SECRET } from './shared.js';
import { pgDepartments, pgInvitations, pgKeys, pgRoles, pgTenants } from './tenancy.js';
import { oncePerTurn, sharingReads, TurnQueue } from './turn.js';
import { lockNames } from './locks.js';
import { unitsOfWork } from '../units.js';
import { pgBulkInsert } from './bulk.js';
import { pgStepStore } from './step-store.js';
import { runAtomically, runStepsAsync } from '../steps.js';
import { ensureTrigramIndexes, TRIGRAM_MISSING, trigramIndexesPresent } from './trigram.js';
import { pgMeetingLinks, pgWebhookDestinations, pgWebhookOutbox } from './webhooks.js';
import { pgClock } from './clock.js';
import { pgSnapshots } from './snapshots.js';

export { maskDatabaseUrl } from '../util.js';
export { copyTablesToDatabase, databaseTenantCount } from './copy-in.js';

/** The PostgreSQL store; `pool` and `lists` (the list lane) are for tests. */
export interface PostgresStore extends DatabaseStore {
  readonly pool: pg.Pool;
  readonly lists: ListLane;
}

/** Whether the database at `url` has confctl's schema (without creating it). */
export async function hasSchema(url: string): Promise<boolean> {
  const pool = createPool(url, 1);
  try {
    return await schemaTablePresent(pool);
  } finally {
    await pool.end();
  }
}

/**
 * Opens the PostgreSQL store at `url`: a pool, then the migrations (under an advisory lock, so
 * instances starting together migrate once). The requests of one turn of the event loop share
 * round trips (see `TurnQueue`): identical reads are sent once, so the change counters, read from
 * the database on every request (one read of a small table), cost one read and one map per turn
 * (`oncePerTurn`) however many of its callers ask, and the
 * rate-limit windows of one key are counted for the whole turn in one statement. The large lists
 * run in the list lane (`options.lists`, see `ListLane`), on connections of their own.
 */
export async function openPostgresStore(url: string, options: { maxConnections?: number; lists?: ListLaneOptions } = {}): Promise<PostgresStore> {
  const pool = createPool(url, options.maxConnections);
  const notices: string[] = [];
  try {
    const client = await pool.connect();
    try {
      // A database already current is only read (no lock, no DDL): every open after the first.
      const current = (await schemaVersion(client)) === PG_SCHEMA_VERSION && (await trigramIndexesPresent(client));
      if (!current) {
        await migrate(client);
        if (!(await ensureTrigramIndexes(client))) notices.push(TRIGRAM_MISSING);
      }
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  const atomically = <T>(work: (tx: Queryable) => Promise<T>) => inTransaction(pool, work);
  const db = sharingReads(pool);
  const changes = oncePerTurn(() => readChangeCounters(pool));
  const requests = new TurnQueue(([k, ...more]: Array<{ keyId: string; tenantId: number; keyLimit: number }>) =>
    countInWindow(pool, `key:${k.keyId}`, `tenant:${k.tenantId}`, k.keyLimit, 1 + more.length),
  );
  const totals = new ListTotals();
  const lists = new ListLane(url, options.lists ?? LIST_LANE_DEFAULTS);
  const reads = { lane: lists, totals };
  const atomic: DatabaseStore['atomic'] = (steps, options = {}) =>
    runAtomically(steps, options.dryRun, (unit) =>
      atomically(async (tx) => {
        await lockNames(tx, options.locks);
        return runStepsAsync(pgStepStore(tx), unit);
      }),
    );
  const prune = setInterval(() => void pruneWindows(pool).catch(() => {}), 10_000);
  prune.unref();
  return {
    backend: 'postgres',
    location: maskDatabaseUrl(url),
    pool,
    lists,
    notices,
    close: async () => {
      clearInterval(prune);
      await Promise.all([pool.end(), lists.close()]);
    },
    async ping() {
      const row = await one<{ version: number }>(pool, 'SELECT max(version) AS version FROM confctl_schema');
      if (row?.version !== PG_SCHEMA_VERSION) throw new SchemaMismatch(row?.version ?? 0, PG_SCHEMA_VERSION);
    },
    atomic,
    readSteps: (steps) => runStepsAsync(pgStepStore(pool), steps),
    async bulkLoad(load) {
      await atomically(async (tx) => {
        await lockNames(tx, load.locks);
        const { users, customers } = load.rows(await runStepsAsync(pgStepStore(tx), load.plan));
        await pgBulkInsert(tx, 'users', load.tenantId, users.count, users.rows);
        await pgBulkInsert(tx, 'customers', load.tenantId, customers.count, customers.rows);
      });
      // The planner learns of the new rows now rather than when autovacuum comes (as after `admin copy`).
      await pool.query('ANALYZE users, customers');
    },
    changeToken: async () => (await changes()).get('all') ?? '',
    tenancyToken: async () => (await changes()).get('tenancy') ?? '',
    shared: {
      signingSecret: (make) => sharedSetting(pool, SIGNING_SECRET, make),
      countRequest: (keyId, tenantId, keyLimit) => requests.ask(`${keyId}\0${tenantId}\0${keyLimit}`, { keyId, tenantId, keyLimit }),
      peekRequests: (keyId, tenantId) => peekWindow(pool, `key:${keyId}`, `tenant:${tenantId}`),
    },
    tenants: pgTenants(db, atomically),
    keys: pgKeys(db),
    roles: pgRoles(db),
    departments: pgDepartments(db),
    users: pgUsers(db, reads),
    customers: pgCustomers(db, reads),
    providers: pgProviders(db),
    connectedAccounts: pgConnectedAccounts(db),
    conferenceAccounts: pgConferenceAccounts(db),
    calendars: pgCalendars(db),
    events: pgEvents(db, atomically),
    conferences: pgConferences(db, reads),
    attendees: pgAttendees(db),
    recordings: pgRecordings(db),
    webhookDestinations: pgWebhookDestinations(db, atomically),
    webhookOutbox: pgWebhookOutbox(db),
    meetingLinks: pgMeetingLinks(db),
    invitations: pgInvitations(db),
    faults: pgFaultRules(db, changes),
    clock: pgClock(db, changes),
    units: unitsOfWork(atomic),
    snapshots: pgSnapshots(pool),
  };
}
