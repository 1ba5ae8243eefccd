import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../../src/contract/index.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js';
import { createMigratedDatabase, type TestDatabase } from '../../pg/database.js';
import { ListTotals } from '../../../src/store/postgres/list-totals.js';
import { compileList } from '../../../src/store/postgres/list-query.js';
import { PG_CUSTOMER_LIST_DEF, PG_USER_LIST_DEF } from '../../../src/store/postgres/people.js';

const all: ListQuery = { page_size: 2, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null };

/** The statements of totals `store` sends from now on (on the list lane's connections, opened after this), as they are sent: counts, and reads of a tenant's row counter (unfiltered totals). */
function countsOf(store: PostgresStore): string[] {
  const counted: string[] = [];
  store.lists.pool.on('connect', (client) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && /^SELECT count\(\*\)|FROM list_counts WHERE/.test(args[0])) counted.push(args[0]);
      return original(...args);
    };
  });
  return counted;
}

/** Every statement `store` sends on the list lane's connections from now on, as sent. */
function laneStatements(store: PostgresStore): string[] {
  const sent: string[] = [];
  store.lists.pool.on('connect', (client) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      if (typeof args[0] === 'string') sent.push(args[0]);
      return original(...args);
    };
  });
  return sent;
}

/** List totals are cached per instance and recounted when any instance writes a table they read (its change counter moved). */
describe('PostgreSQL list totals', () => {
  let db: TestDatabase;
  let a: PostgresStore;
  let b: PostgresStore;
  beforeEach(async () => {
    db = await createMigratedDatabase();
    a = await openPostgresStore(db.url);
    b = await openPostgresStore(db.url);
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    await db.drop();
  });

  it('counts once while nothing is written, and again after another instance writes', async () => {
    const tenant = await a.tenants.create('t.example');
    for (const n of [1, 2, 3]) await a.customers.insert(tenant.id, { first_name: 'C', last_name: `${n}`, email: `c${n}@t.example` });
    const counted = countsOf(a);
    expect((await a.customers.list(tenant.id, all)).total).toBe(3);
    expect((await a.customers.list(tenant.id, all)).total).toBe(3);
    expect(counted).toHaveLength(1);
    expect(counted[0]).toMatch(/FROM list_counts WHERE tenant_id = \$1 AND list = 'customers'/);
    await b.customers.insert(tenant.id, { first_name: 'C', last_name: '4', email: 'c4@t.example' });
    expect((await a.customers.list(tenant.id, all)).total).toBe(4);
    expect(counted).toHaveLength(2);
    // A filtered list is a total of its own.
    expect((await a.customers.list(tenant.id, { ...all, filter: { attribute: 'last_name', type: 'text', operator: 'Equal', value: '4' } })).total).toBe(1);
    expect(counted).toHaveLength(3);
  });

  it("keeps a table's totals while other tables are written; a department filter's total is recounted when departments change", async () => {
    const tenant = await a.tenants.create('t.example');
    const sales = await a.departments.create(tenant.id, 'Sales');
    await a.users.insert(tenant.id, { first_name: 'U', last_name: '1', email: 'u1@t.example', department_id: sales.id });
    const counted = countsOf(a);
    const bySales = { ...all, filter: { attribute: 'department', type: 'text', operator: 'Equal', value: 'Sales' } } as const;
    expect((await a.users.list(tenant.id, all)).total).toBe(1);
    expect((await a.users.list(tenant.id, bySales)).total).toBe(1);
    expect(counted).toHaveLength(2);
    // Another instance writes customers: the users' totals stay.
    await b.customers.insert(tenant.id, { first_name: 'C', last_name: '1', email: 'c1@t.example' });
    expect((await a.users.list(tenant.id, all)).total).toBe(1);
    expect((await a.users.list(tenant.id, bySales)).total).toBe(1);
    expect(counted).toHaveLength(2);
    // Another instance adds a department: the filter's total is counted again, the plain one stays.
    await b.departments.create(tenant.id, 'Sales');
    expect((await a.users.list(tenant.id, all)).total).toBe(1);
    expect((await a.users.list(tenant.id, bySales)).total).toBe(1);
    expect(counted).toHaveLength(3);
    // Another instance adds a user: both are counted again.
    await b.users.insert(tenant.id, { first_name: 'U', last_name: '2', email: 'u2@t.example' });
    expect((await a.users.list(tenant.id, all)).total).toBe(2);
    expect(counted).toHaveLength(4);
  });

  it("counts a department filter from the matching departments' ids, read first in the same snapshot: the same totals, duplicate and missing names included", async () => {
    const tenant = await a.tenants.create('t.example');
    const other = await a.tenants.create('o.example');
    const sales = await a.departments.create(tenant.id, 'Sales');
    const again = await a.departments.create(tenant.id, 'SALES');
    const elsewhere = await a.departments.create(other.id, 'Sales');
    for (const [n, department] of [sales, sales, again, undefined].entries()) {
      await a.users.insert(tenant.id, { first_name: 'U', last_name: `${n}`, email: `u${n}@t.example`, department_id: department?.id ?? null });
    }
    await a.users.insert(other.id, { first_name: 'O', last_name: '1', email: 'o1@o.example', department_id: elsewhere.id });
    const byName = (operator: 'Equal' | 'Contains', value: string) => ({ ...all, filter: { attribute: 'department', type: 'text', operator, value } }) as const;
    const sent = laneStatements(a);
    for (const [query, total] of [
      [byName('Equal', 'sales'), 3],
      [byName('Contains', 'ALE'), 3],
      [byName('Equal', 'Marketing'), 0],
    ] as const) {
      expect((await a.users.list(tenant.id, query)).total).toBe(total);
      // The plain count through the join answers the same (on the other instance, whose statements are not recorded).
      const plain = compileList(PG_USER_LIST_DEF, tenant.id, query).count;
      expect(Number((await b.lists.pool.query<{ n: string }>(plain.text, plain.values)).rows[0].n)).toBe(total);
    }
    const counts = sent.filter((s) => /^SELECT count\(\*\)/.test(s));
    expect(counts).toHaveLength(3);
    for (const count of counts) expect(count).toContain('u.department_id = ANY($2::bigint[])');
    expect(sent.filter((s) => s.startsWith('SELECT coalesce(array_agg(id)'))).toHaveLength(3);
  });

  it('reads a list whose total is cached in one statement, without a transaction, until another instance writes what it counts', async () => {
    const tenant = await a.tenants.create('t.example');
    for (const n of [1, 2, 3]) await a.customers.insert(tenant.id, { first_name: 'C', last_name: `${n}`, email: `c${n}@t.example` });
    const sent = laneStatements(a);
    const lastNames = (list: { rows: Array<{ last_name: string }> }) => list.rows.map((c) => c.last_name);
    const first = await a.customers.list(tenant.id, all);
    expect([lastNames(first), first.total]).toEqual([['1', '2'], 3]);
    expect(sent.filter((t) => t.startsWith('BEGIN'))).toHaveLength(1);
    sent.length = 0;
    const cached = await a.customers.list(tenant.id, { ...all, page_number: 2 });
    expect([lastNames(cached), cached.total]).toEqual([['3'], 3]);
    expect(cached.rows[0]).not.toHaveProperty('confctl_token');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^SELECT \(SELECT string_agg/);
    // Another instance's write moves the counters: the statement's answer is set aside, the list read in a snapshot and recounted.
    await b.customers.insert(tenant.id, { first_name: 'C', last_name: '4', email: 'c4@t.example' });
    sent.length = 0;
    const moved = await a.customers.list(tenant.id, { ...all, page_number: 2 });
    expect([lastNames(moved), moved.total]).toEqual([['3', '4'], 4]);
    expect(sent.filter((t) => t.startsWith('BEGIN'))).toHaveLength(1);
    expect(sent.filter((t) => /FROM list_counts WHERE/.test(t))).toHaveLength(1);
    // A page past the end has no row to carry the counters: read in a snapshot, the cached total kept.
    sent.length = 0;
    const past = await a.customers.list(tenant.id, { ...all, page_number: 9 });
    expect([past.rows, past.total]).toEqual([[], 4]);
    expect(sent.filter((t) => t.startsWith('BEGIN'))).toHaveLength(1);
    expect(sent.filter((t) => /FROM list_counts WHERE/.test(t))).toHaveLength(0);
  });

  it('reads a page and its total in one snapshot: a write committed between the count and the page shows in neither, and the next list counts it', async () => {
    const tenant = await a.tenants.create('t.example');
    for (const n of [1, 2]) await a.customers.insert(tenant.id, { first_name: 'C', last_name: `${n}`, email: `c${n}@t.example` });
    const list = compileList(PG_CUSTOMER_LIST_DEF, tenant.id, { ...all, page_size: 15 });
    const totals = new ListTotals();
    let writes = 0;
    const page = (tx: Parameters<Parameters<typeof a.lists.run>[0]>[0]) => async () => {
      // Another instance's write commits after the count and before the page is read.
      if (writes++ === 0) await b.customers.insert(tenant.id, { first_name: 'C', last_name: '3', email: 'c3@t.example' });
      return (await tx.query(list.page.text, list.page.values)).rows.length;
    };
    expect(await a.lists.run((tx) => totals.read(tx, list, page(tx)))).toEqual({ rows: 2, total: 2 });
    expect(await a.lists.run((tx) => totals.read(tx, list, page(tx)))).toEqual({ rows: 3, total: 3 });
  });
});
