import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { ListRunner, OTHER_TENANTS_ROWS, SMALL_TENANT_ROWS } from '../../src/store/sqlite/list-query.js';
import { ReadPool } from '../../src/store/sqlite/read-pool.js';
import { SQLITE_CUSTOMER_LIST_DEF } from '../../src/store/sqlite/repos/customers.js';
import { TRIGRAM_PENDING_MAX } from '../../src/store/sqlite/trigram.js';
import { f, q } from './contract/fixtures.js';

/** More customers than a small tenant has, so that a Contains of 3 or more characters reads the trigram table. */
const CUSTOMERS = SMALL_TENANT_ROWS + 100;
const AT = '2026-01-01T00:00:00.000Z';

/** `count` customers of `tenant` named `Filler<n>`, written by one statement (the triggers fire for each row). */
const fillers = (count: number, from = 0, tenant = 1) => `
  WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${from + count - 1})
  INSERT INTO customers (tenant_id, first_name, last_name, email, city, country, created_at, updated_at)
  SELECT ${tenant}, 'Filler' || i, 'Row', 'filler' || i || '@example.com', 'Springfield', 'US', '${AT}', '${AT}' FROM n`;

const containsQuery = (attribute: string, value: string) => q({ page_size: 100, filter: f(attribute, 'text', 'Contains', value) });
const answer = (r: { total: number; rows: { id: number }[] }) => ({ total: r.total, ids: r.rows.map((c) => c.id) });

/** A Contains list of tenant 1's customers: its total and its ids (all on one page). */
const contains = (store: SqliteStore, attribute: string, value: string, tenant = 1) => answer(store.customers.list(tenant, containsQuery(attribute, value)));

