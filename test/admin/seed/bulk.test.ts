import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { seedBulk } from '../../../src/admin/seed/index.js';
import { bulkCustomers, bulkDraws, bulkPlanSteps, bulkUsers } from '../../../src/admin/seed/bulk.js';
import { BULK_DEPARTMENTS } from '../../../src/admin/seed/names.js';
import { runSteps } from '../../../src/admin/steps.js';
import { q } from '../../store/contract/fixtures.js';
import { tempDir } from '../../tmp.js';
import { openStore, type SqliteStore } from '../../../src/store/sqlite/index.js';
import { atOnce } from '../../at-once.js';

/**
 * The bulk seeder's rows: `seedBulk` through the store's bulk loader (src/store/sqlite/bulk.ts)
 * stores exactly the rows the row-by-row steps store, whether the loader defers the index builds
 * or not, and the same rows as the seeder stored before the loader existed.
 */
const opened: SqliteStore[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

function open(file = join(tempDir('confctl-bulk-'), 'db.sqlite')): SqliteStore {
  const store = openStore(file);
  opened.push(store);
  return store;
}

const all = q({ with_trashed: true, page_size: 100_000 });

/** Everything a seed writes that a client or the planner can see: rows, stored JSON text, departments, the two tables' indexes in their order and their triggers. */
function contents(store: SqliteStore, tenantId: number) {
  const db = new Database(store.location, { readonly: true });
  try {
    return {
      users: store.users.list(tenantId, all).rows,
      json: db.prepare('SELECT id, json FROM users WHERE tenant_id = ? ORDER BY id').all(tenantId),
      customers: store.customers.list(tenantId, all).rows,
      departments: store.departments.list(tenantId),
      // The tenant's row counters per id bucket (migration 16) and their stamp bounds (migration 19), recounted by the loader in
      // place of the insert triggers when deferred.
      counts: db.prepare("SELECT list, bucket, live, trashed, min_created_at, max_created_at, min_updated_at, max_updated_at FROM list_counts WHERE tenant_id = ? AND list IN ('users', 'customers') ORDER BY list, bucket").all(tenantId),
      // Each table's indexes in creation order: the planner weighs them in that order (see suspend in src/store/sqlite/bulk.ts).
      indexes: db.prepare("SELECT name, tbl_name, sql FROM sqlite_schema WHERE tbl_name IN ('users', 'customers') AND type = 'index' ORDER BY tbl_name, rowid").all(),
      triggers: db.prepare("SELECT name, tbl_name, sql FROM sqlite_schema WHERE tbl_name IN ('users', 'customers') AND type = 'trigger' ORDER BY name").all(),
      // FTS5's settings as they act: a table without `hashsize` has FTS5's default, 1 MiB.
      trigramConfig: (['users', 'customers'] as const).map((table) => ({
        hashsize: 1024 * 1024,
        ...Object.fromEntries((db.prepare(`SELECT k, v FROM ${table}_text_config`).raw().all() as [string, unknown][])),
      })),
      journal: db.pragma('journal_mode', { simple: true }),
      // What the trigram indexes answer for the tenant's live rows (filled by the loader, not by the insert triggers, when
      // deferred): a pending row (migration 14) is answered by its own text, the others by the index, under their tenant
      // (migration 18).
      trigrams: (['users', 'customers'] as const).map((table) => {
        const match = db.prepare(`SELECT rowid FROM ${table}_text WHERE ${table}_text MATCH ? AND rowid NOT IN (SELECT id FROM ${table}_text_pending)`).pluck();
        const pending = new Set(db.prepare(`SELECT id FROM ${table}_text_pending`).pluck().all() as number[]);
        // every 50th row: a match reads the doclists of every trigram of the e-mail, most of them in every row
        const emails = db
          .prepare(`SELECT id, lower(email) AS email, deleted_at IS NULL AS live FROM ${table} WHERE tenant_id = ? AND id % 50 = 0 ORDER BY id`)
          .all(tenantId) as { id: number; email: string; live: number }[];
        const indexed = (r: { id: number; email: string }) => (match.all(`{email} : "${r.email}" AND {live_tenant} : "<${tenantId}>"`) as number[]).includes(r.id);
        return emails.filter((r) => (pending.has(r.id) ? r.live : indexed(r))).map((r) => r.id);
      }),
    };
  } finally {
    db.close();
  }
}

/** The reference: the seed's rows inserted one by one through the repositories, as the seeder did before its bulk loader. */
function rowByRow(store: SqliteStore, tenantId: number, counts: { users: number; customers: number }) {
  store.transaction(() => {
    const plan = runSteps(store, bulkPlanSteps(tenantId));
    const rnd = bulkDraws(tenantId);
    for (const user of bulkUsers(rnd, plan, counts.users)) store.users.insert(tenantId, user);
    for (const customer of bulkCustomers(rnd, plan, counts.customers)) store.customers.insert(tenantId, customer);
  });
}

/** Seeds through the loader with index builds deferred or not. */
function loadDirect(store: SqliteStore, tenantId: number, counts: { users: number; customers: number }, deferIndexes: boolean) {
  store.bulk.load((load) => {
    const plan = runSteps(store, bulkPlanSteps(tenantId));
    const rnd = bulkDraws(tenantId);
    load.users(tenantId, counts.users, bulkUsers(rnd, plan, counts.users), { deferIndexes });
    load.customers(tenantId, counts.customers, bulkCustomers(rnd, plan, counts.customers), { deferIndexes });
  });
}

describe('seedBulk', () => {
  it('stores the rows the seeder stored before its bulk loader (digests taken from that code)', () => {
    const store = open(':memory:');
    const t = store.tenants.create('golden.test').id;
    for (const n of ['Engineering', 'Sales', 'Support']) store.departments.create(t, n);
    atOnce(seedBulk(store, t, { users: 400, customers: 300 }));
    atOnce(seedBulk(store, t, { users: 100, customers: 50 }));
    const users = store.users.list(t, all).rows;
    const customers = store.customers.list(t, all).rows;
    const json = users.map((u) => store.users.getJson(t, u.id) ?? `deleted ${u.id}`);
    const digest = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex');
    expect([users.length, customers.length]).toEqual([500, 350]);
    expect(digest(users)).toBe('fafbc74a754a4a39f6e5dfde0bb6e28ebcf8388843b8ee727eb67ee60a91ceda');
    expect(digest(customers)).toBe('03fba9090ba011670d4309fb253a4ca4502a9fd11a9630834436b89bd1266fa5');
    expect(digest(json)).toBe('86dc4404a9577496413f8aaffbdea852ce18342304fd14d09f576a89f24b2ad8');
  });

  it('with deferred index builds stores what inserting row by row stores: rows, JSON text, departments, indexes and triggers', () => {
    const counts = { users: 1500, customers: 1000 };
    const [stepped, deferred, direct] = [open(), open(), open()];
    const tenants = [stepped, deferred, direct].map((s) => s.tenants.create('bulk.test').id);
    rowByRow(stepped, tenants[0], counts);
    loadDirect(deferred, tenants[1], counts, true);
    loadDirect(direct, tenants[2], counts, false);
    const expected = contents(stepped, tenants[0]);
    expect(expected.users).toHaveLength(1500);
    expect(expected.customers).toHaveLength(1000);
    expect(expected.indexes.length).toBeGreaterThan(20);
    // users' JSON (insert, update), each table's trigram index, row counters (insert, update, delete) and stamp bounds (update)
    expect(expected.triggers.length).toBe(16);
    // every 50th row: 30 users and 20 customers, of which 1 and 2 are trashed
    expect(expected.trigrams.map((ids) => ids.length)).toEqual([29, 18]);
    expect(contents(deferred, tenants[1])).toEqual(expected);
    expect(contents(direct, tenants[2])).toEqual(expected);
    // A second seed on top (into the deferred store, rows present: numbered after them).
    rowByRow(stepped, tenants[0], { users: 500, customers: 500 });
    loadDirect(deferred, tenants[1], { users: 500, customers: 500 }, true);
    expect(contents(deferred, tenants[1])).toEqual(contents(stepped, tenants[0]));
  });

  it("each user's stored JSON text is byte for byte JSON.stringify of the user the API answers", () => {
    const store = open();
    const t = store.tenants.create('bulk.test').id;
    loadDirect(store, t, { users: 2000, customers: 0 }, true);
    const users = store.users.list(t, all).rows;
    const { json } = contents(store, t);
    expect(json).toEqual(users.map((u) => ({ id: u.id, json: JSON.stringify(u) })));
    expect(users.filter((u) => u.department_name !== null).length).toBeGreaterThan(1500);
  });

  it('creates 50 departments for a tenant without any, most users in the first; uses a tenant\'s own departments evenly', () => {
    const store = open();
    const fresh = store.tenants.create('fresh.test').id;
    atOnce(seedBulk(store, fresh, { users: 5000, customers: 0 }));
    const departments = store.departments.list(fresh);
    expect(departments.map((d) => d.name)).toEqual([...BULK_DEPARTMENTS]);
    const db = new Database(store.location, { readonly: true });
    expect(db.prepare('SELECT DISTINCT created_at, updated_at FROM departments WHERE tenant_id = ?').all(fresh)).toEqual([
      { created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z' },
    ]);
    db.close();
    const byDepartment = new Map<number | null, number>();
    for (const u of store.users.list(fresh, all).rows) byDepartment.set(u.department_id, (byDepartment.get(u.department_id) ?? 0) + 1);
    const main = byDepartment.get(departments[0].id)!;
    expect(main / 5000).toBeGreaterThan(0.5);
    expect(main / 5000).toBeLessThan(0.6);
    expect(byDepartment.size).toBe(51);
    // A second seed keeps the departments.
    atOnce(seedBulk(store, fresh, { users: 10, customers: 0 }));
    expect(store.departments.list(fresh)).toHaveLength(50);

    const own = store.tenants.create('own.test').id;
    for (const n of ['A', 'B']) store.departments.create(own, n);
    atOnce(seedBulk(store, own, { users: 2000, customers: 0 }));
    const counts = ['A', 'B'].map((n) => store.users.list(own, q({ with_trashed: true, filter: { attribute: 'department', type: 'text', operator: 'Equal', value: n } })).total);
    expect(store.departments.list(own)).toHaveLength(2);
    for (const c of counts) expect(c / 2000).toBeGreaterThan(0.4);
  });

  it('a write after a deferred load keeps the JSON text, indexes and uniqueness working', () => {
    const store = open();
    const t = store.tenants.create('bulk.test').id;
    loadDirect(store, t, { users: 1000, customers: 1000 }, true);
    const [first] = store.users.list(t, q()).rows;
    const renamed = store.users.update(t, first.id, { last_name: 'Renamed' });
    expect(store.users.getJson(t, first.id)).toBe(JSON.stringify(renamed));
    expect(() => store.users.insert(t, { first_name: 'A', last_name: 'B', email: first.email.toUpperCase() })).toThrow();
    const [customer] = store.customers.list(t, q()).rows;
    expect(() => store.customers.insert(t, { first_name: 'A', last_name: 'B', email: customer.email })).toThrow();
  });

  it('rolls back whole, indexes and triggers included, when the rows run out', () => {
    const store = open();
    const t = store.tenants.create('bulk.test').id;
    const before = contents(store, t);
    expect(() =>
      store.bulk.load((load) => {
        const plan = runSteps(store, bulkPlanSteps(t));
        load.users(t, 100, bulkUsers(bulkDraws(t), plan, 99), { deferIndexes: true });
      }),
    ).toThrow('bulk load: 100 rows expected, 99 given');
    expect(contents(store, t)).toEqual(before);
  });

  it('loads through a rollback journal when it has the database to itself and leaves it in WAL; beside another connection it stays in WAL', () => {
    const store = open();
    const t = store.tenants.create('bulk.test').id;
    const modes: unknown[] = [];
    const journalNow = () => {
      const probe = new Database(store.location, { readonly: true });
      modes.push(probe.pragma('journal_mode', { simple: true }));
      probe.close();
    };
    store.bulk.load(() => journalNow());
    const reader = new Database(store.location, { readonly: true });
    const before = reader.prepare('SELECT count(*) FROM users').pluck();
    expect(before.get()).toBe(0);
    store.bulk.load((load) => {
      journalNow();
      load.users(t, 100, bulkUsers(bulkDraws(t), runSteps(store, bulkPlanSteps(t)), 100));
    });
    expect(before.get()).toBe(100);
    reader.close();
    expect(modes).toEqual(['delete', 'wal']);
    expect(contents(store, t).journal).toBe('wal');
  });

  it('indexes built again from sorted runs larger than the sort cache agree with the table (integrity_check)', () => {
    const store = open();
    const t = store.tenants.create('bulk.test').id;
    // 60,000 e-mails, names and dates: several MB of keys per index, past the loader's 2 MiB sort cache.
    loadDirect(store, t, { users: 60_000, customers: 0 }, true);
    const db = new Database(store.location, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('SELECT count(*) FROM users INDEXED BY users_email_count WHERE email >= \'\' COLLATE NOCASE AND tenant_id > 0').pluck().get()).toBe(60_000);
    } finally {
      db.close();
    }
  });

  it('a load killed half way leaves the database as it was, and it opens in WAL', () => {
    const file = join(tempDir('confctl-bulk-'), 'db.sqlite');
    const store = open(file);
    const t = store.tenants.create('bulk.test').id;
    loadDirect(store, t, { users: 100, customers: 100 }, true);
    const before = contents(store, t);
    store.close();
    opened.length = 0;
    // A child loads 30,000 users (indexes deferred, through the rollback journal) and is killed at the 20,000th customer.
    const script = `
      import { openStore } from './src/store/index.ts';
      import { bulkCustomers, bulkDraws, bulkPlanSteps, bulkUsers } from './src/admin/seed/bulk.ts';
      import { runSteps } from './src/admin/steps.ts';
      const store = openStore(${JSON.stringify(file)});
      store.bulk.load((load) => {
        const plan = runSteps(store, bulkPlanSteps(${t}));
        const rnd = bulkDraws(${t});
        load.users(${t}, 30000, bulkUsers(rnd, plan, 30000));
        let n = 0;
        const dying = (function* () { for (const c of bulkCustomers(rnd, plan, 30000)) { if (++n === 20000) process.kill(process.pid, 'SIGKILL'); yield c; } })();
        load.customers(${t}, 30000, dying);
      });`;
    let killed: string | undefined;
    try {
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'pipe', env: { ...process.env, NODE_OPTIONS: '' } });
    } catch (err) {
      killed = (err as { signal?: string }).signal;
    }
    expect(killed).toBe('SIGKILL');
    const reopened = open(file);
    expect(contents(reopened, t)).toEqual(before);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
});
