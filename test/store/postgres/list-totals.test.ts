import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../../src/contract/index.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js';
import { createMigratedDatabase, type TestDatabase } from '../../pg/database.js';
import { LIST_READ_ATTEMPTS, ListTotals } from '../../../src/store/postgres/list-totals.js';
import { StoreBusy } from '../../../src/store/index.js';

const all: ListQuery = { page_size: 2, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null };

/** The statements of totals `store` sends from now on, as they are sent: counts, and reads of a tenant's row counter (unfiltered totals). */
function countsOf(store: PostgresStore): string[] {
  const counted: string[] = [];
  const original = store.pool.query.bind(store.pool);
  store.pool.query = ((text: string, values?: unknown[]) => {
    if (/^SELECT count\(\*\)|FROM list_counts WHERE/.test(text)) counted.push(text);
    return original(text, values);
  }) as typeof store.pool.query;
  return counted;
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
});

describe('a page and its total of one state', () => {
  const list = { count: { text: 'SELECT count(*) AS n FROM customers', values: [] }, tables: ['customers'] };
  /** Answers counts of `n()` and counts the statements. */
  const counting = (n: () => number) => {
    const db = { sent: 0, query: async () => ((db.sent += 1), { rows: [{ n: n() }] }) };
    return db;
  };

  it('reads the pair again when the tables were written between the two counter reads', async () => {
    const tokens = ['1', '2', '2', '2'];
    const totals = new ListTotals(async () => tokens.shift()!);
    let rows = 5;
    const db = counting(() => rows);
    const page = async () => {
      const seen = rows;
      rows = 7;
      return seen;
    };
    // First pair: page of 5 rows, counted 7 after the write; the counters moved, so it is read again.
    expect(await totals.consistent(db as never, list, page)).toEqual({ rows: 7, total: 7 });
    expect(db.sent).toBe(2);
  });

  it('answers StoreBusy (503) rather than a mixed pair when the tables keep changing', async () => {
    let token = 0;
    const totals = new ListTotals(async () => String(++token));
    await expect(totals.consistent(counting(() => 1) as never, list, async () => 1)).rejects.toBeInstanceOf(StoreBusy);
    expect(token).toBe(2 * LIST_READ_ATTEMPTS);
  });
});