describe('trigram tables with pending rows (migrations 14, 18 and 20)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'confctl-trigram-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;

  /** A store whose tenant 1 holds CUSTOMERS fillers, and a plain connection to its file. */
  function fixture(): { store: SqliteStore; raw: Database.Database; pending: () => number[] } {
    const file = join(dir, `db-${++files}.sqlite`);
    const store = openStore(file);
    store.tenants.create('big.test');
    const raw = new Database(file);
    raw.exec(fillers(CUSTOMERS));
    const pending = () => raw.prepare('SELECT id FROM customers_text_pending ORDER BY id').pluck().all() as number[];
    return { store, raw, pending };
  }

  it('flushes the pending texts into the FTS table when TRIGRAM_PENDING_MAX ids are pending, and empties the pending table', () => {
    const { store, raw, pending } = fixture();
    try {
      const left = CUSTOMERS % TRIGRAM_PENDING_MAX;
      expect(pending()).toHaveLength(left);
      const match = raw.prepare("SELECT COUNT(*) FROM customers_text WHERE customers_text MATCH '{email} : \"filler\"'").pluck();
      expect(match.get()).toBe(CUSTOMERS - left);
      // The list reads the trigram table for this tenant, and counts the pending rows by their own text.
      expect(new ListRunner(raw, SQLITE_CUSTOMER_LIST_DEF).explain(1, q({ filter: f('email', 'text', 'Contains', 'filler') })).count.join(' ')).toMatch(/customers_text VIRTUAL TABLE/);
      expect(contains(store, 'email', 'FILLER').total).toBe(CUSTOMERS);
      raw.exec(fillers(TRIGRAM_PENDING_MAX - left - 1, CUSTOMERS));
      expect(pending()).toHaveLength(TRIGRAM_PENDING_MAX - 1);
      raw.exec(fillers(1, CUSTOMERS + TRIGRAM_PENDING_MAX));
      expect(pending()).toEqual([]);
      expect(match.get()).toBe(CUSTOMERS + TRIGRAM_PENDING_MAX - left);
      expect(contains(store, 'email', 'filler').total).toBe(CUSTOMERS + TRIGRAM_PENDING_MAX - left);
    } finally {
      raw.close();
      store.close();
    }
  });

  it('a Contains list sees inserts and updates at once inside an open commit group: exact rows and total', async () => {
    const { store, raw, pending } = fixture();
    try {
      store.commits.join();
      const ada = store.customers.insert(1, { first_name: 'Ada', last_name: 'Quokkason', email: 'ada@quokka.example', address: { city: 'Perth', country: 'Australia' } });
      const bob = store.customers.insert(1, { first_name: 'Bob', last_name: 'Quokkason', email: 'bob@quokka.example' });
      expect(contains(store, 'last_name', 'okkaso')).toEqual({ total: 2, ids: [ada.id, bob.id] });
      expect(contains(store, 'city_country', 'th, aus')).toEqual({ total: 1, ids: [ada.id] });
      store.customers.update(1, ada.id, { last_name: 'Wombat' });
      expect(contains(store, 'last_name', 'okkaso')).toEqual({ total: 1, ids: [bob.id] });
      expect(contains(store, 'last_name', 'WOMB')).toEqual({ total: 1, ids: [ada.id] });
      store.customers.update(1, bob.id, { last_name: 'Quoll', address: { city: 'Hobart', country: 'Australia' } });
      expect(contains(store, 'last_name', 'okkaso')).toEqual({ total: 0, ids: [] });
      expect(contains(store, 'city_country', ', austral')).toEqual({ total: 2, ids: [ada.id, bob.id] });
      // The group commits when the event loop turns (`commitGroups`' schedule).
      await new Promise((resolve) => setImmediate(resolve));
      // Committed, still pending (fewer than TRIGRAM_PENDING_MAX), and still exact.
      expect(pending()).toEqual(expect.arrayContaining([ada.id, bob.id]));
      expect(raw.prepare("SELECT COUNT(*) FROM customers_text WHERE customers_text MATCH '{last_name} : \"womb\"'").pluck().get()).toBe(0);
      expect(contains(store, 'last_name', 'womb')).toEqual({ total: 1, ids: [ada.id] });
      expect(contains(store, 'last_name', 'okkaso')).toEqual({ total: 0, ids: [] });
    } finally {
      raw.close();
      store.close();
    }
  });

  it('answers rows whose FTS texts are stale by their own text while they are pending: updated, deleted, and a reused id', () => {
    const { store, raw, pending } = fixture();
    try {
      const [first, last] = raw.prepare('SELECT min(id), max(id) FROM customers').raw().get() as [number, number];
      // The first filler was flushed long ago: the FTS table holds its text.
      expect(pending()).not.toContain(first);
      raw.prepare("UPDATE customers SET last_name = 'Echidna' WHERE id = ?").run(first);
      expect(pending()).toContain(first);
      expect(contains(store, 'first_name', `filler0`).ids).toContain(first);
      expect(contains(store, 'last_name', 'chidn')).toEqual({ total: 1, ids: [first] });
      expect(contains(store, 'last_name', 'row').total).toBe(CUSTOMERS - 1);
      // A row deleted outright (as a restore does) and its id taken again by the next insert.
      raw.prepare('DELETE FROM customers WHERE id = ?').run(last);
      expect(contains(store, 'last_name', 'row').total).toBe(CUSTOMERS - 2);
      const again = raw.prepare(`INSERT INTO customers (tenant_id, first_name, last_name, email, created_at, updated_at) VALUES (1, 'Nia', 'Numbat', 'nia@numbat.example', '${AT}', '${AT}')`).run().lastInsertRowid;
      expect(again).toBe(last);
      expect(contains(store, 'last_name', 'numba')).toEqual({ total: 1, ids: [last] });
      expect(contains(store, 'email', `filler${last - first}@`)).toEqual({ total: 0, ids: [] });
      // Flushed: the FTS table answers the same.
      raw.exec(fillers(TRIGRAM_PENDING_MAX - pending().length, CUSTOMERS));
      expect(pending()).toEqual([]);
      expect(contains(store, 'last_name', 'chidn')).toEqual({ total: 1, ids: [first] });
      expect(contains(store, 'last_name', 'numba')).toEqual({ total: 1, ids: [last] });
      expect(contains(store, 'email', `filler${last - first}@`)).toEqual({ total: 0, ids: [] });
    } finally {
      raw.close();
      store.close();
    }
  });

  it("sees another process's write, pending or flushed", () => {
    const { store, raw } = fixture();
    try {
      expect(contains(store, 'last_name', 'lyrebird').total).toBe(0);
      const write = (sql: string) => execFileSync(process.execPath, ['-e', `const D = require('better-sqlite3'); const db = new D(process.argv[1]); db.exec(process.argv[2]); db.close();`, raw.name, sql]);
      write(`INSERT INTO customers (tenant_id, first_name, last_name, email, created_at, updated_at) VALUES (1, 'Lee', 'Lyrebird', 'lee@lyre.example', '${AT}', '${AT}')`);
      expect(contains(store, 'last_name', 'lyrebird').total).toBe(1);
      write(fillers(TRIGRAM_PENDING_MAX, CUSTOMERS));
      expect(raw.prepare('SELECT COUNT(*) FROM customers_text_pending').pluck().get()).toBeLessThan(TRIGRAM_PENDING_MAX);
      expect(contains(store, 'last_name', 'lyrebird').total).toBe(1);
      expect(contains(store, 'last_name', 'row').total).toBe(CUSTOMERS + TRIGRAM_PENDING_MAX);
    } finally {
      raw.close();
      store.close();
    }
  });

  it("a read worker's Contains list is as exact with pending rows", async () => {
    const { store, raw, pending } = fixture();
    const pool = new ReadPool(raw.name);
    try {
      const first = raw.prepare('SELECT min(id) FROM customers').pluck().get() as number;
      raw.prepare("UPDATE customers SET email = 'kiwi@example.com' WHERE id = ?").run(first);
      expect(pending()).toContain(first);
      const inWorker = async (attribute: string, value: string) =>
        answer((await pool.run({ op: 'customers.list', tenantId: 1, query: containsQuery(attribute, value) })) as { total: number; rows: { id: number }[] });
      expect(await inWorker('email', 'kiwi@')).toEqual({ total: 1, ids: [first] });
      expect(await inWorker('email', 'filler0@')).toEqual({ total: 0, ids: [] });
      expect((await inWorker('email', 'FILLER')).total).toBe(CUSTOMERS - 1);
    } finally {
      await pool.close();
      raw.close();
      store.close();
    }
  });

  it('migration 14 replaces the triggers of a version-13 database, whose FTS tables already hold every text', () => {
    const file = join(dir, 'v13.sqlite');
    const raw = new Database(file);
    for (const m of MIGRATIONS.filter((m) => m.version <= 13)) raw.exec(m.sql);
    raw.pragma('user_version = 13');
    raw.exec(`INSERT INTO tenants (id, created_at) VALUES (1, '${AT}');`);
    raw.exec(fillers(CUSTOMERS));
    raw.close();
    const store = openStore(file);
    const check = new Database(file);
    try {
      const triggers = check.prepare("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'customers_text%' ORDER BY name").raw().all();
      expect(triggers).toEqual([
        ['customers_text_delete', 'customers'],
        ['customers_text_flush', 'customers_text_pending'],
        ['customers_text_insert', 'customers'],
        ['customers_text_update', 'customers'],
      ]);
      expect(check.prepare('SELECT COUNT(*) FROM customers_text_pending').pluck().get()).toBe(0);
      expect(contains(store, 'email', 'filler0@').total).toBe(1);
      store.customers.update(1, 1, { email: 'platypus@example.com' });
      expect(check.prepare('SELECT id FROM customers_text_pending').pluck().all()).toEqual([1]);
      expect(contains(store, 'email', 'filler0@').total).toBe(0);
      expect(contains(store, 'email', 'platypus').total).toBe(1);
    } finally {
      check.close();
      store.close();
    }
  });

  it("counts a tenant's live rows alone (migration 18): other tenants' matches, trashed and restored rows, pending or flushed", () => {
    const file = join(dir, 'tenants.sqlite');
    const store = openStore(file);
    const raw = new Database(file);
    try {
      // Tenants whose ids share digits: `<1>` is one trigram, `<12>` a phrase of two, neither inside `<11>` or `<112>`.
      for (const id of [1, 11, 12, 112]) raw.exec(`INSERT INTO tenants (id, created_at) VALUES (${id}, '${AT}')`);
      raw.exec(fillers(CUSTOMERS, 0, 1));
      raw.exec(fillers(20, 0, 11));
      raw.exec(fillers(30, 0, 112));
      const pending = () => raw.prepare('SELECT COUNT(*) FROM customers_text_pending').pluck().get() as number;
      const like = (tenant: number, value: string) =>
        raw.prepare('SELECT id FROM customers WHERE tenant_id = ? AND deleted_at IS NULL AND email LIKE ? ORDER BY id LIMIT 100').pluck().all(tenant, `%${value}%`) as number[];
      const total = (tenant: number, value: string) =>
        raw.prepare('SELECT COUNT(*) FROM customers WHERE tenant_id = ? AND deleted_at IS NULL AND email LIKE ?').pluck().get(tenant, `%${value}%`) as number;
      const exact = (tenants = [1, 12]) => {
        for (const tenant of tenants)
          for (const value of ['filler', 'FILLER1', 'ler7@'])
            expect(contains(store, 'email', value, tenant), `tenant ${tenant} ${value}`).toEqual({ total: total(tenant, value), ids: like(tenant, value) });
      };
      // The other tenants' live rows are at most OTHER_TENANTS_ROWS: tenant 1's count takes the value's matches of every
      // tenant less those of theirs, tested by their own texts, pending or flushed, trashed or not.
      expect(20 + 30 + TRIGRAM_PENDING_MAX).toBeLessThanOrEqual(OTHER_TENANTS_ROWS);
      exact([1]);
      raw.prepare('UPDATE customers SET deleted_at = ? WHERE tenant_id = 11 AND id % 2 = 0').run(AT);
      raw.prepare("UPDATE customers SET email = 'other.' || email WHERE tenant_id = 112 AND id % 3 = 0").run();
      exact([1]);
      raw.exec(fillers(TRIGRAM_PENDING_MAX, CUSTOMERS * 3, 11));
      exact([1]);
      raw.prepare('UPDATE customers SET deleted_at = NULL WHERE tenant_id = 11').run();
      exact([1]);
      // Past OTHER_TENANTS_ROWS, each count matches its tenant's phrase.
      raw.exec(fillers(CUSTOMERS, 0, 12));
      expect(CUSTOMERS).toBeGreaterThan(OTHER_TENANTS_ROWS);
      expect(new ListRunner(raw, SQLITE_CUSTOMER_LIST_DEF).explain(12, containsQuery('email', 'filler')).count.join(' ')).toMatch(/customers_text VIRTUAL TABLE/);
      expect(contains(store, 'email', 'filler', 12).total).toBe(CUSTOMERS);
      exact();
      // Trashed while pending, then flushed: the FTS table drops them; restored, it holds them again.
      const trash = (tenant: number, deleted: string | null) =>
        raw.prepare('UPDATE customers SET deleted_at = ? WHERE tenant_id = ? AND id % 7 = 0').run(deleted, tenant);
      trash(1, AT);
      trash(12, AT);
      expect(pending()).toBeGreaterThan(0);
      exact();
      raw.exec(fillers(TRIGRAM_PENDING_MAX, CUSTOMERS, 11));
      expect(pending()).toBeLessThan(TRIGRAM_PENDING_MAX);
      exact();
      const live = raw.prepare(`SELECT COUNT(*) FROM customers_text WHERE customers_text MATCH '{live_tenant} : "<1>"'`).pluck();
      expect(live.get()).toBe(raw.prepare('SELECT COUNT(*) FROM customers WHERE tenant_id = 1 AND deleted_at IS NULL AND id NOT IN (SELECT id FROM customers_text_pending)').pluck().get());
      trash(1, null);
      exact();
      raw.exec(fillers(TRIGRAM_PENDING_MAX, CUSTOMERS + TRIGRAM_PENDING_MAX, 11));
      exact();
      expect(contains(store, 'email', 'filler', 1).total).toBe(CUSTOMERS);
    } finally {
      raw.close();
      store.close();
    }
  });

  /**
   * A database at schema `version` whose tenant 1 holds CUSTOMERS fillers (the first 100 deleted,
   * some pending) and tenant 2 ten, opened as a store (which migrates it), and a plain connection.
   */
  function migratedFrom(version: number): { store: SqliteStore; check: Database.Database } {
    const file = join(dir, `v${version}.sqlite`);
    const raw = new Database(file);
    for (const m of MIGRATIONS.filter((m) => m.version <= version)) raw.exec(m.sql);
    raw.pragma(`user_version = ${version}`);
    raw.exec(`INSERT INTO tenants (id, created_at) VALUES (1, '${AT}'), (2, '${AT}');`);
    raw.exec(fillers(CUSTOMERS));
    raw.exec(fillers(10, 0, 2));
    raw.exec(`UPDATE customers SET deleted_at = '${AT}' WHERE tenant_id = 1 AND id <= 100`);
    expect(raw.prepare('SELECT COUNT(*) FROM customers_text_pending').pluck().get()).toBeGreaterThan(0);
    raw.close();
    return { store: openStore(file), check: new Database(file) };
  }

  it('migration 18 writes the live rows of a version-17 database again, each with its tenant, and records deletions', () => {
    const { store, check } = migratedFrom(17);
    try {
      expect(check.prepare('SELECT COUNT(*) FROM customers_text_pending').pluck().get()).toBe(0);
      const match = (query: string) => check.prepare('SELECT COUNT(*) FROM customers_text WHERE customers_text MATCH ?').pluck().get(query);
      expect(match('{live_tenant} : "<1>"')).toBe(CUSTOMERS - 100);
      expect(match('{live_tenant} : "<2>"')).toBe(10);
      expect(match('{email} : "filler"')).toBe(CUSTOMERS - 100 + 10);
      expect(contains(store, 'email', 'filler').total).toBe(CUSTOMERS - 100);
      check.prepare('UPDATE customers SET deleted_at = ? WHERE id = 200').run(AT);
      expect(check.prepare('SELECT id FROM customers_text_pending').pluck().all()).toEqual([200]);
      expect(contains(store, 'email', 'filler').total).toBe(CUSTOMERS - 101);
    } finally {
      check.close();
      store.close();
    }
  });

  it("migration 20 writes a version-19 database's live city_country texts to a table of their own, and flushes pending rows to both", () => {
    const { store, check } = migratedFrom(19);
    try {
      expect(check.prepare('SELECT COUNT(*) FROM customers_text_pending').pluck().get()).toBe(0);
      const match = (fts: string, query: string) => check.prepare(`SELECT COUNT(*) FROM ${fts} WHERE ${fts} MATCH ?`).pluck().get(query);
      expect(match('customers_city_country_text', '{city_country} : "springfield, us"')).toBe(CUSTOMERS - 100 + 10);
      expect(match('customers_city_country_text', '{live_tenant} : "<2>"')).toBe(10);
      expect(match('customers_text', '{address} : "springfield"')).toBe(CUSTOMERS - 100 + 10);
      expect(() => match('customers_text', '{city_country} : "springfield"')).toThrow(/no such column/);
      expect(new ListRunner(check, SQLITE_CUSTOMER_LIST_DEF).explain(1, containsQuery('city_country', 'field, u')).count.join(' ')).toMatch(/customers_city_country_text VIRTUAL TABLE/);
      expect(contains(store, 'city_country', 'Springfield, US').total).toBe(CUSTOMERS - 100);
      // An update of more rows than TRIGRAM_PENDING_MAX flushes them into both tables on the way.
      check.prepare("UPDATE customers SET city = 'Shelbyville' WHERE id > 100 AND id <= ?").run(100 + TRIGRAM_PENDING_MAX + 50);
      expect(check.prepare('SELECT COUNT(*) FROM customers_text_pending').pluck().get()).toBeLessThan(TRIGRAM_PENDING_MAX);
      const flushed = check.prepare("SELECT COUNT(*) FROM customers WHERE city = 'Shelbyville' AND id NOT IN (SELECT id FROM customers_text_pending)").pluck().get();
      expect(flushed).toBeGreaterThan(0);
      // The FTS tables hold the texts as they stand of every row not pending (the list's invariant).
      const held = (fts: string, query: string) =>
        check.prepare(`SELECT COUNT(*) FROM ${fts} WHERE ${fts} MATCH ? AND rowid NOT IN (SELECT id FROM customers_text_pending)`).pluck().get(query);
      expect(held('customers_city_country_text', '{city_country} : "shelbyville"')).toBe(flushed);
      expect(held('customers_text', '{address} : "shelbyville"')).toBe(flushed);
      expect(contains(store, 'city_country', 'shelbyville, us').total).toBe(TRIGRAM_PENDING_MAX + 50);
      expect(contains(store, 'address', 'SHELBYVILLE').total).toBe(TRIGRAM_PENDING_MAX + 50);
      expect(contains(store, 'city_country', 'springfield').total).toBe(CUSTOMERS - 100 - TRIGRAM_PENDING_MAX - 50);
    } finally {
      check.close();
      store.close();
    }
  });
});
