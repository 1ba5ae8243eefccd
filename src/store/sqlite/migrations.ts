import { RELEASED_TRIGRAM_TABLES, trigramDdl, trigramLiveTenantDdl, trigramPendingDdl, trigramSplitDdl, trigramTablesOf } from './trigram.js';
import { addressSql, cityCountrySql } from '../rows/texts.js';
import { dropListCountsDdl, listCountsDdl, stampBoundsDdl } from './list-counts.js';
import type { Db } from './db.js';
import { SQLITE_USER_JSON, USER_JSON_FIELDS } from '../user-json.js';

/** A user's JSON text computed from the stored row `id` (its department joined). */
const userJsonOf = (id: string) =>
  `(SELECT ${SQLITE_USER_JSON} FROM users u LEFT JOIN departments d ON d.id = u.department_id WHERE u.id = ${id})`;

/** Every column of users a user's JSON text is made of (migration 8's update trigger watches them). */
const USER_JSON_SOURCES = [...new Set(USER_JSON_FIELDS.flatMap(([, sql]) => [...sql.matchAll(/\bu\.(\w+)/g)].map((m) => m[1])))].join(', ');

/** The columns of migration 9's count indexes: table, column, and whether it is text (compared with NOCASE). */
export const COUNT_INDEXES: readonly (readonly [string, string, boolean])[] = [
  ['users', 'status', false],
  ['users', 'created_at', false],
  ['users', 'first_name', true],
  ['users', 'last_name', true],
  ['users', 'email', true],
  ['customers', 'created_at', false],
  ['customers', 'first_name', true],
  ['customers', 'last_name', true],
  ['customers', 'email', true],
];

/** Migration 10's count indexes, as migration 9's: the other attributes that lists filter by Equal and ranges. */
export const MORE_COUNT_INDEXES: readonly (readonly [string, string, boolean])[] = [
  ['users', 'timezone', true],
  ['users', 'role', true],
  ['users', 'updated_at', false],
  ['customers', 'middle_name', true],
  ['customers', 'contact_number', true],
  ['customers', 'updated_at', false],
];

/**
 * Migration 15's customers' attributes (with their plain index of migration 1, whose name and
 * whether the column is text): one index on (column, id, tenant_id, deleted_at) replaces the
 * plain index on (column) and the count index on (column, tenant_id, deleted_at) WHERE
 * tenant_id > 0. It holds the entries of both in the plain index's order (equal values by id,
 * as ORDER BY column, id asks), with the tenant and deleted_at to test a count's or page's entry
 * without reading its row. Partial no more: a page in the column's order walks it as it walked
 * the plain index. Its leading column is not the tenant, whose second place in a count index let
 * the planner skip-scan it for every page of a large tenant (migration 9's comment): here the id
 * comes between.
 */
export const MERGED_COUNT_INDEXES: readonly (readonly [string, string, boolean])[] = [
  ['email', 'customers_email', true],
  ['first_name', 'customers_first_name', true],
  ['middle_name', 'customers_middle_name', true],
  ['last_name', 'customers_last_name', true],
  ['contact_number', 'customers_contact_number', true],
  ['created_at', 'customers_created', false],
  ['updated_at', 'customers_updated', false],
];

/**
 * Migration 17's users' attributes, as MERGED_COUNT_INDEXES are the customers': the attributes
 * whose plain index (migration 1) and count index (migrations 9 and 10) become one on (column,
 * id, tenant_id, deleted_at). `status` keeps its two: its count index answers the Equal filter
 * of any tenant's size from that tenant's entries alone (a two-value column, so a merged index's
 * entries of a value would be half the table's), on the main thread (list-query.ts,
 * `ListMode`); `department_id` keeps its two likewise.
 */
export const USERS_MERGED_COUNT_INDEXES: readonly (readonly [string, string, boolean])[] = [
  ['email', 'users_email', true],
  ['first_name', 'users_first_name', true],
  ['last_name', 'users_last_name', true],
  ['timezone', 'users_timezone', true],
  ['role', 'users_role', true],
  ['created_at', 'users_created', false],
  ['updated_at', 'users_updated', false],
];

