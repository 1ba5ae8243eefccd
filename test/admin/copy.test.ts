import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyToPostgres, type CopyOptions, planCopy, tablesInForeignKeyOrder } from '../../src/admin/copy.js';
import { AdminError } from '../../src/admin/errors.js';
import { seedBulk, seedDemo } from '../../src/admin/seed/index.js';
import { initFirstTenant } from '../../src/local/init.js';
import { atOnce, openLocalSync } from '../at-once.js';
import { readTables } from '../../src/store/index.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { createTestDatabase, type TestDatabase } from '../pg/database.js';

/**
 * `admin copy`'s logic (src/admin/copy.ts): a SQLite instance with the demo data set, soft-deleted
 * rows, an invitation, a webhook destination with a delivery and its attempt, copied into a fresh
 * PostgreSQL database, then compared table by table.
 */
const root = mkdtempSync(join(tmpdir(), 'confctl-copy-'));
const dataDir = join(root, 'data');
const databases: TestDatabase[] = [];
let source: { tables: string[]; secret: string; mediaDir: string };

beforeAll(async () => {
  const local = openLocalSync(dataDir, {});
  try {
    const { tenant } = atOnce(initFirstTenant(local.store))!;
    atOnce(seedDemo(local.store, tenant.id, { mediaDir: local.layout.mediaDir }));
    const store = local.store;
    const user = store.users.get(tenant.id, 1)!;
    store.invitations.insert(tenant.id, { user_id: user.id, email: user.email });
    store.webhookDestinations.create({ tenant_id: tenant.id, url: 'https://hooks.example.com/a', events: null, secret: 'whsec_test' });
    store.webhookOutbox.enqueue(tenant.id, 'events.created', { id: 1, calendar_id: 1 });
    const claimed = store.webhookOutbox.claim('2999-01-01T00:00:00.000Z', '2999-01-01T00:01:00.000Z')!;
    store.webhookOutbox.settle(claimed.id, { at: '2999-01-01T00:00:00.500Z', status_code: 500, error: null }, { retryAt: '2999-01-01T00:05:00.000Z' });
    const other = store.tenants.create('other.test', ['www.other.test']);
    store.roles.create(other.id, 'Admin');
    store.keys.revoke(store.keys.create({ tenant_id: other.id, name: 'old', permissions: ['*'] }).record.id);
    // An injected fault rule of the instance moves with it, as every other table does.
    store.faults.add({ method: 'POST', path: '/customers', status: 503, rate: 0.5, latency_ms: 1500, times: 2, tenant_id: other.id, seed: 7 });
    // So does a manual clock's state (the copy resumes where the source's clock stands).
    store.clock.put({ at_ms: Date.parse('2030-01-01T00:00:00.000Z'), manual: true });
    source = { tables: [], secret: local.signingSecret, mediaDir: local.layout.mediaDir };
  } finally {
    local.store.close();
  }
  source.tables = (await readTables(join(dataDir, 'confctl.db'), async (s) => tablesInForeignKeyOrder(s.tables))).map((t) => t.name);
});
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
  rmSync(root, { recursive: true, force: true });
});

/** A fresh database's URL, with a password (the test server trusts local connections, so any is accepted). */
async function freshDatabase(): Promise<string> {
  const db = await createTestDatabase();
  databases.push(db);
  const url = new URL(db.url);
  url.password = 'hunter2';
  return url.href;
}

const options = (to: string, extra: Partial<CopyOptions> = {}): CopyOptions => ({
  from: dataDir,
  to,
  mediaFrom: source.mediaDir,
  mediaTo: join(root, `media-${databases.length}`),
  replace: false,
  ...extra,
});

/** Every row of a SQLite table, as PostgreSQL answers them (ids as numbers, via the store's pool), sorted. */
function sqliteRows(table: string): Record<string, unknown>[] {
  const db = new Database(join(dataDir, 'confctl.db'), { readonly: true });
  try {
    return sortRows(db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]);
  } finally {
    db.close();
  }
}
async function postgresRows(pool: pg.Pool, table: string): Promise<Record<string, unknown>[]> {
  return sortRows((await pool.query(`SELECT * FROM "${table}"`)).rows);
}
const sortRows = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort().map((r) => JSON.parse(r) as Record<string, unknown>);

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();

