import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { MIGRATIONS, migrate, SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { openStore } from '../../src/store/sqlite/index.js';
import { BUCKET_BITS } from '../../src/store/list-counts.js';

const BUCKET = 1 << BUCKET_BITS;

const dir = mkdtempSync(path.join(tmpdir(), 'confctl-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migrations and pragmas', () => {
  it('numbers migrations consecutively from 1', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('creates the whole schema and records the version', () => {
    const db = openDatabase(':memory:');
    const tables = db.prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name").pluck().all();
    expect(tables).toEqual([
      'access_keys', 'calendars', 'conference_accounts', 'conference_attendees', 'conferences', 'connected_accounts', 'customers', 'customers_text_pending',
      'departments', 'event_attendees', 'events', 'fault_rules', 'instance_clock', 'invitations', 'list_counts', 'meeting_links', 'providers', 'recordings', 'roles', 'tenant_domains', 'tenants', 'users',
      'users_text_pending', 'webhook_attempts', 'webhook_deliveries', 'webhook_destinations',
    ]);
    // The trigram indexes (FTS5, contentless) of migrations 10 and 20; the ids they may not hold yet are in the *_text_pending tables (migration 14).
    expect(db.prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'virtual' ORDER BY name").pluck().all()).toEqual([
      'customers_city_country_text',
      'customers_text',
      'users_text',
    ]);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('opens files in WAL with synchronous=NORMAL and a busy timeout', () => {
    const db = openDatabase(path.join(dir, 'pragmas.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    db.close();
  });

  it('is idempotent on reopen and keeps the data', () => {
    const file = path.join(dir, 'reopen.db');
    const s1 = openStore(file);
    const t = s1.tenants.create('keep.example');
    s1.close();
    const s2 = openStore(file);
    expect(s2.tenants.byDomain('keep.example')?.id).toBe(t.id);
    s2.close();
    const raw = new Database(file);
    expect(migrate(raw)).toBe(SCHEMA_VERSION);
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });

  it('upgrades a version-1 database with data: the tenant indexes cover existing rows and lists use them', () => {
    const file = path.join(dir, 'v1.db');
    const raw = new Database(file);
    raw.exec(MIGRATIONS[0].sql);
    raw.pragma('user_version = 1');
    raw.exec(`INSERT INTO tenants (id, created_at) VALUES (1, 'x');
      INSERT INTO users (tenant_id, first_name, last_name, email, created_at, updated_at) VALUES (1, 'A', 'B', 'a@b.c', 'x', 'x');`);
    raw.close();
    const s = openStore(file);
    expect(s.users.list(1, { page_size: 15, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null }).total).toBe(1);
    s.close();
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const names = (check.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('users_tenant', 'customers_tenant', 'users_department_tenant') ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(['customers_tenant', 'users_department_tenant', 'users_tenant']);
    expect((check.prepare('SELECT COUNT(*) AS n FROM users INDEXED BY users_tenant WHERE tenant_id = 1 AND tenant_id > 0').get() as { n: number }).n).toBe(1);
    check.close();
  });

  it("migration 15 replaces each customers' attribute's two indexes by one in place, and the lists read it", () => {
    const file = path.join(dir, 'v14.db');
    const raw = new Database(file);
    for (const m of MIGRATIONS.filter((m) => m.version <= 14)) raw.exec(m.sql);
    raw.pragma('user_version = 14');
    raw.exec(`INSERT INTO tenants (id, created_at) VALUES (1, 'x');
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
      INSERT INTO customers (tenant_id, first_name, last_name, email, created_at, updated_at)
      SELECT 1, 'F' || (i % 7), 'L' || (i % 5), 'c' || i || '@x.example', 'x', 'x' FROM n;`);
    raw.close();
    const s = openStore(file);
    const query = { page_size: 15, page_number: 2, with_trashed: false, order_by: 'first_name', order_direction: 'desc', filter: { attribute: 'last_name', type: 'text', operator: 'Equal', value: 'l3' } } as const;
    const listed = s.customers.list(1, query);
    s.close();
    const check = new Database(file);
    try {
      const indexes = check.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'customers' AND sql IS NOT NULL ORDER BY name").raw().all() as [string, string][];
      expect(indexes.map(([name]) => name)).toEqual([
        'customers_address', 'customers_city_country', 'customers_contact_number_count', 'customers_created_at_count', 'customers_deleted',
        'customers_email_count', 'customers_email_live', 'customers_first_name_count', 'customers_last_name_count', 'customers_middle_name_count',
        'customers_tenant', 'customers_tenant_ids', 'customers_updated_at_count',
      ]);
      expect(Object.fromEntries(indexes).customers_email_count).toBe('CREATE INDEX customers_email_count ON customers(email COLLATE NOCASE, id, tenant_id, deleted_at)');
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      const expected = check.prepare("SELECT id FROM customers WHERE last_name = 'l3' COLLATE NOCASE ORDER BY first_name COLLATE NOCASE DESC, id DESC LIMIT 15 OFFSET 15").pluck().all();
      expect({ total: listed.total, ids: listed.rows.map((c) => c.id) }).toEqual({ total: 60, ids: expected });
    } finally {
      check.close();
    }
  });

  it('migration 16 counts the rows of a version-15 database per id bucket in place, its triggers keep them, and deep pages read them', () => {
    const file = path.join(dir, 'v15.db');
    const raw = new Database(file);
    for (const m of MIGRATIONS.filter((m) => m.version <= 15)) raw.exec(m.sql);
    raw.pragma('user_version = 15');
    // Two tenants' customers interleaved over several buckets, some soft-deleted: tenant 1 has 8,526 live, so page 285
    // (offset 4,260) lies more than a bucket from either end and is walked from its bucket.
    raw.exec(`INSERT INTO tenants (id, created_at) VALUES (1, 'x'), (2, 'x');
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3 * ${BUCKET} + 500)
      INSERT INTO customers (tenant_id, first_name, last_name, email, created_at, updated_at, deleted_at)
      SELECT 1 + (i % 9 = 0), 'F', 'L', 'c' || i || '@x.example', 'x', 'x', CASE WHEN i % 4 = 0 THEN 'x' END FROM n;`);
    raw.close();
    const perBucket = (db: Database.Database) =>
      [
        db.prepare("SELECT tenant_id, bucket, live, trashed FROM list_counts WHERE list = 'customers' AND (live <> 0 OR trashed <> 0) ORDER BY 1, 2").raw().all(),
        db.prepare(`SELECT tenant_id, id >> ${BUCKET_BITS}, count(*) - count(deleted_at), count(deleted_at) FROM customers GROUP BY 1, 2 ORDER BY 1, 2`).raw().all(),
      ] as const;
    const s = openStore(file);
    const deep = { page_size: 15, page_number: 285, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null } as const;
    const listed = s.customers.list(1, deep);
    s.customers.insert(1, { first_name: 'New', last_name: 'One', email: 'new@x.example' });
    s.close();
    const check = new Database(file);
    try {
      expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const [counters, rows] = perBucket(check);
      expect(counters).toEqual(rows);
      expect(rows.length).toBeGreaterThanOrEqual(8);
      const expected = check.prepare('SELECT id FROM customers WHERE tenant_id = 1 AND deleted_at IS NULL AND id < (SELECT max(id) FROM customers) ORDER BY id LIMIT 15 OFFSET ?').pluck().all(284 * 15);
      expect({ total: listed.total, ids: listed.rows.map((c) => c.id) }).toEqual({ total: (rows as number[][]).filter((r) => r[0] === 1).reduce((n, r) => n + r[2], 0) - 1, ids: expected });
    } finally {
      check.close();
    }
  });

  it("migration 17 replaces each users' attribute's two indexes (but status's and department_id's) by one in place, and the lists read it", () => {
    const file = path.join(dir, 'v16.db');
    const raw = new Database(file);
    for (const m of MIGRATIONS.filter((m) => m.version < 17)) raw.exec(m.sql);
    raw.pragma('user_version = 16');
    raw.exec(`INSERT INTO tenants (id, created_at) VALUES (1, 'x'), (2, 'x');
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
      INSERT INTO users (tenant_id, first_name, last_name, email, timezone, created_at, updated_at, deleted_at)
      SELECT 1 + (i % 3 = 0), 'F' || (i % 7), 'L' || (i % 5), 'u' || i || '@x.example', 'Z' || (i % 4), 'x', 'x', CASE WHEN i % 11 = 0 THEN 'x' END FROM n;`);
    raw.close();
    const s = openStore(file);
    const query = { page_size: 15, page_number: 2, with_trashed: false, order_by: 'timezone', order_direction: 'desc', filter: { attribute: 'last_name', type: 'text', operator: 'Equal', value: 'l3' } } as const;
    const listed = s.users.list(1, query);
    s.close();
    const check = new Database(file);
    try {
      const indexes = check.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'users' AND sql IS NOT NULL ORDER BY name").raw().all() as [string, string][];
      expect(indexes.map(([name]) => name)).toEqual([
        'users_created_at_count', 'users_deleted', 'users_department', 'users_department_tenant', 'users_email_count', 'users_email_live',
        'users_first_name_count', 'users_last_name_count', 'users_role_count', 'users_status', 'users_status_count', 'users_tenant', 'users_tenant_ids',
        'users_timezone_count', 'users_updated_at_count',
      ]);
      expect(Object.fromEntries(indexes).users_timezone_count).toBe('CREATE INDEX users_timezone_count ON users(timezone COLLATE NOCASE, id, tenant_id, deleted_at)');
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      const expected = check
        .prepare("SELECT id FROM users WHERE tenant_id = 1 AND deleted_at IS NULL AND last_name = 'l3' COLLATE NOCASE ORDER BY timezone COLLATE NOCASE DESC, id DESC LIMIT 15 OFFSET 15")
        .pluck()
        .all();
      const total = check.prepare("SELECT count(*) FROM users WHERE tenant_id = 1 AND deleted_at IS NULL AND last_name = 'l3' COLLATE NOCASE").pluck().get();
      expect(expected.length).toBeGreaterThan(0);
      expect({ total: listed.total, ids: listed.rows.map((u) => u.id) }).toEqual({ total, ids: expected });
    } finally {
      check.close();
    }
  });

  it('refuses a database from a newer schema', () => {
    const file = path.join(dir, 'newer.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openStore(file)).toThrow(/newer/);
  });

  it('keeps a deleted conference\'s public_id and backing event unique (migration 5)', () => {
    const s = openStore(':memory:');
    const t = s.tenants.create('keep.example');
    const u = s.users.insert(t.id, { first_name: 'A', last_name: 'B', email: 'a@b.test' });
    const account = s.conferenceAccounts.insert(t.id, { owner_type: 'User', owner_id: u.id, name: 'Room' }).id;
    const calendar = s.calendars.insert(t.id, { owner_type: 'User', owner_id: u.id, name: 'Cal' }).id;
    const event = s.events.insert(t.id, { calendar_id: calendar, title: 'E', start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' }).id;
    const row = { online_conference_account_id: account, public_id: 'kept', title: 'T', is_public: true, backer_event_id: event };
    s.conferences.softDelete(t.id, s.conferences.insert(t.id, row).id);
    expect(() => s.conferences.insert(t.id, { ...row, backer_event_id: null })).toThrow(/UNIQUE/);
    expect(() => s.conferences.insert(t.id, { ...row, public_id: 'other' })).toThrow(/UNIQUE/);
    expect([s.conferences.publicIdTaken(t.id, 'kept'), s.conferences.backerEventTaken(t.id, event)]).toEqual([true, true]);
    s.close();
  });

  it('enforces foreign keys', () => {
    const s = openStore(':memory:');
    expect(() => s.departments.create(999, 'Nowhere')).toThrow(/FOREIGN KEY/);
    s.close();
  });
});

describe('a new database starts as a copy of the migrated image', () => {
  /** Every object of the schema and every row the migrations left, with the version. */
  function contents(db: Database.Database) {
    const schema = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name').all();
    const tables = db.prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' ORDER BY name").pluck().all() as string[];
    return { schema, rows: tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}"`).all()]), version: db.pragma('user_version', { simple: true }) };
  }
  const stepByStep = () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  };

  it('holds what running every migration leaves, in memory and as a new file (owner-only, nothing staged left)', () => {
    const reference = stepByStep();
    const expected = contents(reference);
    reference.close();
    expect(expected.version).toBe(SCHEMA_VERSION);
    const home = path.join(dir, 'image');
    mkdirSync(home);
    const file = path.join(home, 'confctl.db');
    for (const db of [openDatabase(':memory:'), openDatabase(file)]) {
      expect(contents(db)).toEqual(expected);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(home).sort()).toEqual(['confctl.db']);
  });

  it('never writes over a database that is already there, even one not migrated yet', () => {
    const file = path.join(dir, 'theirs.db');
    const theirs = new Database(file);
    theirs.exec('CREATE TABLE theirs (x)');
    theirs.close();
    const db = openDatabase(file);
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'theirs'").pluck().get()).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('fails on a missing directory as it did without the image, creating nothing', () => {
    expect(() => openDatabase(path.join(dir, 'missing', 'confctl.db'))).toThrow(/^ENOENT: no such file or directory, open '.*missing\/confctl\.db'$/);
    expect(readdirSync(dir)).not.toContain('missing');
  });
});