/** Replaces a plain and a count index of `table`'s `column` by one on (column, id, tenant_id, deleted_at) (migrations 15 and 17). */
const mergedIndexSql = (table: string) => ([column, plain, text]: readonly [string, string, boolean]) => `DROP INDEX IF EXISTS ${plain};
DROP INDEX IF EXISTS ${table}_${column}_count;
CREATE INDEX ${table}_${column}_count ON ${table}(${column}${text ? ' COLLATE NOCASE' : ''}, id, tenant_id, deleted_at);`;

/** A count index of migrations 9 and 10 (see `ColumnDef.countIndex`). */
const countIndexSql = ([table, column, text]: readonly [string, string, boolean]) =>
  `CREATE INDEX ${table}_${column}_count ON ${table}(${column}${text ? ' COLLATE NOCASE' : ''}, tenant_id, deleted_at) WHERE tenant_id > 0;`;

/**
 * Numbered schema migrations, tracked with `PRAGMA user_version`. Append new ones; never edit a
 * released one. Each runs in its own transaction together with the version bump.
 *
 * Conventions: timestamps are ISO strings (`YYYY-MM-DDTHH:MM:SS.sssZ`, so text order = time
 * order); soft deletes via `deleted_at`; text attributes that lists filter or order by are
 * indexed `COLLATE NOCASE`, matching the list compiler's case-insensitive comparisons.
 * Only `users_tenant` and `customers_tenant` (migration 2) lead with `tenant_id`: with one
 * dominant tenant such an index hijacks the planner (ARCHITECTURE.md, "Index trap"), so they are
 * partial on `tenant_id > 0` (every row): the planner can use them only in a query that says so,
 * which the list compiler writes for small tenants only (list-query.ts, `TenantAccess`). Any
 * index holding `tenant_id` right after another column is partial the same way (migration 3);
 * migrations 15 and 17's hold the id between (`MERGED_COUNT_INDEXES`, `USERS_MERGED_COUNT_INDEXES`).
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE tenants (
  id INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL
);
CREATE TABLE tenant_domains (
  domain TEXT PRIMARY KEY CHECK (domain = lower(domain)),
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  is_primary INTEGER NOT NULL CHECK (is_primary IN (0, 1)),
  created_at TEXT NOT NULL
);
CREATE INDEX tenant_domains_tenant ON tenant_domains(tenant_id);
CREATE UNIQUE INDEX tenant_domains_one_primary ON tenant_domains(tenant_id) WHERE is_primary = 1;

CREATE TABLE access_keys (
  id TEXT PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  permissions TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX access_keys_tenant ON access_keys(tenant_id);

CREATE TABLE roles (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (tenant_id, name)
);

CREATE TABLE departments (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX departments_tenant ON departments(tenant_id);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  department_id INTEGER REFERENCES departments(id),
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  timezone TEXT,
  work_hours TEXT,
  role TEXT,
  status INTEGER NOT NULL DEFAULT 1,
  avatar_url TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT,
  FOREIGN KEY (tenant_id, role) REFERENCES roles(tenant_id, name)
);
CREATE UNIQUE INDEX users_email_live ON users(email COLLATE NOCASE, tenant_id) WHERE deleted_at IS NULL;
CREATE INDEX users_email ON users(email COLLATE NOCASE);
CREATE INDEX users_first_name ON users(first_name COLLATE NOCASE);
CREATE INDEX users_last_name ON users(last_name COLLATE NOCASE);
CREATE INDEX users_timezone ON users(timezone COLLATE NOCASE);
CREATE INDEX users_role ON users(role COLLATE NOCASE);
CREATE INDEX users_status ON users(status);
CREATE INDEX users_department ON users(department_id);
CREATE INDEX users_created ON users(created_at);
CREATE INDEX users_updated ON users(updated_at);
CREATE INDEX users_deleted ON users(deleted_at);

CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  first_name TEXT NOT NULL,
  middle_name TEXT,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  contact_number TEXT,
  line_1 TEXT,
  line_2 TEXT,
  city TEXT,
  region TEXT,
  region_code TEXT,
  country TEXT,
  country_code TEXT,
  postal_code TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE UNIQUE INDEX customers_email_live ON customers(email COLLATE NOCASE, tenant_id) WHERE deleted_at IS NULL;
CREATE INDEX customers_email ON customers(email COLLATE NOCASE);
CREATE INDEX customers_first_name ON customers(first_name COLLATE NOCASE);
CREATE INDEX customers_middle_name ON customers(middle_name COLLATE NOCASE);
CREATE INDEX customers_last_name ON customers(last_name COLLATE NOCASE);
CREATE INDEX customers_contact_number ON customers(contact_number COLLATE NOCASE);
CREATE INDEX customers_created ON customers(created_at);
CREATE INDEX customers_updated ON customers(updated_at);
CREATE INDEX customers_deleted ON customers(deleted_at);

CREATE TABLE providers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);

CREATE TABLE connected_accounts (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  owner_type TEXT NOT NULL CHECK (owner_type IN ('User', 'Customer')),
  owner_id INTEGER NOT NULL,
  provider_id INTEGER NOT NULL REFERENCES providers(id),
  provider_uid TEXT NOT NULL,
  provider_email TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX connected_accounts_owner ON connected_accounts(owner_id, owner_type);

CREATE TABLE conference_accounts (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  owner_type TEXT NOT NULL CHECK (owner_type IN ('User', 'Customer')),
  owner_id INTEGER NOT NULL,
  connected_account_id INTEGER REFERENCES connected_accounts(id),
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX conference_accounts_owner ON conference_accounts(owner_id, owner_type);

CREATE TABLE calendars (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  owner_type TEXT NOT NULL CHECK (owner_type IN ('User', 'Customer')),
  owner_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  calendar_id INTEGER NOT NULL REFERENCES calendars(id),
  title TEXT NOT NULL,
  start TEXT NOT NULL,
  "end" TEXT NOT NULL,
  body TEXT,
  location TEXT,
  cancel_note TEXT,
  canceled_by_id INTEGER,
  canceled_by_type TEXT CHECK (canceled_by_type IN ('User', 'Customer')),
  public_id TEXT,
  provider_event_id TEXT,
  customer_id INTEGER REFERENCES customers(id),
  meeting_link_id INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX events_calendar ON events(calendar_id);

CREATE TABLE event_attendees (
  id INTEGER PRIMARY KEY,
  event_id INTEGER NOT NULL REFERENCES events(id),
  email TEXT NOT NULL,
  name TEXT,
  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
  is_organizer INTEGER NOT NULL DEFAULT 0 CHECK (is_organizer IN (0, 1)),
  customer_id INTEGER REFERENCES customers(id),
  calendar_id INTEGER REFERENCES calendars(id)
);
CREATE INDEX event_attendees_event ON event_attendees(event_id);

CREATE TABLE conferences (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  online_conference_account_id INTEGER NOT NULL REFERENCES conference_accounts(id),
  public_id TEXT NOT NULL,
  title TEXT NOT NULL,
  is_public INTEGER NOT NULL CHECK (is_public IN (0, 1)),
  backer_event_id INTEGER REFERENCES events(id),
  started_at TEXT,
  ended_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE UNIQUE INDEX conferences_public_id_live ON conferences(public_id, tenant_id) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX conferences_backer_live ON conferences(backer_event_id) WHERE deleted_at IS NULL AND backer_event_id IS NOT NULL;

CREATE TABLE conference_attendees (
  id INTEGER PRIMARY KEY,
  online_conference_id INTEGER NOT NULL REFERENCES conferences(id),
  email TEXT NOT NULL,
  name TEXT NOT NULL,
  attendee_type TEXT CHECK (attendee_type IN ('User', 'Customer')),
  attendee_id INTEGER,
  joined_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX conference_attendees_conference ON conference_attendees(online_conference_id);
CREATE UNIQUE INDEX conference_attendees_email_live
  ON conference_attendees(online_conference_id, email COLLATE NOCASE) WHERE deleted_at IS NULL;

CREATE TABLE recordings (
  id INTEGER PRIMARY KEY,
  online_conference_id INTEGER NOT NULL REFERENCES conferences(id),
  status INTEGER NOT NULL CHECK (status IN (1, 2, 3, 4)),
  file_name TEXT,
  path TEXT,
  started_at TEXT,
  stopped_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX recordings_conference ON recordings(online_conference_id);
`,
  },
  {
    version: 2,
    name: 'tenant indexes for lists of small tenants',
    // Partial on `tenant_id > 0`, true of every row (tenant ids start at 1), so that only a query
    // containing that term sees the index: hidden by `+tenant_id` instead, the planner still
    // skip-scanned it for `deleted_at IS NULL` (a big tenant's page went from 0.06 to 25 ms) and
    // stopped using the covering users_email_live for counts (4.6 -> 15 ms).
    // (tenant_id, deleted_at): a live list is one range in id order, and counting it reads only the index.
    sql: `
CREATE INDEX users_tenant ON users(tenant_id, deleted_at) WHERE tenant_id > 0;
CREATE INDEX customers_tenant ON customers(tenant_id, deleted_at) WHERE tenant_id > 0;
`,
  },
  {
    version: 3,
    name: 'covering index for counts filtered by department',
    // A large tenant's department count reads only this index (8.6 -> 0.2 ms at 100,000 users).
    // Partial on `tenant_id > 0` like migration 2: as a plain index the planner skip-scanned it
    // for every list of a large tenant (`ANY(department_id) AND tenant_id=?`, pages 0.06 -> 90 ms).
    sql: `
CREATE INDEX users_department_tenant ON users(department_id, tenant_id, deleted_at) WHERE tenant_id > 0;
`,
  },
  {
    version: 4,
    name: 'tenant index for the online conference list',
    // The list's tenant index, partial on `tenant_id > 0` like migration 2.
    sql: `
CREATE INDEX conferences_tenant ON conferences(tenant_id, deleted_at) WHERE tenant_id > 0;
`,
  },
  {
    version: 5,
    name: 'invitations outbox',
    // One row per invitation a user create would send (decisions §11); nothing is mailed. Read
    // only per tenant in id order, and small: a plain tenant index cannot mislead the planner.
    sql: `
CREATE TABLE invitations (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  email TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX invitations_tenant ON invitations(tenant_id, id);
`,
  },
  {
    version: 6,
    name: "a deleted conference's public_id and backer_event_id stay taken",
    // Decisions §11: conferences are deleted softly and their public_id and backing event are
    // never handed out again, so the unique indexes cover deleted rows too. Before this version
    // no conference could be deleted, so no existing data can violate them.
    sql: `
DROP INDEX conferences_public_id_live;
DROP INDEX conferences_backer_live;
CREATE UNIQUE INDEX conferences_public_id ON conferences(public_id, tenant_id);
CREATE UNIQUE INDEX conferences_backer ON conferences(backer_event_id) WHERE backer_event_id IS NOT NULL;
`,
  },
  {
    version: 7,
    name: 'webhook destinations, the outbox of deliveries and their attempts, meeting links',
    // Decisions §13: a tenant's destinations. The secret is stored as given (the HMAC needs it)
    // and never printed after creation. `events` is a JSON array of types, NULL for all of them.
    // Removal is soft so that the deliveries made for a destination keep naming it.
    // A delivery is written in the transaction of the change that produced its event (an outbox);
    // `event_id` is the X-Webhook-Id, shared by the event's deliveries to every destination.
    // `lease_until` marks a delivery a sender has claimed; `attempt_count` counts the attempts
    // of the current round (a redelivery starts a new one), `webhook_attempts` keeps them all.
    // The partial index holds only what is still to send, so the sender's poll reads few rows.
    // A meeting link is a booking page of a calendar: booking through it makes an event of
    // `duration_minutes` (whose `meeting_link_id` names the link).
    sql: `
CREATE TABLE webhook_destinations (
  id TEXT PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  url TEXT NOT NULL,
  events TEXT,
  secret TEXT NOT NULL,
  created_at TEXT NOT NULL,
  secret_rotated_at TEXT,
  deleted_at TEXT
);
CREATE INDEX webhook_destinations_tenant ON webhook_destinations(tenant_id, deleted_at);
CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  destination_id TEXT NOT NULL REFERENCES webhook_destinations(id),
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'canceled')),
  attempt_count INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  created_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_tenant ON webhook_deliveries(tenant_id, id);
CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY,
  delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  at TEXT NOT NULL,
  status_code INTEGER,
  error TEXT
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, id);
CREATE TABLE meeting_links (
  id INTEGER PRIMARY KEY,
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  calendar_id INTEGER NOT NULL REFERENCES calendars(id),
  name TEXT NOT NULL,
  duration_minutes INTEGER NOT NULL CHECK (duration_minutes > 0),
  created_at TEXT NOT NULL
);
CREATE INDEX meeting_links_tenant ON meeting_links(tenant_id, id);
`,
  },
  {
    version: 8,
    name: "users' JSON text, stored",
    // The hot GET and list paths answered each user by formatting fifteen columns into JSON text
    // per request (a page of 15: 27 µs of SQLite's time, 11 µs reading the text stored). Triggers
    // keep `json` equal to that text on every write, by any process: a user's insert or update,
    // and a department's rename. Its fields are `USER_JSON_FIELDS` as this migration wrote them;
    // the store contract suite checks the stored text against `JSON.stringify` of the user, so a
    // change of fields needs a migration that rewrites these triggers and the column.
    sql: `
ALTER TABLE users ADD COLUMN json TEXT;
CREATE TRIGGER users_json_insert AFTER INSERT ON users BEGIN
  UPDATE users SET json = ${userJsonOf('NEW.id')} WHERE id = NEW.id;
END;
CREATE TRIGGER users_json_update AFTER UPDATE OF ${USER_JSON_SOURCES} ON users BEGIN
  UPDATE users SET json = ${userJsonOf('NEW.id')} WHERE id = NEW.id;
END;
CREATE TRIGGER users_json_department AFTER UPDATE OF name ON departments BEGIN
  UPDATE users SET json = ${userJsonOf('users.id')} WHERE department_id = NEW.id;
END;
UPDATE users SET json = ${userJsonOf('users.id')};
`,
  },
  {
    version: 9,
    name: 'covering indexes for the counts of filtered lists',
    // A large tenant's filtered count read every matching row from the table (whose rows carry
    // their JSON text) or scanned the table: at 1M users, status Equal 3.2 s and last_name
    // Contains 15 s cold. Scanning or seeking one of these instead reads the index alone
    // (43 ms and 0.4 s). Partial on tenant_id > 0 like migration 3's: a page never says so for a
    // large tenant, so the planner cannot pick them there (unrestricted, (status, tenant_id,
    // deleted_at) made every page of the big tenant a skip-scan and a sort of the whole tenant);
    // the count names its column's index (list-query.ts, `ColumnDef.countIndex`).
    sql: `
${COUNT_INDEXES.map(countIndexSql).join('\n')}
`,
  },
  {
    version: 10,
    name: 'trigram indexes for Contains, and count indexes for the remaining filter attributes',
    // See trigram.ts. At 1M users a cold `last_name` Contains `son` counted 0.3-0.7 s through
    // migration 9's index, and customers' `address` Contains 10-17 s through the table; through
    // the trigram table and the tenant index, 0.1 s. The count indexes give Equal and ranges on
    // these attributes what migration 9 gave the others (`timezone` Equal counted 0.3-0.6 s).
    sql: `
${RELEASED_TRIGRAM_TABLES.map(trigramDdl).join('\n')}
${MORE_COUNT_INDEXES.map(countIndexSql).join('\n')}
`,
  },
  {
    version: 11,
    name: 'injected fault rules',
    // Rules of `admin faults` (issue 25): instance-wide, so no tenant leads a key. `matched` and
    // `remaining` are what `serve` counts per matched request.
    sql: `
CREATE TABLE fault_rules (
  id INTEGER PRIMARY KEY,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER,
  rate REAL NOT NULL CHECK (rate > 0 AND rate <= 1),
  latency_ms INTEGER,
  times INTEGER,
  remaining INTEGER,
  matched INTEGER NOT NULL DEFAULT 0,
  tenant_id INTEGER REFERENCES tenants(id),
  seed INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  CHECK (status IS NOT NULL OR latency_ms IS NOT NULL)
);
`,
  },
  {
    version: 12,
    name: 'the manual clock',
    // One row, written by `serve --clock manual` and `admin clock` (src/admin/clock.ts).
    sql: `
CREATE TABLE instance_clock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  at_ms INTEGER NOT NULL,
  manual INTEGER NOT NULL CHECK (manual IN (0, 1))
);
`,
  },
  {
    version: 13,
    name: 'exact row counters per tenant for unfiltered list totals, tenant indexes of all rows in id order, indexes of derived addresses',
    // See store/list-counts.ts. At 1M users an unfiltered total after a write counted the whole
    // covering tenant index (about 0.1 s on a quiet core); the counter row answers it at once.
    // The tenant indexes (partial like migration 2's) give a `with_trashed` page in id order the
    // deferred join that live pages have (list-query.ts, `ListDef.tenantIdsIndex`): the middle
    // page of a million users stepped over half a million rows with their JSON text (0.2 s).
    // The expression indexes let a list ordered by the customers' derived `address` and
    // `city_country` walk them as it walks a column's index (the list compiler's ORDER BY is
    // the same expression, COLLATE NOCASE): at 1M customers the first page sorted the table,
    // 0.4 s of CPU, now under 1 ms.
    sql: `${listCountsDdl()}
CREATE INDEX users_tenant_ids ON users(tenant_id) WHERE tenant_id > 0;
CREATE INDEX customers_tenant_ids ON customers(tenant_id) WHERE tenant_id > 0;
CREATE INDEX customers_address ON customers(${addressSql('')} COLLATE NOCASE);
CREATE INDEX customers_city_country ON customers(${cityCountrySql('')} COLLATE NOCASE);
`,
  },
  {
    version: 14,
    name: 'the trigram tables written once per batch of pending rows',
    // See trigram.ts: migration 10's triggers wrote each row's texts to the FTS5 table, which
    // wrote a segment per insert in a commit group (a customer's insert cost about 95 µs of CPU
    // more than without them). The FTS tables hold every row's texts already: nothing is pending.
    sql: RELEASED_TRIGRAM_TABLES.map(trigramPendingDdl).join('\n'),
  },
  {
    version: 15,
    name: "one index per customers' attribute instead of two",
    // See MERGED_COUNT_INDEXES: a customer's insert wrote 20 indexes, now 13; each was a B-tree
    // insert and a page more to write at each commit (docs/performance.md).
    sql: MERGED_COUNT_INDEXES.map(mergedIndexSql('customers')).join('\n'),
  },
  {
    version: 16,
    name: 'the list counters per id bucket',
    // See store/list-counts.ts: the page in the middle of a million users stepped over half a
    // million index entries (13-75 ms); the counters' running sum per bucket of 4,096 ids finds
    // the page's bucket, and the page steps over that bucket's entries alone. Still one upsert per
    // counted row write.
    sql: `${dropListCountsDdl()}
${listCountsDdl('bucket')}`,
  },
  {
    version: 17,
    name: "one index per users' attribute instead of two, but status and department_id",
    // See USERS_MERGED_COUNT_INDEXES: the users had 22 indexes, now 15; each is a build of the
    // whole table (its JSON text included) in a bulk load, and a B-tree insert per row written.
    sql: USERS_MERGED_COUNT_INDEXES.map(mergedIndexSql('users')).join('\n'),
  },
  {
    version: 18,
    name: 'the trigram tables hold the live rows alone, each with its tenant',
    // See trigram.ts: a Contains count looked each FTS match up in the tenant index (at 1M
    // customers 2/3 of a broad value's count); the tenant's phrase in the FTS query answers the
    // same. Writes the texts of every live row again: at 1M users and 1M customers 27 s wall,
    // 14 s of user CPU (75 s and 26 s with FTS5's default `hashsize`), on a shared 2-core machine.
    sql: RELEASED_TRIGRAM_TABLES.map(trigramLiveTenantDdl).join('\n'),
  },
  {
    version: 19,
    name: "the list counters hold each bucket's stamp bounds",
    // See store/stamp-bounds.ts: a date range's total counted every match through the stamp's
    // index (at 1M users, about 475,000 entries for the middle instant, 42-49 ms cold); the
    // buckets wholly on one side of the instant are summed from the counters instead, and only
    // the few that straddle it are counted.
    sql: stampBoundsDdl(),
  },
  {
    version: 20,
    name: "the customers' city_country in a trigram table of its own",
    // See trigram.ts: FTS5 reads a term's whole doclist, every column's positions, even for a
    // phrase filtered to one column, and a city's or country's trigrams stood there twice per
    // customer (in `address` and in `city_country`). Writes every live customer's texts again:
    // at 1M users and 1M customers about 21 s wall on a shared 2-core machine (load average 6).
    sql: trigramSplitDdl(RELEASED_TRIGRAM_TABLES[1], trigramTablesOf('customers')),
  },
];

/** Applies every migration newer than the database's `user_version`; a no-op when current. */
export function migrate(db: Db): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = MIGRATIONS[MIGRATIONS.length - 1].version;
  if (current > latest) throw new Error(`Database schema version ${current} is newer than this confctl (${latest}).`);
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      // Re-read under the write lock: another process may have migrated meanwhile.
      if ((db.pragma('user_version', { simple: true }) as number) >= m.version) return;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return latest;
}

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
