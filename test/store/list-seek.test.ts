import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/contract/index.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { MAIN_THREAD_ROWS } from '../../src/store/sqlite/list-query.js';

/**
 * Id-ordered pages continue after the last id of the page before (ListRunner's seeks) instead of
 * skipping rows: the pages must be exactly what OFFSET gives, and a write in between must never
 * let a stale continuation through.
 */
const query = (page_number: number, page_size = 7, order_direction: 'asc' | 'desc' = 'asc'): ListQuery => ({
  page_size,
  page_number,
  with_trashed: false,
  order_by: 'id',
  order_direction,
  filter: null,
});

function seeded(store: SqliteStore, n: number): number {
  const t = store.tenants.create('seek.test');
  const other = store.tenants.create('other.test');
  for (let i = 1; i <= n; i++) {
    store.users.insert(t.id, { first_name: 'U', last_name: String(i), email: `u${i}@example.com`, deleted_at: i % 5 === 0 ? '2026-01-01T00:00:00.000Z' : null });
    if (i % 3 === 0) store.users.insert(other.id, { first_name: 'O', last_name: String(i), email: `o${i}@example.com` });
  }
  return t.id;
}

/** Every page of a walk, as ids, from the JSON and the object lists alike. */
function walk(store: SqliteStore, tenantId: number, size: number, direction: 'asc' | 'desc'): number[][] {
  const pages: number[][] = [];
  for (let p = 1; ; p++) {
    const json = store.users.listJson(tenantId, query(p, size, direction));
    const objects = store.users.list(tenantId, query(p, size, direction));
    const ids = json.rows.map((text) => JSON.parse(text).id as number);
    expect(objects.rows.map((u) => u.id)).toEqual(ids);
    if (!ids.length) return pages;
    pages.push(ids);
  }
}

describe('id-ordered pages continue after the last id', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('give the same pages as a fresh store (OFFSET) does, both directions, any page size', () => {
    const walked = openStore(':memory:');
    const tenantId = seeded(walked, 60);
    for (const direction of ['asc', 'desc'] as const) {
      for (const size of [1, 7, 48, 100]) {
        const pages = walk(walked, tenantId, size, direction);
        const expected = pages.map((_, i) => {
          const fresh = openStore(':memory:');
          seeded(fresh, 60);
          const ids = fresh.users.listJson(tenantId, query(i + 1, size, direction)).rows.map((t) => JSON.parse(t).id as number);
          fresh.close();
          return ids;
        });
        expect(pages).toEqual(expected);
        const all = pages.flat();
        expect(all).toHaveLength(48);
        expect(new Set(all).size).toBe(48);
      }
    }
    walked.close();
  });

  it('are not continued after a write of another connection between two pages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confctl-seek-'));
    dirs.push(dir);
    const server = openStore(join(dir, 'db.sqlite'));
    const tenantId = seeded(server, 30);
    const ids = (rows: string[]) => rows.map((t) => JSON.parse(t).id as number);
    const before = server.users.list(tenantId, query(1, 100, 'desc')).rows.map((u) => u.id);
    expect(ids(server.users.listJson(tenantId, query(1, 5, 'desc')).rows)).toEqual(before.slice(0, 5));
    // Another process adds a user: newest first, every later page moves one row down.
    const admin = openStore(join(dir, 'db.sqlite'));
    const added = admin.users.insert(tenantId, { first_name: 'X', last_name: 'X', email: 'x@example.com' });
    admin.close();
    const after = [added.id, ...before];
    expect(ids(server.users.listJson(tenantId, query(2, 5, 'desc')).rows)).toEqual(after.slice(5, 10));
    server.close();
  });

  it('are not continued after a write of the same connection', () => {
    const store = openStore(':memory:');
    const tenantId = seeded(store, 30);
    const before = store.users.list(tenantId, query(1, 100, 'desc')).rows.map((u) => u.id);
    store.users.listJson(tenantId, query(1, 5, 'desc'));
    const added = store.users.insert(tenantId, { first_name: 'X', last_name: 'X', email: 'x@example.com' });
    expect(store.users.listJson(tenantId, query(2, 5, 'desc')).rows.map((t) => JSON.parse(t).id)).toEqual([added.id, ...before].slice(5, 10));
    store.close();
  });
});

describe('answered pages kept for identical lists', () => {
  it('share a page within the first MAIN_THREAD_ROWS rows until a write, and keep none deeper in id order (each page of a walk is asked for once), but a deep page in another order', () => {
    const store = openStore(':memory:');
    const tenantId = seeded(store, 2600);
    const shallow = store.users.listJson(tenantId, query(2, 100));
    expect(store.users.listJson(tenantId, query(2, 100)).rows).toBe(shallow.rows);
    const depth = MAIN_THREAD_ROWS / 100 + 1;
    const deep = store.users.listJson(tenantId, query(depth, 100));
    expect(deep.rows.length).toBeGreaterThan(0);
    const again = store.users.listJson(tenantId, query(depth, 100));
    expect(again.rows).not.toBe(deep.rows);
    expect(again).toEqual(deep);
    const byName = { ...query(depth, 100), order_by: 'last_name' };
    const deepByName = store.users.listJson(tenantId, byName);
    expect(deepByName.rows.length).toBeGreaterThan(0);
    expect(store.users.listJson(tenantId, byName).rows).toBe(deepByName.rows);
    store.users.insert(tenantId, { first_name: 'X', last_name: 'X', email: 'x@example.com' });
    expect(store.users.listJson(tenantId, query(2, 100)).rows).not.toBe(shallow.rows);
    const afterWrite = store.users.listJson(tenantId, byName);
    expect(afterWrite.rows).not.toBe(deepByName.rows);
    expect(afterWrite.total).toBe(deepByName.total + 1);
    store.close();
  });
});