describe('copyToPostgres', () => {
  let url: string;
  let store: PostgresStore;
  let summary: Awaited<ReturnType<typeof copyToPostgres>>;
  beforeAll(async () => {
    url = await freshDatabase();
    summary = await copyToPostgres(options(url));
    store = await openPostgresStore(url);
  });
  afterAll(() => store?.close());

  it('reads every table of SQLite\'s schema, parents before children', () => {
    expect(source.tables).toEqual(expect.arrayContaining(['tenants', 'tenant_domains', 'access_keys', 'roles', 'departments', 'users', 'customers', 'providers',
      'connected_accounts', 'conference_accounts', 'calendars', 'events', 'event_attendees', 'conferences', 'conference_attendees', 'recordings',
      'invitations', 'webhook_destinations', 'webhook_deliveries', 'webhook_attempts', 'meeting_links', 'fault_rules', 'instance_clock', 'list_counts']));
    expect(source.tables).toHaveLength(24);
    const before = (a: string, b: string) => expect(source.tables.indexOf(a)).toBeLessThan(source.tables.indexOf(b));
    before('tenants', 'tenant_domains');
    before('roles', 'users');
    before('departments', 'users');
    before('calendars', 'events');
    before('customers', 'events');
    before('events', 'conferences');
    before('conference_accounts', 'conferences');
    before('webhook_destinations', 'webhook_deliveries');
    before('webhook_deliveries', 'webhook_attempts');
  });

  it('copies every table row for row: same ids, timestamps and soft-deleted rows', async () => {
    expect(summary.tables.map((t) => t.table)).toEqual(source.tables);
    for (const table of source.tables) {
      const expected = sqliteRows(table);
      expect(expected.length, `${table} has rows to copy`).toBeGreaterThan(0);
      expect(summary.tables.find((t) => t.table === table)?.rows, table).toBe(expected.length);
      expect(await postgresRows(store.pool, table), table).toEqual(expected);
    }
    expect(summary.rows).toBe(summary.tables.reduce((n, t) => n + t.rows, 0));
    const deleted = await store.pool.query('SELECT count(*) AS n FROM users WHERE deleted_at IS NOT NULL');
    expect(deleted.rows[0].n).toBe(3);
    expect((await store.pool.query('SELECT count(*) AS n FROM customers WHERE deleted_at IS NOT NULL')).rows[0].n).toBe(3);
    expect((await store.pool.query('SELECT count(*) AS n FROM access_keys WHERE revoked_at IS NOT NULL')).rows[0].n).toBe(1);
  });

  it('the store reads the copied rows as the SQLite store does', async () => {
    const local = openLocalSync(dataDir, {});
    try {
      expect(await store.tenants.list()).toEqual(local.store.tenants.list());
      expect(await store.keys.list()).toEqual(local.store.keys.list());
      const tenant = local.store.tenants.list()[0];
      expect(await store.users.get(tenant.id, 1)).toEqual(local.store.users.get(tenant.id, 1));
      expect(await store.roles.list(tenant.id)).toEqual(local.store.roles.list(tenant.id));
    } finally {
      local.store.close();
    }
  });

  it('leaves planner statistics and the visibility map for every copied table (VACUUM (ANALYZE)): counts can be index-only scans', async () => {
    const { rows } = await store.pool.query<{ relname: string }>(
      'SELECT relname FROM pg_stat_user_tables WHERE (last_analyze IS NULL OR last_vacuum IS NULL) AND relname = ANY($1)',
      [source.tables],
    );
    expect(rows).toEqual([]);
    const users = await store.pool.query("SELECT relpages, relallvisible FROM pg_class WHERE relname = 'users'");
    expect(users.rows[0].relpages).toBeGreaterThan(0);
    expect(users.rows[0].relallvisible).toBe(users.rows[0].relpages);
  });

  it('puts back every index, foreign key and trigger it set aside, as the migrations made them, and moves the change counters', async () => {
    const schema = async (pool: pg.Pool) => ({
      indexes: (await pool.query("SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname")).rows,
      keys: (await pool.query("SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def, convalidated FROM pg_constraint WHERE contype = 'f' ORDER BY conname")).rows,
      triggers: (await pool.query('SELECT tgrelid::regclass::text AS t, tgname, tgenabled FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname')).rows,
    });
    const fresh = await openPostgresStore(await freshDatabase());
    try {
      const expected = await schema(fresh.pool);
      expect(expected.indexes.length).toBeGreaterThan(40);
      expect(expected.keys.length).toBeGreaterThan(20);
      expect(await schema(store.pool)).toEqual(expected);
      const counters = (await store.pool.query('SELECT scope, counter FROM confctl_changes')).rows;
      expect(counters.length).toBeGreaterThan(0);
      for (const c of counters) expect(Number(c.counter), c.scope).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });

  it('the next insert gets an id past the copied ones', async () => {
    const max = async (table: string) => (await store.pool.query(`SELECT max(id) AS m FROM ${table}`)).rows[0].m as number;
    const [tenant] = await store.tenants.list();
    const departments = await max('departments');
    expect((await store.departments.create(tenant.id, 'Copied after')).id).toBe(departments + 1);
    const tenants = await max('tenants');
    expect((await store.tenants.create('after.test')).id).toBe(tenants + 1);
    const users = await max('users');
    const user = await store.units.createUser(tenant.id, { first_name: 'New', last_name: 'Person', email: 'new.person@example.com', role: 'Member' }, false);
    expect(user.id).toBe(users + 1);
  });

  it("stores the instance's signing secret as the database's", async () => {
    expect(summary.signing_secret).toBe(true);
    expect(await store.shared.signingSecret(() => 'a-secret-made-later')).toBe(source.secret);
  });

  it('copies the recording files into the target media directory', () => {
    const files = filesUnder(source.mediaDir);
    expect(files.length).toBeGreaterThan(0);
    expect(filesUnder(summary.media.to)).toEqual(files);
    for (const f of files) expect(readFileSync(join(summary.media.to, f)).equals(readFileSync(join(source.mediaDir, f)))).toBe(true);
    expect(summary.media).toMatchObject({ from: source.mediaDir, files: files.length, same: false });
    expect(summary.media.bytes).toBeGreaterThan(1000);
  });

  it('never names the password of the URL', () => {
    expect(JSON.stringify(summary)).not.toContain('hunter2');
    expect(summary.to).toMatch(/^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/confctl_test_/);
  });
});

describe('a database that holds confctl data', () => {
  it('is refused without replace (nothing written, no file copied); replace empties it and copies again', async () => {
    const url = await freshDatabase();
    const store = await openPostgresStore(url);
    try {
      // What serve --database makes of an empty database: its own first tenant.
      const tenant = await store.tenants.create('mine.test');
      await store.departments.create(tenant.id, 'Kept');
      const mediaTo = join(root, 'refused-media');
      const refused = await copyToPostgres(options(url, { mediaTo })).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AdminError);
      expect((refused as AdminError).kind).toBe('conflict');
      expect((refused as AdminError).message).toMatch(/already holds confctl data \(1 tenant\); pass --replace to empty it first/);
      await expect(planCopy(options(url, { mediaTo }))).rejects.toThrow(/already holds confctl data/);
      expect((await store.tenants.list()).map((t) => t.primary_domain)).toEqual(['mine.test']);
      expect((await store.pool.query('SELECT name FROM departments')).rows).toEqual([{ name: 'Kept' }]);
      expect(() => readdirSync(mediaTo)).toThrow();

      const planned = await planCopy(options(url, { mediaTo, replace: true }));
      expect(planned.replaced).toBe(true);
      await store.pool.query("INSERT INTO confctl_settings (name, value) VALUES ('signing_secret', 'the-old-one')");
      const replaced = await copyToPostgres(options(url, { mediaTo, replace: true }));
      expect(replaced.replaced).toBe(true);
      expect(replaced.tables).toEqual(planned.tables);
      expect((await store.tenants.list()).map((t) => t.primary_domain)).toEqual(['localhost', 'other.test']);
      expect((await store.pool.query("SELECT count(*) AS n FROM departments WHERE name = 'Kept'")).rows[0].n).toBe(0);
      for (const table of source.tables) expect(await postgresRows(store.pool, table), table).toEqual(sqliteRows(table));
      expect(await store.shared.signingSecret(() => 'x')).toBe(source.secret);
    } finally {
      await store.close();
    }
  });

  it('a source without a database is not found; the target is left alone', async () => {
    const url = await freshDatabase();
    const missing = await copyToPostgres({ ...options(url), from: join(root, 'nowhere') }).catch((e: unknown) => e);
    expect((missing as AdminError).kind).toBe('not_found');
    expect((missing as Error).message).toContain('holds no confctl instance');
  });
});

