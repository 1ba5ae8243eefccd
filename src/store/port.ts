import type { AttendeeInput, OnlineConference, OnlineConferenceAttendee, User } from '../contract/index.js';
import type {
  AccessKeyRepo,
  CalendarRepo,
  ProviderRepo,
  AttendeeRepo,
  ClockRepo,
  ConferenceAccountRepo,
  ConferenceInsert,
  ConferenceRepo,
  ConnectedAccountRepo,
  CustomerInsert,
  CustomerRepo,
  DepartmentRepo,
  EventRepo,
  FaultRuleRepo,
  InvitationRepo,
  MeetingLinkRepo,
  RecordingRepo,
  RoleRepo,
  TenantRepo,
  UserInsert,
  UserRepo,
  WebhookDestinationRepo,
  WebhookOutboxRepo,
} from './types.js';
import type { AtomicOptions, Steps } from './steps.js';
import type { SnapshotStore } from './snapshots.js';

/**
 * A value now or a promise of it. The port's methods answer `Awaitable`s and callers always
 * `await` them: the SQLite adapter answers synchronously (better-sqlite3 is synchronous, and the
 * server's hot path saves a promise per call), the PostgreSQL adapter with promises.
 */
export type Awaitable<T> = T | Promise<T>;

/** A repository's chosen methods with `Awaitable` answers. */
type Port<R, K extends keyof R> = {
  [M in K]: R[M] extends (...args: infer A) => infer T ? (...args: A) => Awaitable<T> : never;
};

/**
 * Why a unit of work refused to write, as a business rule says (decisions §7, §10, §11); the
 * server answers each with 409 and its message. Nothing was written.
 */
export type RuleReason = 'maxAttendees' | 'conferenceInProgress' | 'conferenceEnded' | 'ownerNotRemovable';

/** Thrown by a unit of work whose rule refused the write (see `RuleReason`). */
export class RuleViolation extends Error {
  constructor(readonly reason: RuleReason) {
    super(`refused: ${reason}`);
    this.name = 'RuleViolation';
  }
}

/**
 * The writes that must be atomic, each one store operation that its adapter makes atomic its own
 * way (SQLite: one IMMEDIATE transaction; PostgreSQL: one transaction with row locks), instead
 * of a transaction that handlers open around their own calls. Uniqueness clashes throw
 * `UniqueViolation` naming the field; broken rules throw `RuleViolation`; a conference or
 * attendee that is not there throws `NotFoundError`. `limit` counts non-deleted attendees, the
 * owner included.
 */
export interface UnitsOfWork {
  /** Inserts the user (its e-mail unused among live users, ignoring case) and, with `invite`, its invitation. */
  createUser(tenantId: number, input: UserInsert, invite: boolean): Awaitable<User>;
  /**
   * Inserts the conference (its `public_id` and backing event unused among all the tenant's
   * conferences), its account owner as the first attendee, then `attendees` as `addAttendees`.
   */
  createConference(tenantId: number, input: ConferenceInsert, attendees: readonly AttendeeInput[], limit: number): Awaitable<OnlineConference>;
  /**
   * Adds attendees to the tenant's live conference, all or nothing: an e-mail already attending or
   * repeated is not added again (its attendee is answered); each new one is matched to the
   * tenant's user, then customer, of that e-mail. Past `limit`: `RuleViolation('maxAttendees')`.
   */
  addAttendees(tenantId: number, conferenceId: number, inputs: readonly AttendeeInput[], limit: number): Awaitable<OnlineConferenceAttendee[]>;
  /** Soft-deletes the tenant's live conference unless it is in progress (started, not ended). */
  deleteConference(tenantId: number, conferenceId: number): Awaitable<OnlineConference>;
  /** Soft-deletes a live attendee unless the conference ended or the attendee is the account's owner. */
  removeAttendee(tenantId: number, conferenceId: number, attendeeId: number): Awaitable<OnlineConferenceAttendee>;
}

