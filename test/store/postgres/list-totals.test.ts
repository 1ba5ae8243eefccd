import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../../src/contract/index.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js';
import { createMigratedDatabase, type TestDatabase } from '../../pg/database.js';

const all: ListQuery = { page_size: 2, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null };

/** List totals are cached per instance and dropped when any instance writes (the change counter moved). */
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
    const counted: string[] = [];
    const original = a.pool.query.bind(a.pool);
    a.pool.query = ((text: string, values?: unknown[]) => {
      if (/^SELECT count\(\*\)/.test(text)) counted.push(text);
      return original(text, values);
    }) as typeof a.pool.query;
    expect((await a.customers.list(tenant.id, all)).total).toBe(3);
    expect((await a.customers.list(tenant.id, all)).total).toBe(3);
    expect(counted).toHaveLength(1);
    await b.customers.insert(tenant.id, { first_name: 'C', last_name: '4', email: 'c4@t.example' });
    expect((await a.customers.list(tenant.id, all)).total).toBe(4);
    expect(counted).toHaveLength(2);
    // A filtered list is a total of its own.
    expect((await a.customers.list(tenant.id, { ...all, filter: { attribute: 'last_name', type: 'text', operator: 'Equal', value: '4' } })).total).toBe(1);
    expect(counted).toHaveLength(3);
  });
});