describe('failures and concurrent writers', () => {
  /** A small instance of its own whose row `sql` makes unacceptable to PostgreSQL. */
  function brokenInstance(sql: string): string {
    const dir = join(root, `broken-${Math.random().toString(36).slice(2)}`);
    const local = openLocalSync(dir, {});
    try {
      const { tenant } = atOnce(initFirstTenant(local.store))!;
      atOnce(seedDemo(local.store, tenant.id, { mediaDir: local.layout.mediaDir }));
    } finally {
      local.store.close();
    }
    const db = new Database(join(dir, 'confctl.db'));
    db.exec(sql);
    db.close();
    return dir;
  }

  it('a copy that fails part-way leaves the database as it was, with --replace too', async () => {
    // PostgreSQL's text cannot hold a NUL character; SQLite's can. Users are copied after tenants, keys, roles...
    const broken = brokenInstance("UPDATE users SET first_name = 'Nul' || char(0) || 'Byte' WHERE id = 25");
    const url = await freshDatabase();
    const mediaTo = join(root, 'failed-media');
    await expect(copyToPostgres({ ...options(url, { mediaTo }), from: broken, mediaFrom: join(broken, 'media') })).rejects.toThrow(/0x00/);
    // The files were copied before the transaction failed; they stay.
    expect(filesUnder(mediaTo)).toEqual(filesUnder(join(broken, 'media')));
    const store = await openPostgresStore(url);
    try {
      expect(await store.tenants.list()).toEqual([]);
      expect((await store.pool.query('SELECT count(*) AS n FROM roles')).rows[0].n).toBe(0);
      expect((await store.pool.query('SELECT count(*) AS n FROM confctl_settings')).rows[0].n).toBe(0);

      await copyToPostgres(options(url));
      const kept = await postgresRows(store.pool, 'users');
      await expect(copyToPostgres({ ...options(url, { replace: true }), from: broken, mediaFrom: join(broken, 'media') })).rejects.toThrow(/0x00/);
      expect(await postgresRows(store.pool, 'users')).toEqual(kept);
      expect(await postgresRows(store.pool, 'tenants')).toEqual(sqliteRows('tenants'));
      expect(await store.shared.signingSecret(() => 'x')).toBe(source.secret);
    } finally {
      await store.close();
    }
  });

  it('a row whose foreign key names no row fails the copy, as a row-by-row check would, and leaves the database as it was', async () => {
    const broken = brokenInstance('PRAGMA foreign_keys = OFF; UPDATE users SET department_id = 999 WHERE id = 3');
    const url = await freshDatabase();
    await expect(copyToPostgres({ ...options(url), from: broken, mediaFrom: join(broken, 'media') })).rejects.toThrow(/violates foreign key constraint/);
    const store = await openPostgresStore(url);
    try {
      expect(await store.tenants.list()).toEqual([]);
      const keys = await store.pool.query("SELECT count(*) AS n FROM pg_constraint WHERE contype = 'f' AND conrelid = 'users'::regclass");
      expect(keys.rows[0].n).toBe(3);
    } finally {
      await store.close();
    }
  });

  it('reads one snapshot of the instance while another connection writes to it', async () => {
    const dir = brokenInstance('SELECT 1');
    const url = await freshDatabase();
    // Each write adds a department and a customer in one transaction; departments are copied before customers.
    const writer = new Database(join(dir, 'confctl.db'));
    writer.pragma('busy_timeout = 5000');
    const pair = writer.transaction((n: number) => {
      const now = new Date().toISOString();
      writer.prepare('INSERT INTO departments (tenant_id, name, created_at, updated_at) VALUES (1, ?, ?, ?)').run(`Concurrent ${n}`, now, now);
      writer.prepare('INSERT INTO customers (tenant_id, first_name, last_name, email, created_at, updated_at) VALUES (1, ?, ?, ?, ?, ?)').run('C', String(n), `c${n}@concurrent.example.com`, now, now);
    });
    let writes = 0;
    let writing = true;
    const loop = (async () => {
      while (writing) {
        pair(writes++);
        await new Promise((r) => setImmediate(r));
      }
    })();
    try {
      await copyToPostgres({ ...options(url), from: dir, mediaFrom: join(dir, 'media'), rowsPerChunk: 1 });
    } finally {
      writing = false;
      await loop;
      writer.close();
    }
    const store = await openPostgresStore(url);
    try {
      const departments = (await store.pool.query("SELECT count(*) AS n FROM departments WHERE name LIKE 'Concurrent %'")).rows[0].n as number;
      const customers = (await store.pool.query("SELECT count(*) AS n FROM customers WHERE email LIKE '%@concurrent.example.com'")).rows[0].n as number;
      expect(writes).toBeGreaterThan(customers + 10);
      expect(customers).toBe(departments);
    } finally {
      await store.close();
    }
  });
});