/**
 * What `serve` needs from persistence: the reads of its handlers and lookups, and the units of
 * work. Both adapters implement it (SQLite: `openStore`, PostgreSQL: `openPostgresStore`) and
 * pass the same contract suite (test/store/contract/suite.ts).
 */
export interface ServiceStore {
  /** Where the data is, fit to print: a file path, or a PostgreSQL URL with its password masked. */
  readonly location: string;
  close(): Awaitable<void>;
  /** Resolves when the database answers at this build's schema version; else throws (`SchemaMismatch`, or the driver's error). */
  ping(): Awaitable<void>;
  /** Moves whenever anything may have been written, by this instance or any other (list-total caches compare it). */
  changeToken(): Awaitable<string>;
  /** Moves whenever tenants, their domains or keys may have been written (the server's tenant and key caches compare it). */
  tenancyToken(): Awaitable<string>;
  /** How long a write waits for another process's lock (SQLite only: PostgreSQL waits on row locks). */
  setBusyTimeout?(ms: number): void;
  /** What instances on one database share (PostgreSQL); absent where one process is the whole service (SQLite). */
  shared?: SharedState;
  /** Group commit of the writes of requests handled together (SQLite); absent where each write commits alone (PostgreSQL). */
  commits?: CommitGroups;
  /** Named copies of the whole instance (`serve --test-controls` saves and restores them); absent in test fakes. */
  snapshots?: SnapshotStore;

  tenants: Port<TenantRepo, 'byDomain' | 'get'>;
  keys: Port<AccessKeyRepo, 'get'>;
  roles: Port<RoleRepo, 'exists'>;
  departments: Port<DepartmentRepo, 'get'>;
  users: Port<UserRepo, 'listJson' | 'get' | 'getJson' | 'update' | 'emailTaken'>;
  customers: Port<CustomerRepo, 'list' | 'get' | 'insert' | 'update' | 'emailTaken'>;
  connectedAccounts: Port<ConnectedAccountRepo, 'listByOwner'>;
  conferenceAccounts: Port<ConferenceAccountRepo, 'get' | 'listByOwner'>;
  events: Port<EventRepo, 'get' | 'exists'>;
  conferences: Port<ConferenceRepo, 'list' | 'get' | 'update' | 'publicIdTaken' | 'backerEventTaken'>;
  attendees: Port<AttendeeRepo, 'listByConference' | 'get'>;
  recordings: Port<RecordingRepo, 'listByConference' | 'get' | 'revoked'>;
  /** Injected fault rules: `serve` reads them (cached against `token`), counts their matches, and changes them under `--test-controls`. */
  faults: FaultRulesPort;
  /** The manual clock's stored state (see src/store/instance-clock.ts). */
  clock: Port<ClockRepo, 'get' | 'token'>;
  units: UnitsOfWork;
}

/** Generated rows for `DataStore.bulkLoad`. */
export interface BulkRows<P> {
  tenantId: number;
  /** Names the load serialises on, as a unit's (`AtomicOptions.locks`). */
  locks?: readonly string[];
  /** Reads what the rows depend on, in the load's transaction before any row is written. */
  plan: Steps<P>;
  /**
   * The rows, given what `plan` answered: the first `count` of each are loaded, users before
   * customers (either may draw lazily from one source); fewer than `count` throws.
   */
  rows(plan: P): { users: BulkTable<UserInsert>; customers: BulkTable<CustomerInsert> };
}

/** `count` rows of one table to load (see `BulkRows`). */
export interface BulkTable<R> {
  count: number;
  rows: Iterable<R>;
}

/**
 * Group commit (SQLite): the writes of requests that arrive together share one transaction and
 * one COMMIT instead of one each; a write is acknowledged only once the COMMIT that covers it
 * succeeded. A caller marks when it starts (`mark`), `join`s before its writes (which opens the
 * group, and may throw busy as any write may), and before answering awaits `settled(mark)`:
 * the COMMIT of every group that was open while it ran, since it may have written to it or
 * read what it wrote. A COMMIT that fails makes `settled` reject for every such caller.
 */
