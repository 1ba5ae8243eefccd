/**
 * The repositories' records and methods, as both adapters implement them; the port (port.ts)
 * picks from them what each user of a store gets, with `Awaitable` answers.
 *
 * Conventions: every method taking `tenantId` scopes to that tenant (rows of other tenants do not
 * exist); `get` returns undefined for absent or soft-deleted rows; timestamps are ISO strings
 * with milliseconds and `Z`; writes stamp `updated_at`.
 */
import type {
  CalendarEvent,
  ConnectedAccount,
  Customer,
  EventAttendee,
  ListQuery,
  OnlineConference,
  OnlineConferenceAccount,
  OnlineConferenceAttendee,
  OnlineConferenceRecording,
  PageQuery,
  TypeName,
  User,
  WorkHours,
  Address,
} from '../contract/index.js';
import type { FaultRuleSpec } from '../contract/faults.js';

export interface ListResult<T> {
  rows: T[];
  total: number;
}

export interface TenantRecord {
  id: number;
  primary_domain: string;
  aliases: string[];
  created_at: string;
}

export interface TenantRepo {
  /** Creates a tenant; domains are stored lower-case and must be unique across tenants. */
  create(primaryDomain: string, aliases?: readonly string[]): TenantRecord;
  addAlias(tenantId: number, domain: string): void;
  /** Resolves a Host name (already stripped of its port) to its tenant, case-insensitively. */
  byDomain(domain: string): TenantRecord | undefined;
  get(id: number): TenantRecord | undefined;
  list(): TenantRecord[];
}

