/**
 * Tenant as code: the shapes shared by the pure planning core (desired state, the tenant's
 * snapshot, the plan) and the commands that read, print and apply them.
 */
import type { ADDRESS_FIELDS } from '../../contract/resources.js';

/** The version of the saved plan's JSON format; `apply` refuses any other. */
export const FORMAT_VERSION = 1;

export const KINDS = ['users', 'customers', 'conferences'] as const;
export type Kind = (typeof KINDS)[number];

/** The fields a users file holds, in the order `export` writes them (`email` is the key). */
export const USER_KEYS = ['email', 'first_name', 'last_name', 'department', 'role', 'timezone', 'work_hours'] as const;
/** Keys a users file may carry besides: `activate` is used only when the plan creates the user. */
export const USER_CREATE_ONLY = ['activate'] as const;
export const CUSTOMER_KEYS = ['email', 'first_name', 'middle_name', 'last_name', 'contact_number', 'address'] as const;
export const CONFERENCE_KEYS = ['public_id', 'title', 'is_public', 'host', 'account', 'attendees'] as const;

export type Record_ = Record<string, unknown>;

/** Where a record was read: its file and line, and the line of any dotted path inside it. */
export interface Where {
  file: string;
  line: number;
  lineOf: (path: string) => number;
}

/** One record of desired state. `fields` holds only the keys given (a sync file may give few). */
export interface Desired {
  key: string;
  fields: Record_;
  where: Where;
  /** Fields filled from `--defaults` (sync): used only when the record is created. */
  defaults?: Record_;
  /** A sync record: it manages only the keys (and address parts) it gives. */
  partial?: boolean;
  /** The tenant row's id this record names (sync `--key id`); else the row is found by e-mail. */
  id?: number;
}

/** A problem with the desired state, named by file, line, record key and field. */
export interface Problem {
  file?: string;
  line?: number;
  key?: string;
  field?: string;
  message: string;
}

export type Address = Record<(typeof ADDRESS_FIELDS)[number], string | null>;

export interface TenantUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  department_id: number | null;
  department_name: string | null;
  timezone: string | null;
  work_hours: unknown;
  role: string | null;
}

export interface TenantCustomer {
  id: number;
  email: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  contact_number: string | null;
  address: Address | null;
}

export interface TenantAttendee {
  id: number;
  email: string;
  name: string;
}

export interface TenantConference {
  id: number;
  public_id: string;
  title: string;
  is_public: boolean;
  account_id: number;
  started: boolean;
  /** The user owning the conference's account, when found among its attendees. */
  host: { user_id: number; email: string; account: string } | null;
  /** Attendees other than the host's own attendee row. */
  attendees: TenantAttendee[];
  /** The host's attendee row (never removed). */
  host_attendee_id: number | null;
}

export interface Account {
  id: number;
  name: string;
}

/** The tenant as read for planning. Only the kinds read are present. */
export interface Snapshot {
  /** Live users (not deleted). */
  users?: TenantUser[];
  /** Departments seen on the users: id and name (the API cannot list departments). */
  departments?: ReadonlyArray<{ id: number; name: string }>;
  /** Roles held by the users (the API cannot list roles). */
  roles?: readonly string[];
  customers?: TenantCustomer[];
  /** Conferences that have not ended, not deleted. */
  conferences?: TenantConference[];
  /** Conference accounts of the users named as hosts, by user id. */
  accounts?: ReadonlyMap<number, readonly Account[]>;
}

/** A user or customer created or updated. */
export type PersonChange =
  | { kind: 'user' | 'customer'; action: 'create'; key: string; body: Record_; defaults?: string[] }
  | { kind: 'user' | 'customer'; action: 'update'; key: string; target_id: number; before: Record_; after: Record_; body: Record_ };

export type ConferenceChange =
  | { kind: 'conference'; action: 'create'; key: string; body: Record_ }
  | { kind: 'conference'; action: 'update'; key: string; target_id: number; before: Record_; after: Record_; body: Record_ }
  | { kind: 'conference'; action: 'delete'; key: string; target_id: number; before: Record_ }
  | { kind: 'attendee'; action: 'add'; key: string; conference: string; conference_id: number | null; body: { email: string; name: string } }
  | { kind: 'attendee'; action: 'remove'; key: string; conference: string; conference_id: number; attendee_id: number; email: string };

export type Change = PersonChange | ConferenceChange;

export const isPersonChange = (c: Change): c is PersonChange => c.kind === 'user' || c.kind === 'customer';

export interface Unmanaged {
  users: string[];
  customers: string[];
  conferences: string[];
}

/** A saved plan (`plan --out`), `format_version` 1. */
export interface Plan {
  format_version: typeof FORMAT_VERSION;
  created_at: string;
  base_url: string;
  /** The desired-state files planned from, for `apply --refresh`. */
  sources: string[];
  /** The kinds the files manage: their unmanaged rows are listed, and only they are read again. */
  kinds: Kind[];
  prune: boolean;
  changes: Change[];
  unmanaged: Unmanaged;
  /** What the files ask that the API cannot do and the plan leaves as is (an attendee's name). */
  notes: string[];
}
