import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { bulkCustomers, bulkDraws, bulkPlanSteps, bulkUsers } from '../../src/admin/seed/bulk.js';
import { runSteps } from '../../src/admin/steps.js';
import type { CustomerInsert, UserInsert } from '../../src/store/types.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { tempDir } from '../tmp.js';

/**
 * The SQLite bulk loader's load of customers built aside (src/store/sqlite/side-table.ts) and its
 * foreign keys checked per distinct key while the connection does not enforce them
 * (src/store/sqlite/foreign-key-tally.ts). That an aside load stores what inserting row by row
 * stores is test/admin/seed/bulk.test.ts's comparison (its deferred loads into empty tables go aside).
 */
const opened: SqliteStore[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

function setup() {
  const store = openStore(join(tempDir('confctl-aside-'), 'db.sqlite'));
  opened.push(store);
  const tenant = store.tenants.create('aside.test').id;
  return { store, tenant, side: `${store.location}.bulk-customers` };
}

function stored(store: SqliteStore) {
  const db = new Database(store.location, { readonly: true });
  try {
    return {
      rows: db.prepare("SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM departments) AS departments").get(),
      schema: db.prepare("SELECT type, name, sql FROM sqlite_schema WHERE tbl_name IN ('users', 'customers') ORDER BY rowid").all(),
    };
  } finally {
    db.close();
  }
}

/** `rows` with `change` applied to the row at `at` (0-based). */
function* changed<R>(rows: Iterable<R>, at: number, change: (row: R) => R): Generator<R> {
  let i = 0;
  for (const row of rows) yield i++ === at ? change(row) : row;
}

describe('bulk load aside', () => {
  it('builds a large load of customers into an empty table in a side file, deleted when the load ends', () => {
    const { store, tenant, side } = setup();
    const during: boolean[] = [];
    store.bulk.load((load) => {
      const plan = runSteps(store, bulkPlanSteps(tenant));
      const rnd = bulkDraws(tenant);
      load.users(tenant, 2000, bulkUsers(rnd, plan, 2000), { deferIndexes: true });
      during.push(existsSync(side));
      load.customers(tenant, 2000, bulkCustomers(rnd, plan, 2000), { deferIndexes: true });
      during.push(existsSync(side));
    });
    expect(during).toEqual([false, true]);
    expect(existsSync(side)).toBe(false);
    expect(stored(store).rows).toEqual({ users: 2000, customers: 2000, departments: 50 });
    const db = new Database(store.location, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('loads customers in place when no users are loaded before them (nothing to build beside)', () => {
    const { store, tenant, side } = setup();
    let aside: boolean | undefined;
    store.bulk.load((load) => {
      const plan = runSteps(store, bulkPlanSteps(tenant));
      load.customers(tenant, 2000, bulkCustomers(bulkDraws(tenant), plan, 2000), { deferIndexes: true });
      aside = existsSync(side);
    });
    expect(aside).toBe(false);
    expect(stored(store).rows).toEqual({ users: 0, customers: 2000, departments: 50 });
  });

  it('rolls the whole load back, and deletes the side file, when the build aside fails (a live e-mail twice, refused by the unique index built there)', () => {
    const { store, tenant, side } = setup();
    const before = stored(store);
    let first: CustomerInsert | undefined;
    expect(() =>
      store.bulk.load((load) => {
        const plan = runSteps(store, bulkPlanSteps(tenant));
        const rnd = bulkDraws(tenant);
        load.users(tenant, 1000, bulkUsers(rnd, plan, 1000), { deferIndexes: true });
        const rows = changed(bulkCustomers(rnd, plan, 1000), 0, (c) => (first = { ...c, deleted_at: null }));
        load.customers(tenant, 1000, changed(rows, 999, (c) => ({ ...c, email: first!.email, deleted_at: null })), { deferIndexes: true });
      }),
    ).toThrow(/building the indexes aside failed: UNIQUE constraint failed: customers\.email/);
    expect(stored(store)).toEqual(before);
    expect(existsSync(side)).toBe(false);
  });

  it.each([
    ['a department', (u: UserInsert) => ({ ...u, department_id: 999_999 })],
    ['a role', (u: UserInsert) => ({ ...u, role: 'Nobody' })],
  ])("fails the load as enforcement would when a user's foreign key names %s that does not exist, deferred or not", (_, bad) => {
    const { store, tenant } = setup();
    const before = stored(store);
    for (const deferIndexes of [true, false]) {
      expect(() =>
        store.bulk.load((load) => {
          const plan = runSteps(store, bulkPlanSteps(tenant));
          load.users(tenant, 500, changed(bulkUsers(bulkDraws(tenant), plan, 500), 250, bad), { deferIndexes });
        }),
      ).toThrow(/FOREIGN KEY constraint failed: users\(/);
      expect(stored(store)).toEqual(before);
    }
    // Enforcement is back on for the connection's other writes.
    expect(() => store.users.insert(tenant, bad({ first_name: 'A', last_name: 'B', email: 'a@b.test' }))).toThrow(/FOREIGN KEY constraint failed/);
  });
});