export interface AccessKeyRecord {
  id: string;
  tenant_id: number;
  name: string;
  /** Hex SHA-256 digest of the secret; the secret itself is never stored. */
  secret_hash: string;
  permissions: string[];
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface AccessKeyRepo {
  /** Creates a key with a fresh id (`ak_` + 24 base62) and secret (48 base62); the secret is returned only here. */
  create(input: { tenant_id: number; name: string; permissions: readonly string[]; expires_at?: string | null }): {
    record: AccessKeyRecord;
    secret: string;
  };
  get(id: string): AccessKeyRecord | undefined;
  list(tenantId?: number): AccessKeyRecord[];
  /** Marks the key revoked; false when there is no such key. */
  revoke(id: string): boolean;
}

export interface RoleRepo {
  create(tenantId: number, name: string): void;
  list(tenantId: number): string[];
  /** Case-sensitive match of a role name in the tenant. */
  exists(tenantId: number, name: string): boolean;
}

export interface DepartmentRecord {
  id: number;
  tenant_id: number;
  name: string;
}

export interface DepartmentRepo {
  create(tenantId: number, name: string): DepartmentRecord;
  get(tenantId: number, id: number): DepartmentRecord | undefined;
  list(tenantId: number): DepartmentRecord[];
}

/** Fields for inserting a user (the API's create, seeding and import). */
export interface UserInsert {
  department_id?: number | null;
  first_name: string;
  last_name: string;
  email: string;
  timezone?: string | null;
  work_hours?: WorkHours | null;
  role?: string | null;
  status?: number;
  avatar_url?: string | null;
  created_at?: string;
  updated_at?: string;
  deleted_at?: string | null;
}

export type UserPatch = Partial<Pick<UserInsert, 'department_id' | 'first_name' | 'last_name' | 'email' | 'timezone' | 'work_hours' | 'role'>>;

export interface UserRepo {
  /** One page of the tenant's users per a validated list query, with the exact total. */
  list(tenantId: number, query: ListQuery): ListResult<User>;
  /** `list` with each user as its JSON text, byte for byte `JSON.stringify` of the `list` row (the server's hot path). */
  listJson(tenantId: number, query: ListQuery): ListResult<string>;
  get(tenantId: number, id: number): User | undefined;
  /** `get` as JSON text, byte for byte `JSON.stringify` of what `get` answers. */
  getJson(tenantId: number, id: number): string | undefined;
  insert(tenantId: number, input: UserInsert): User;
  /** Applies only the fields present in `patch` (`null` clears). Returns the updated user. */
  update(tenantId: number, id: number, patch: UserPatch): User;
  /** True when another non-deleted user of the tenant has this email (case-insensitive). */
  emailTaken(tenantId: number, email: string, exceptId?: number): boolean;
  /** The non-deleted user with this email (case-insensitive), for attendee matching. */
  findByEmail(tenantId: number, email: string): User | undefined;
}

/** An invitation the local instance would have sent to a new user (decisions §11): its outbox row. */
export interface InvitationRecord {
  id: number;
  tenant_id: number;
  user_id: number;
  email: string;
  created_at: string;
}

export interface InvitationRepo {
  /** Records one invitation to the user's e-mail, stamped `created_at` (default now). */
  insert(tenantId: number, input: { user_id: number; email: string; created_at?: string }): InvitationRecord;
  /** The tenant's invitations, oldest first. */
  list(tenantId: number): InvitationRecord[];
}

/** An injected fault rule (contract/faults.ts) with what the store keeps beside it. */
export interface FaultRuleRecord extends FaultRuleSpec {
  id: number;
  /** Only this tenant's requests match; null: every tenant's. */
  tenant_id: number | null;
  /** Requests matched so far: the last one drew the `matched`-th number of the rule's sequence. */
  matched: number;
  /** Picked requests still to fault (`times` counting down); null without `times`. 0: spent. */
  remaining: number | null;
  created_at: string;
}

/**
 * Injected fault rules, instance-wide (every tenant's requests, every instance on one database).
 * `count` and `spend` are what `serve` writes per matched request; they do
 * not move `token`, which only rules added or removed move.
 */
export interface FaultRuleRepo {
  add(rule: FaultRuleSpec & { tenant_id: number | null }): FaultRuleRecord;
  /** Every rule, spent ones included, in id order (the order `serve` tries them). */
  list(): FaultRuleRecord[];
  get(id: number): FaultRuleRecord | undefined;
  remove(id: number): boolean;
  /** Removes every rule; answers how many there were. */
  clear(): number;
  /**
   * Counts one matched request of a rule that is not spent, atomically; with `spend`, also takes
   * one of its remaining times. Answers the match's number and what remains, or undefined when
   * the rule is spent or gone (nothing counted).
   */
  count(id: number, spend: boolean): { matched: number; remaining: number | null } | undefined;
  /** Takes one of a rule's remaining times; false when none is left (another request took the last). */
  spend(id: number): boolean;
  /** Moves whenever rules are added or removed, by this process or another (compare it, as the totals caches do). */
  token(): string;
}

/** A tenant's webhook destination (decisions §13). `secret` is the HMAC key; never print it after creation. */
export interface WebhookDestinationRecord {
  id: string;
  tenant_id: number;
  url: string;
  /** The event types delivered here; null for every type. */
  events: string[] | null;
  secret: string;
  created_at: string;
  secret_rotated_at: string | null;
}

export interface WebhookDestinationRepo {
  /** Stores a destination with the given secret; its id is `wh_` and 24 base62 characters. */
  create(input: { tenant_id: number; url: string; events: string[] | null; secret: string }): WebhookDestinationRecord;
  /** A live destination by id, or undefined (also for removed ones). */
  get(id: string): WebhookDestinationRecord | undefined;
  /** Live destinations, oldest first: every tenant's, or one tenant's. */
  list(tenantId?: number): WebhookDestinationRecord[];
  /** Removes a destination (softly) and cancels its pending deliveries; false when there is no live one of that id. */
  remove(id: string): boolean;
  /** Replaces a live destination's secret; false when there is none of that id. */
  rotateSecret(id: string, secret: string): boolean;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'canceled';

/** One attempt to deliver: when, and the answer's status code or why there was none. */
export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  error: string | null;
}

/** One event's delivery to one destination (decisions §13), with every attempt made so far. */
export interface DeliveryRecord {
  id: number;
  tenant_id: number;
  destination_id: string;
  url: string;
  /** The X-Webhook-Id: the same for the event's deliveries to every destination and on every attempt. */
  event_id: string;
  type: string;
  /** The exact JSON body sent: `{"event": type, "data": {...}}`. */
  body: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string;
  created_at: string;
  finished_at: string | null;
  attempts: DeliveryAttempt[];
}

/** A delivery a sender has claimed, with what it needs to sign it. Never log `secret`. */
export interface ClaimedDelivery {
  id: number;
  event_id: string;
  url: string;
  secret: string;
  body: string;
  attempt_count: number;
}

export interface WebhookOutboxRepo {
  /**
   * Writes one pending delivery of the event for each live destination of the tenant that wants
   * `type`, due at once; returns how many. Call it inside the transaction of the change, so the
   * change and its deliveries commit together or not at all.
   */
  enqueue(tenantId: number, type: string, data: Record<string, unknown>): number;
  /**
   * Claims the oldest due delivery (pending, `next_attempt_at` ≤ now, not leased or its lease
   * expired) in one IMMEDIATE transaction, leasing it until `leaseUntil`, so that a second sender
   * cannot take it meanwhile; undefined when none is due.
   */
  claim(now: string, leaseUntil: string): ClaimedDelivery | undefined;
  /** Records an attempt and ends the lease: delivered, failed for good, or due again at `retryAt`. */
  settle(id: number, attempt: DeliveryAttempt, outcome: { status: 'delivered' | 'failed' } | { retryAt: string }): void;
  /** The earliest `next_attempt_at` among pending deliveries, or undefined. */
  nextDue(): string | undefined;
  /** Deliveries newest first, with their attempts: all, one tenant's, or only failed ones. */
  list(filter: { tenantId?: number; failed?: boolean; limit: number }): DeliveryRecord[];
  get(id: number): DeliveryRecord | undefined;
  /** Makes a delivery pending again, due now, with a new round of attempts (same event id); false if unknown. */
  redeliver(id: number): boolean;
  /** Deletes deliveries finished (delivered, failed, canceled) before `before`, with their attempts; returns how many. */
  prune(before: string): number;
}

/** A booking page of a calendar: booking through it makes an event of `duration_minutes`. */
export interface MeetingLinkRecord {
  id: number;
  tenant_id: number;
  calendar_id: number;
  name: string;
  duration_minutes: number;
  created_at: string;
}

export interface MeetingLinkRepo {
  insert(tenantId: number, input: { calendar_id: number; name: string; duration_minutes: number }): MeetingLinkRecord;
  get(tenantId: number, id: number): MeetingLinkRecord | undefined;
  /** The tenant's links, oldest first. */
  list(tenantId: number): MeetingLinkRecord[];
}

export interface CustomerInsert {
  first_name: string;
  middle_name?: string | null;
  last_name: string;
  email: string;
  contact_number?: string | null;
  /** Stored as its eight fields; missing parts are null. */
  address?: Partial<Address> | null;
  created_at?: string;
  updated_at?: string;
  deleted_at?: string | null;
}

export type CustomerPatch = Partial<Pick<CustomerInsert, 'first_name' | 'middle_name' | 'last_name' | 'email' | 'contact_number' | 'address'>>;

export interface CustomerRepo {
  list(tenantId: number, query: ListQuery): ListResult<Customer>;
  get(tenantId: number, id: number): Customer | undefined;
  insert(tenantId: number, input: CustomerInsert): Customer;
  /** A sent `address` replaces the whole address (missing parts become null). */
  update(tenantId: number, id: number, patch: CustomerPatch): Customer;
  emailTaken(tenantId: number, email: string, exceptId?: number): boolean;
  findByEmail(tenantId: number, email: string): Customer | undefined;
}

export interface ProviderRecord {
  id: number;
  name: string;
}

export interface ProviderRepo {
  /** Providers are global (e.g. `zoom`, `google`); returns the existing one for a known name. */
  ensure(name: string): ProviderRecord;
  list(): ProviderRecord[];
}

export interface ConnectedAccountInsert {
  owner_type: TypeName;
  owner_id: number;
  provider_id: number;
  provider_uid: string;
  provider_email?: string | null;
}

export interface ConnectedAccountRepo {
  insert(tenantId: number, input: ConnectedAccountInsert): ConnectedAccount;
  get(tenantId: number, id: number): ConnectedAccount | undefined;
  listByOwner(tenantId: number, ownerType: TypeName, ownerId: number, page: PageQuery): ListResult<ConnectedAccount>;
}

export interface ConferenceAccountInsert {
  owner_type: TypeName;
  owner_id: number;
  connected_account_id?: number | null;
  name: string;
}

export interface ConferenceAccountRepo {
  insert(tenantId: number, input: ConferenceAccountInsert): OnlineConferenceAccount;
  get(tenantId: number, id: number): OnlineConferenceAccount | undefined;
  listByOwner(tenantId: number, ownerType: TypeName, ownerId: number, page: PageQuery): ListResult<OnlineConferenceAccount>;
}

export interface CalendarRecord {
  id: number;
  tenant_id: number;
  owner_type: TypeName;
  owner_id: number;
  name: string;
}

export interface CalendarRepo {
  insert(tenantId: number, input: { owner_type: TypeName; owner_id: number; name: string }): CalendarRecord;
  get(tenantId: number, id: number): CalendarRecord | undefined;
}

export interface EventInsert {
  calendar_id: number;
  title: string;
  start: string;
  end: string;
  attendees?: EventAttendee[];
  body?: string | null;
  location?: string | null;
  cancel_note?: string | null;
  canceled_by_id?: number | null;
  canceled_by_type?: TypeName | null;
  public_id?: string | null;
  provider_event_id?: string | null;
  customer_id?: number | null;
  meeting_link_id?: number | null;
}

export interface EventRepo {
  insert(tenantId: number, input: EventInsert): CalendarEvent;
  /** The event with its attendees and backed conference; undefined unless it belongs to `calendarId`. */
  get(tenantId: number, calendarId: number, eventId: number): CalendarEvent | undefined;
  /** True for a non-deleted event of the tenant (any calendar). */
  exists(tenantId: number, eventId: number): boolean;
  /**
   * The calendar of a non-deleted event of the tenant, or undefined. `forUpdate` (inside a unit):
   * PostgreSQL locks the event's row until commit; SQLite's transaction holds the write lock already.
   */
  calendarOf(tenantId: number, eventId: number, forUpdate?: boolean): number | undefined;
  /** Changes the given fields of a non-deleted event; the event as it now is, or undefined if there is none. */
  update(tenantId: number, eventId: number, patch: EventPatch): CalendarEvent | undefined;
  /** Deletes an event softly; false when there is no non-deleted one of that id. */
  remove(tenantId: number, eventId: number): boolean;
}

/** The fields of an event that `update` can change. */
export interface EventPatch {
  title?: string;
  start?: string;
  end?: string;
  body?: string | null;
  location?: string | null;
}

export interface ConferenceInsert {
  online_conference_account_id: number;
  public_id: string;
  title: string;
  is_public: boolean;
  backer_event_id?: number | null;
  started_at?: string | null;
  ended_at?: string | null;
}

export interface ConferenceRepo {
  /** One page of the tenant's conferences per a validated list query, with the exact total. */
  list(tenantId: number, query: ListQuery): ListResult<OnlineConference>;
  insert(tenantId: number, input: ConferenceInsert): OnlineConference;
  /** `forUpdate` (inside a unit): PostgreSQL locks the conference's row until commit; SQLite's transaction holds the write lock already. */
  get(tenantId: number, id: number, forUpdate?: boolean): OnlineConference | undefined;
  update(tenantId: number, id: number, patch: Partial<Pick<ConferenceInsert, 'title' | 'is_public' | 'started_at' | 'ended_at'>>): OnlineConference;
  /**
   * Soft-deletes the tenant's non-deleted conference (sets `deleted_at`) and returns it as
   * stored; `NotFoundError` when there is none. Its attendees and recordings stay as they are:
   * every read goes through the conference, so they are gone with it. No conference row is ever
   * removed, so SQLite never hands its id out again (decisions §11).
   */
  softDelete(tenantId: number, id: number): OnlineConference;
  /** Unique checks among all the tenant's conferences, deleted ones too (public_id case-sensitive). */
  publicIdTaken(tenantId: number, publicId: string): boolean;
  backerEventTaken(tenantId: number, eventId: number): boolean;
}

export interface AttendeeInsert {
  email: string;
  name: string;
  attendee_type: TypeName | null;
  attendee_id: number | null;
  joined_at?: string | null;
}

export interface AttendeeRepo {
  listByConference(conferenceId: number, page: PageQuery): ListResult<OnlineConferenceAttendee>;
  /** Non-deleted attendees of the conference. */
  count(conferenceId: number): number;
  /** The conference's non-deleted attendee with this id. */
  get(conferenceId: number, id: number): OnlineConferenceAttendee | undefined;
  /** Soft-deletes the conference's non-deleted attendee and returns it; `NotFoundError` when there is none. */
  softDelete(conferenceId: number, id: number): OnlineConferenceAttendee;
  /** The non-deleted attendee with this email (case-insensitive). */
  findByEmail(conferenceId: number, email: string): OnlineConferenceAttendee | undefined;
  insert(conferenceId: number, input: AttendeeInsert): OnlineConferenceAttendee;
}

export interface RecordingInsert {
  status: number;
  file_name?: string | null;
  path?: string | null;
  started_at?: string | null;
  stopped_at?: string | null;
}

export interface RecordingRepo {
  listByConference(conferenceId: number, page: PageQuery): ListResult<OnlineConferenceRecording>;
  /** A recording of the tenant (through its conference), by id; `forUpdate` as for conferences. */
  get(tenantId: number, id: number, forUpdate?: boolean): OnlineConferenceRecording | undefined;
  insert(conferenceId: number, input: RecordingInsert): OnlineConferenceRecording;
  update(id: number, patch: Partial<RecordingInsert>): OnlineConferenceRecording;
  /** Whether the recording belongs to one of the tenant's deleted conferences (its links are revoked). */
  revoked(tenantId: number, id: number): boolean;
  /** Recordings of the conference in the given status. */
  byStatus(conferenceId: number, status: number): OnlineConferenceRecording[];
}

/**
 * The instance's manual clock as stored (one row): where it stands, and whether the instance runs
 * on it (`serve --clock manual`) or on the real clock again (the row stays, so a manual clock
 * started later never stands before a time it once showed).
 */
export interface ClockState {
  /** Epoch milliseconds. */
  at_ms: number;
  manual: boolean;
}

export interface ClockRepo {
  /** The stored clock; with `forUpdate` its row stays locked until commit (PostgreSQL). */
  get(forUpdate?: boolean): ClockState | undefined;
  put(state: ClockState): void;
  /** Moves whenever the stored clock may have changed, by this store or another process; cheap enough for every request. */
  token(): string;
}
