/** The synchronous SQLite store (see `SqliteStore`) and its bulk loader. */
import type { BulkRows, CommitGroups, DataStore, UnitsOfWork } from '../port.js';
import type { AtomicOptions, Steps } from '../steps.js';
import type { ListMode } from './list-query.js';
import type { SnapshotStore } from '../snapshots.js';
import type {
  AccessKeyRepo,
  AttendeeRepo,
  CalendarRepo,
  ClockRepo,
  ConferenceAccountRepo,
  ConferenceRepo,
  ConnectedAccountRepo,
  CustomerInsert,
  CustomerRepo,
  DepartmentRepo,
  EventRepo,
  FaultRuleRepo,
  InvitationRepo,
  MeetingLinkRepo,
  ProviderRepo,
  RecordingRepo,
  RoleRepo,
  TenantRepo,
  UserInsert,
  UserRepo,
  WebhookDestinationRepo,
  WebhookOutboxRepo,
} from '../types.js';

/**
 * The SQLite adapter's own store, every answer synchronous (better-sqlite3 is): what `openStore`
 * answers inside the adapter, and what the store's tests and tools drive directly. Above the
 * store it is a `DataDirStore` (port.ts), reached through store/index.ts's factory.
 */
export interface SqliteStore {
  readonly backend: 'sqlite';
  /** The database file (or `:memory:`). */
  readonly location: string;
  close(): void;
  /**
   * Runs `fn` in one write transaction that holds the write lock from its start, so it never
   * fails half-way for a concurrent writer (nested calls join the outer one). When another
   * process holds the lock longer than the busy timeout it throws an error `isBusyError` knows,
   * having written nothing.
   */
  transaction<T>(fn: () => T): T;
  /** `DataStore.atomic`, answered at once: the steps run in one `transaction`. */
  atomic<T>(steps: Steps<T>, options?: AtomicOptions): T;
  /** `DataStore.readSteps`, answered at once. */
  readSteps<T>(steps: Steps<T>): T;
  /** `DataStore.bulkLoad`, answered at once (through `bulk`). */
  bulkLoad<P>(load: BulkRows<P>): void;
  /** How long a write waits for another process's write lock before failing busy (milliseconds). */
  setBusyTimeout(ms: number): void;
  /**
   * Returns when the database answers and its schema is at this build's version; throws
   * `SchemaMismatch` for another version, or the database's error when it does not answer.
   */
  ping(): void;
  /**
   * Runs the planner's maintenance (`ANALYZE`/`PRAGMA optimize`), e.g. after bulk seeding, then
   * empties the page cache it filled (`PRAGMA shrink_memory`). Skipped when another process keeps
   * the write lock past the busy timeout (the statistics are a hint).
   */
  optimize(): void;
  /**
   * An opaque token that changes whenever anything may have been written to the store, by this
   * connection or by another process (SQLite: `PRAGMA data_version` plus this connection's
   * `total_changes()`). Cheap enough to call on every request; caches of stored rows (tenants,
   * list totals) compare it and drop what they hold when it moved.
   */
  changeToken(): string;
  /**
   * Like `changeToken`, narrowed to tenants, their domains and access keys: it moves with another
   * process's commits (read once per synchronous run of the event loop: see `narrowChangeSignal`)
   * and at once with this store's own writes to those tables, not with this store's other writes. The server's tenant and key caches compare it, so that a `POST` does not make
   * the next request read its tenant and key again.
   */
  tenancyToken(): string;
  /** Group commit for `serve` (see `CommitGroups` and sqlite/commit-groups.ts). */
  commits: CommitGroups;
  /** What this store's list runners do besides running a list; `serve`'s read pool sets it (sqlite/served.ts). */
  readonly listMode: ListMode;
  /** `DataDirStore.withReadPool`: `serve`'s pool (sqlite/served.ts has the one with other options). */
  withReadPool(): DataStore;
  /** The most rows (deleted included) one tenant has in the users, customers or conferences (the list counters'). */
  largestTenantRows(): number;
  /** Named copies of the whole instance, files beside the database (see sqlite/snapshots.ts). */
  snapshots: SnapshotStore;

  tenants: TenantRepo;
  keys: AccessKeyRepo;
  roles: RoleRepo;
  departments: DepartmentRepo;
  users: UserRepo;
  bulk: BulkRepo;
  invitations: InvitationRepo;
  faults: FaultRuleRepo;
  webhookDestinations: WebhookDestinationRepo;
  webhookOutbox: WebhookOutboxRepo;
  meetingLinks: MeetingLinkRepo;
  clock: ClockRepo;
  customers: CustomerRepo;
  providers: ProviderRepo;
  connectedAccounts: ConnectedAccountRepo;
  conferenceAccounts: ConferenceAccountRepo;
  calendars: CalendarRepo;
  events: EventRepo;
  conferences: ConferenceRepo;
  attendees: AttendeeRepo;
  recordings: RecordingRepo;
  /** The atomic writes of the service port (store/port.ts), each one IMMEDIATE transaction. */
  units: UnitsOfWork;
}

/** Bulk loading for the seeder (sqlite/bulk.ts). */
export interface BulkRepo {
  /**
   * Runs `fn` in one IMMEDIATE write transaction (a savepoint when nested) with a large page
   * cache; what it loaded is synced to disk when `load` returns.
   */
  load<T>(fn: (load: BulkLoad) => T): T;
}

/**
 * Inserts of a bulk load: the first `count` of `rows` into the tenant, stored as `users.insert` and
 * `customers.insert` store them, in order; throws when `rows` holds fewer. Answers `count`. A large
 * load defers the table's index builds; `deferIndexes` overrides that choice (the rows are the same).
 */
export interface BulkLoad {
  users(tenantId: number, count: number, rows: Iterable<UserInsert>, options?: { deferIndexes?: boolean }): number;
  customers(tenantId: number, count: number, rows: Iterable<CustomerInsert>, options?: { deferIndexes?: boolean }): number;
}
