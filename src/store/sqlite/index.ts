import { isSqliteBusyError } from '../busy.js';
import { changeSignal, immediate, narrowChangeSignal, noteReplaced, openDatabase } from './db.js';
import { largestTenantRows } from './list-counts.js';
import { SCHEMA_VERSION } from './migrations.js';
import { SchemaMismatch } from '../util.js';
import { attendeeRepo } from './repos/attendees.js';
import { conferenceAccountRepo, connectedAccountRepo, providerRepo } from './repos/accounts.js';
import { calendarRepo, eventRepo } from './repos/calendars.js';
import { conferenceRepo } from './repos/conferences.js';
import { customerRepo } from './repos/customers.js';
import { faultRuleRepo } from './repos/faults.js';
import { invitationRepo } from './repos/invitations.js';
import { keyRepo } from './repos/keys.js';
import { recordingRepo } from './repos/recordings.js';
import { departmentRepo, roleRepo } from './repos/roles.js';
import { tenantRepo } from './repos/tenants.js';
import { userRepo } from './repos/users.js';
import { bulkRepo } from './bulk.js';
import { meetingLinkRepo } from './repos/meeting-links.js';
import { clockRepo } from './repos/clock.js';
import { webhookDestinationRepo, webhookOutboxRepo } from './repos/webhooks.js';
import type { SqliteStore } from './store.js';

export type { SqliteStore } from './store.js';
import type { BulkRows } from '../port.js';
import { type AtomicOptions, runAtomically, runSteps, type Steps } from '../steps.js';
import { unitsOfWork } from '../units.js';
import { commitGroups, GROUP_TURNS } from './commit-groups.js';
import { beforeWrites } from './write-guard.js';
import { sqliteSnapshots } from './snapshots.js';
import { withReadPool } from './served.js';
import { ListMode } from './list-query.js';

/**
 * Opens the SQLite store at `location` (a file path, created if needed, or `:memory:`), applies
 * pending migrations and prepares every statement once for this instance. See `openDatabase`
 * for the pragmas (WAL, foreign keys, busy timeout, synchronous=NORMAL) and why.
 */
export function openStore(location: string): SqliteStore {
  const db = openDatabase(location);
  const commits = commitGroups(db, setImmediate, GROUP_TURNS);
  // Before any repository prepares its statements: their writes end the shared read transaction.
  beforeWrites(db, commits.endRead);
  const tenancy = narrowChangeSignal(db);
  const schemaVersion = db.prepare('PRAGMA user_version').pluck();
  const listMode = new ListMode();
  const store: Omit<SqliteStore, 'units'> & { units?: SqliteStore['units'] } = {
    backend: 'sqlite',
    location,
    // A group still open commits first: closing would roll it back.
    close: () => {
      commits.flush();
      db.close();
    },
    // IMMEDIATE (see `immediate`); nested calls are savepoints: an inner failure rolls back only itself.
    transaction: <T>(fn: () => T): T => immediate(db, fn)(),
    // Answered at once: `runSteps` is synchronous, so the unit's answer is never a promise here.
    // Methods on `this`, so a store spread with some repositories replaced (tests) runs steps on those.
    readSteps<T>(this: SqliteStore, steps: Steps<T>): T {
      return runSteps(this, steps);
    },
    // Answered at once: `runSteps` is synchronous, so the unit's answer is never a promise here.
    atomic<T>(this: SqliteStore, steps: Steps<T>, options?: AtomicOptions): T {
      return runAtomically(steps, options?.dryRun, (unit) => this.transaction(() => runSteps(this, unit))) as T;
    },
    // Answered at once; `bulk.load` makes the load durable before it returns.
    bulkLoad<P>(this: SqliteStore, load: BulkRows<P>): void {
      this.bulk.load((bulk) => {
        const { users, customers } = load.rows(runSteps(this, load.plan));
        bulk.users(load.tenantId, users.count, users.rows);
        bulk.customers(load.tenantId, customers.count, customers.rows);
      });
    },
    setBusyTimeout: (ms: number) => void db.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`),
    ping() {
      const version = schemaVersion.get() as number;
      if (version !== SCHEMA_VERSION) throw new SchemaMismatch(version, SCHEMA_VERSION);
    },
    changeToken: changeSignal(db),
    tenancyToken: tenancy.token,
    commits,
    listMode,
    optimize() {
      try {
        db.exec('ANALYZE');
        db.pragma('optimize');
        // ANALYZE read every index into the page cache, which is not the working set: give it back.
        db.pragma('shrink_memory');
      } catch (err) {
        if (!isSqliteBusyError(err)) throw err;
      }
    },
    withReadPool(this: SqliteStore) {
      return withReadPool(this);
    },
    largestTenantRows: () => largestTenantRows(db),
    tenants: tenantRepo(db, tenancy.wrote),
    keys: keyRepo(db, tenancy.wrote),
    roles: roleRepo(db),
    departments: departmentRepo(db),
    users: userRepo(db, listMode),
    bulk: bulkRepo(db),
    invitations: invitationRepo(db),
    faults: faultRuleRepo(db, tenancy.narrow()),
    webhookDestinations: webhookDestinationRepo(db),
    webhookOutbox: webhookOutboxRepo(db),
    meetingLinks: meetingLinkRepo(db),
    clock: clockRepo(db, tenancy.narrow()),
    customers: customerRepo(db, listMode),
    providers: providerRepo(db),
    connectedAccounts: connectedAccountRepo(db),
    conferenceAccounts: conferenceAccountRepo(db),
    calendars: calendarRepo(db),
    events: eventRepo(db),
    conferences: conferenceRepo(db, listMode),
    attendees: attendeeRepo(db),
    recordings: recordingRepo(db),
    snapshots: sqliteSnapshots(db, location, {
      settle: commits.flush,
      replaced: () => {
        tenancy.wrote();
        noteReplaced(db);
      },
    }),
  };
  store.units = unitsOfWork((steps, options) => (store as SqliteStore).atomic(steps, options));
  return store as SqliteStore;
}
