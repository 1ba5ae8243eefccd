import { beforeEach } from 'vitest';
import type { ListFilter, ListQuery, Operator } from '../../../src/contract/index.js';
import type { PostgresStore } from '../../../src/store/postgres/index.js';
import type { DataStore } from '../../../src/store/port.js';
import { type SqliteStore } from '../../../src/store/sqlite/index.js';

/**
 * Creates a store for one test. `dispose` closes it and removes what `create` made (a
 * PostgreSQL database). Where the database outlives its store (a file, a PostgreSQL database,
 * not `:memory:`): `reopen` closes the store and opens the same database (dispose the new store
 * instead), `attach` opens another store on it beside the first (another process or instance;
 * the caller closes it).
 */
export interface StoreFactory {
  name: string;
  backend: DataStore['backend'];
  create(): Promise<DataStore>;
  dispose(store: DataStore): Promise<void>;
  reopen?(store: DataStore): Promise<DataStore>;
  attach?(store: DataStore): Promise<DataStore>;
}

/**
 * Gives each test of the calling `describe` a fresh store of `factory`: `prepare` receives it
 * (to keep it, and to add what the tests share), and it is disposed after the test, or at once
 * when `prepare` fails. A test that reopens its store does so with the answer's `reopen`, so that
 * the new store is the one disposed.
 */
export function eachStore(factory: StoreFactory, prepare: (store: DataStore) => unknown): { reopen(store: DataStore): Promise<DataStore> } {
  let current: DataStore;
  beforeEach(async () => {
    current = await factory.create();
    try {
      await prepare(current);
    } catch (err) {
      await factory.dispose(current);
      throw err;
    }
    return () => factory.dispose(current);
  });
  return { reopen: async (store) => (current = await factory.reopen!(store)) };
}

/** The SQLite store behind `store`, for the few tests of what only it has (each says why). */
export function asSqlite(store: DataStore): SqliteStore {
  if (store.backend !== 'sqlite') throw new Error(`a SQLite store was expected, not ${store.backend}`);
  return store as unknown as SqliteStore;
}

/** The PostgreSQL store behind `store`, whose `pool` reads what DataStore does not answer. */
export function asPostgres(store: DataStore): PostgresStore {
  if (store.backend !== 'postgres') throw new Error(`a PostgreSQL store was expected, not ${store.backend}`);
  return store as PostgresStore;
}

export const q = (over: Partial<ListQuery> = {}): ListQuery => ({
  page_size: 100,
  page_number: 1,
  with_trashed: false,
  order_by: 'id',
  order_direction: 'asc',
  filter: null,
  ...over,
});

export const f = (attribute: string, type: ListFilter['type'], operator: Operator, value: string | number | null = null): ListFilter => ({
  attribute,
  type,
  operator,
  value,
});

/**
 * Tenant A with two departments, seven users and four customers chosen so every operator has
 * a distinguishing row; tenant B with one user and one customer of the same emails. Written one
 * at a time, in order, so ids follow the order below on every backend.
 */
export async function fixture(store: DataStore) {
  const a = (await store.tenants.create('a.example', ['alias.a.example'])).id;
  const b = (await store.tenants.create('b.example')).id;
  for (const t of [a, b]) for (const r of ['Admin', 'Manager', 'Member']) await store.roles.create(t, r);
  const eng = await store.departments.create(a, 'Engineering');
  const sales = await store.departments.create(a, 'Sales');
  const u = (last: string, over: Record<string, unknown> = {}) =>
    store.users.insert(a, { first_name: 'Pat', last_name: last, email: `${last.toLowerCase().replace(/[^a-z0-9]/g, '')}@a.example`, ...over });
  const users = {
    lovelace: await u('Lovelace', { first_name: 'Ada', timezone: 'Europe/London', role: 'Admin', department_id: eng.id, created_at: '2025-01-01T00:00:00.000Z' }),
    turing: await u('Turing', { first_name: 'alan', email: 'ALAN@a.example', status: 0, role: 'Member', department_id: sales.id, created_at: '2025-01-02T00:00:00.000Z' }),
    percent: await u('50%_off', { timezone: 'Asia/Tokyo', created_at: '2025-01-03T00:00:00.000Z' }),
    plain: await u('50xyoff', { timezone: 'europe/london', created_at: '2025-01-03T00:00:00.000Z' }),
    backslash: await u('a\\b', { email: 'back@a.example', timezone: 'UTC', created_at: '2025-01-04T12:00:00.000Z' }),
    deleted: await u('Hopper', { timezone: 'Asia/Tokyo', created_at: '2025-01-05T00:00:00.000Z', deleted_at: '2025-02-01T00:00:00.000Z' }),
    late: await u('Zuse', { first_name: 'Konrad', created_at: '2025-01-06T00:00:00.000Z' }),
  };
  const c = (first: string, last: string, over: Record<string, unknown> = {}) =>
    store.customers.insert(a, { first_name: first, last_name: last, email: `${first.toLowerCase()}@c.example`, ...over });
  const customers = {
    berlin: await c('Emma', 'Müller', { middle_name: 'Rose', address: { line_1: 'Unter den Linden 1', city: 'Berlin', region: 'Berlin', postal_code: '10117', country: 'Germany', country_code: 'DE' } }),
    paris: await c('Mia', 'Dubois', { address: { line_1: '', line_2: null, city: 'Paris', country: 'France' } }),
    none: await c('Noah', 'Smith', { contact_number: '+4930555010' }),
    gone: await c('Gone', 'Away', { address: { city: 'Berlin', country: 'Germany' }, deleted_at: '2025-03-01T00:00:00.000Z' }),
  };
  const other = {
    user: await store.users.insert(b, { first_name: 'Ada', last_name: 'Other', email: 'lovelace@a.example' }),
    customer: await store.customers.insert(b, { first_name: 'Emma', last_name: 'Other', email: 'emma@c.example' }),
  };
  return { a, b, eng, sales, users, customers, other };
}

export type Fixture = Awaited<ReturnType<typeof fixture>>;