describe('batches', () => {
  it('copies rows across chunk boundaries of the COPY stream (7 rows a chunk), with the media directory shared', async () => {
    const url = await freshDatabase();
    const shared = await copyToPostgres(options(url, { rowsPerChunk: 7, mediaTo: source.mediaDir }));
    expect(shared.media.same).toBe(true);
    const store = await openPostgresStore(url);
    try {
      for (const table of ['users', 'customers', 'events', 'conference_attendees']) expect(await postgresRows(store.pool, table), table).toEqual(sqliteRows(table));
    } finally {
      await store.close();
    }
  });

  it('copies a large table in many chunks (its speed is measured by npm run bench, not here)', async () => {
    const big = join(root, 'big');
    const local = openLocalSync(big, {});
    try {
      const { tenant } = atOnce(initFirstTenant(local.store))!;
      atOnce(seedBulk(local.store, tenant.id, { users: 20_000, customers: 0 }));
    } finally {
      local.store.close();
    }
    // The source's list counters are copied, then counted again, not trusted: spoiled here, the totals and stamp bounds stay exact.
    const spoil = new Database(join(big, 'confctl.db'));
    spoil.prepare("UPDATE list_counts SET live = 1, trashed = 1, min_created_at = '9', max_created_at = '0', min_updated_at = '~', max_updated_at = ''").run();
    spoil.close();
    const url = await freshDatabase();
    const copied = await copyToPostgres({ from: big, to: url, mediaFrom: join(big, 'media'), mediaTo: join(root, 'big-media'), replace: false });
    expect(copied.tables.find((t) => t.table === 'users')?.rows).toBe(20_000);
    const store = await openPostgresStore(url);
    try {
      const tenant = (await store.tenants.list())[0];
      const page = await store.users.list(tenant.id, { page_size: 1, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'desc', filter: null });
      expect(page.total).toBe(20_000);
      const live = await store.pool.query<{ n: string }>('SELECT count(*) AS n FROM users WHERE deleted_at IS NULL');
      const livePage = await store.users.list(tenant.id, { page_size: 1, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null });
      expect(livePage.total).toBe(Number(live.rows[0].n));
      const bounds = await store.pool.query(
        `SELECT count(*)::int AS buckets, count(*) FILTER (WHERE c.min_created_at = r.lc AND c.max_created_at = r.hc AND c.min_updated_at = r.lu AND c.max_updated_at = r.hu)::int AS exact
         FROM list_counts c JOIN (SELECT tenant_id, id >> 12 AS bucket, min(created_at) AS lc, max(created_at) AS hc, min(updated_at) AS lu, max(updated_at) AS hu FROM users GROUP BY 1, 2) AS r
         ON c.tenant_id = r.tenant_id AND c.list = 'users' AND c.bucket = r.bucket`,
      );
      expect(bounds.rows[0].buckets).toBeGreaterThan(1);
      expect(bounds.rows[0].exact).toBe(bounds.rows[0].buckets);
    } finally {
      await store.close();
    }
  }, 120_000);
});