export interface CommitGroups {
  /** Puts the writes that follow, until the group commits, into the open group; opens one when none is. */
  join(): void;
  /**
   * Puts the reads that follow, until the requests of this turn have run, into one read
   * transaction (a consistent snapshot); inside an open group they read the group's state as
   * before. The next write ends it first.
   */
  read(): void;
  /** The number of the group open now, or else of the next one to open. */
  mark(): number;
  /**
   * Settles once every group from `mark` on has committed: undefined when none is left open,
   * a promise of the open one's COMMIT otherwise, a rejection when one of them failed.
   */
  settled(mark: number): Promise<void> | undefined;
}

/**
 * State that instances sharing one database must share (PostgreSQL); a SQLite store has none
 * and `serve` keeps it in the process (the signing secret in the data directory, rate-limit
 * windows in memory).
 */
export interface SharedState {
  /** The instance secret that signs recording URLs and join tokens, stored by the first instance that asks. */
  signingSecret(make: () => string): Promise<string>;
  /** Counts one authenticated request in the database's current one-second window (see `countInWindow`). */
  countRequest(keyId: string, tenantId: number, keyLimit: number): Promise<{ client: number; tenant: number; nowMs: number }>;
  /** The current window's counts of a key and its tenant, without counting. */
  peekRequests(keyId: string, tenantId: number): Promise<{ client: number; tenant: number; nowMs: number }>;
}

/** The webhook outbox as both stores answer it (decisions §13): SQLite at once, PostgreSQL with promises. */
export type WebhookOutboxPort = Port<WebhookOutboxRepo, 'enqueue' | 'claim' | 'settle' | 'nextDue' | 'list' | 'get' | 'redeliver' | 'prune'>;

/**
 * What the webhook sender needs of a store: its outbox, and the change token it polls to notice
 * deliveries other processes or instances queued. Both stores have it.
 */
export interface WebhookSenderStore {
  changeToken(): Awaitable<string>;
  webhookOutbox: Pick<WebhookOutboxPort, 'claim' | 'settle' | 'nextDue' | 'prune'>;
}

/**
 * The service store plus the writes that setting up an instance, the provider's commands and the
 * contract suite need. Both adapters implement it; the SQLite store has more (seeding, imports,
 * backups) that PostgreSQL gains as those commands learn `--database`.
 */
export interface DataStore extends ServiceStore {
  readonly backend: 'sqlite' | 'postgres';
  /**
   * Runs a unit written as steps (steps.ts) all or nothing: SQLite in one IMMEDIATE transaction
   * (a savepoint inside one), PostgreSQL in one transaction that first takes the unit's advisory
   * locks. With `dryRun` it runs and rolls back, answering what it would have answered.
   */
  atomic<T>(steps: Steps<T>, options?: AtomicOptions): Awaitable<T>;
  /** Runs steps outside any transaction (each statement on its own): for reads that checks repeat inside a unit later. */
  readSteps<T>(steps: Steps<T>): Awaitable<T>;
  /**
   * Loads generated users and customers into a tenant, all or nothing, at bulk speed: the rows
   * `users.insert` and `customers.insert` would store, in order (SQLite: its bulk loader in one
   * IMMEDIATE transaction; PostgreSQL: batched inserts in one transaction under the load's locks,
   * then ANALYZE). Answers once the rows are durable.
   */
  bulkLoad<P>(load: BulkRows<P>): Awaitable<void>;
  /** The planner's maintenance after bulk writes (SQLite: `DataDirStore.optimize`); absent where `bulkLoad` runs it itself (PostgreSQL's ANALYZE). */
  optimize?(): Awaitable<void>;
  tenants: Port<TenantRepo, 'create' | 'addAlias' | 'byDomain' | 'get' | 'list'>;
  keys: Port<AccessKeyRepo, 'create' | 'get' | 'list' | 'revoke'>;
  roles: Port<RoleRepo, 'create' | 'list' | 'exists'>;
  departments: Port<DepartmentRepo, 'create' | 'get' | 'list'>;
  users: Port<UserRepo, 'list' | 'listJson' | 'get' | 'getJson' | 'insert' | 'update' | 'emailTaken' | 'findByEmail'>;
  customers: Port<CustomerRepo, 'list' | 'get' | 'insert' | 'update' | 'emailTaken' | 'findByEmail'>;
  providers: Port<ProviderRepo, 'ensure' | 'list'>;
  connectedAccounts: Port<ConnectedAccountRepo, 'insert' | 'get' | 'listByOwner'>;
  conferenceAccounts: Port<ConferenceAccountRepo, 'insert' | 'get' | 'listByOwner'>;
  calendars: Port<CalendarRepo, 'insert' | 'get'>;
  events: Port<EventRepo, 'insert' | 'get' | 'exists' | 'calendarOf' | 'update' | 'remove'>;
  conferences: Port<ConferenceRepo, 'list' | 'insert' | 'get' | 'update' | 'softDelete' | 'publicIdTaken' | 'backerEventTaken'>;
  attendees: Port<AttendeeRepo, 'listByConference' | 'count' | 'get' | 'findByEmail' | 'insert' | 'softDelete'>;
  recordings: Port<RecordingRepo, 'listByConference' | 'get' | 'insert' | 'update' | 'revoked' | 'byStatus'>;
  webhookDestinations: Port<WebhookDestinationRepo, 'create' | 'get' | 'list' | 'remove' | 'rotateSecret'>;
  /** The outbox; `enqueue` outside a change's transaction is for tests (changes write theirs atomically). */
  webhookOutbox: WebhookOutboxPort;
  meetingLinks: Port<MeetingLinkRepo, 'insert' | 'get' | 'list'>;
  /** The invitations outbox (decisions §11), read by `admin invitations list`; the user's creation writes it. */
  invitations: Port<InvitationRepo, 'list' | 'insert'>;
  /** Named copies of the whole instance (snapshots.ts). */
  snapshots: SnapshotStore;
  faults: FaultRulesPort;
  clock: Port<ClockRepo, 'get' | 'put' | 'token'>;
}

/** A `DataStore` on a PostgreSQL database, as its factory (store/index.ts `openDatabaseStore`) answers it. */
export interface DatabaseStore extends DataStore {
  readonly backend: 'postgres';
  /** What the operator should know about this database (`serve` prints each): pg_trgm missing. */
  readonly notices: readonly string[];
  shared: SharedState;
}

/**
 * A `DataStore` on a data directory's SQLite file (or `:memory:`), as its factory (store/index.ts
 * `openStore`) answers it: `serve` groups its commits and sets how long a write waits for another
 * process's lock.
 */
export interface DataDirStore extends DataStore {
  readonly backend: 'sqlite';
  commits: CommitGroups;
  setBusyTimeout(ms: number): void;
  /**
   * Runs the planner's maintenance (`ANALYZE`/`PRAGMA optimize`), e.g. after bulk seeding. Skipped
   * when another process keeps the write lock past the busy timeout (the statistics are a hint).
   */
  optimize(): void;
  /**
   * This store as `serve` answers with it: a list that may read many rows runs on a pool of worker
   * threads with read-only connections (sqlite/served.ts), so it holds no other request. Closing
   * the answer stops the pool, then closes this store.
   */
  withReadPool(): DataStore;
}

/** Injected fault rules as both stores answer them (`admin faults`, the control routes, `serve`'s checks). */
export type FaultRulesPort = Port<FaultRuleRepo, 'add' | 'list' | 'get' | 'remove' | 'clear' | 'count' | 'spend' | 'token'>;
