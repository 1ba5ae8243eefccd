import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../src/server/index.js';
import { MAX_CACHED_KEYS, StoreLookups } from '../../src/server/lookups.js';
import type { Awaitable } from '../../src/store/port.js';
import { tempDir } from '../tmp.js';
import { API } from './fixtures.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';

const opened: SqliteStore[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

/** A store on a temporary file, as `serve` and an `admin` command in another process open it. */
function fileStore(file = join(tempDir(), 'confctl.db')): SqliteStore {
  const store = openStore(file);
  opened.push(store);
  return store;
}

/** A lookup's answer on SQLite, which answers at once (the type allows PostgreSQL's promise). */
const sync = <T>(answer: Awaitable<T>) => answer as T;

/** The store with its tenant and key reads counted. */
function counted(store: SqliteStore) {
  const calls = { tenants: 0, keys: 0 };
  const spied: SqliteStore = {
    ...store,
    tenants: { ...store.tenants, byDomain: (d) => (calls.tenants++, store.tenants.byDomain(d)) },
    keys: { ...store.keys, get: (id) => (calls.keys++, store.keys.get(id)) },
  };
  return { spied, calls };
}

describe('StoreLookups', () => {
  it('reads a tenant and a key once while nothing is written, and again after a write', () => {
    const store = fileStore();
    const tenant = store.tenants.create('a.test');
    const { record } = store.keys.create({ tenant_id: tenant.id, name: 'k', permissions: ['*'] });
    const { spied, calls } = counted(store);
    const lookups = new StoreLookups(spied);
    for (let i = 0; i < 3; i++) {
      void lookups.refresh();
      expect(sync(lookups.tenantByDomain('a.test'))?.id).toBe(tenant.id);
      expect(sync(lookups.key(record.id))?.record.id).toBe(record.id);
    }
    expect(calls).toEqual({ tenants: 1, keys: 1 });
    store.keys.revoke(record.id);
    void lookups.refresh();
    expect(sync(lookups.key(record.id))?.record.revoked_at).not.toBeNull();
    expect(calls.keys).toBe(2);
  });

  it("keeps tenants and keys across the store's other writes (a POST), drops them after tenant or key writes", () => {
    const store = fileStore();
    const tenant = store.tenants.create('a.test');
    const { record } = store.keys.create({ tenant_id: tenant.id, name: 'k', permissions: ['*'] });
    const { spied, calls } = counted(store);
    const lookups = new StoreLookups(spied);
    const read = () => {
      void lookups.refresh();
      return [sync(lookups.tenantByDomain('a.test')), sync(lookups.key(record.id))] as const;
    };
    read();
    store.customers.insert(tenant.id, { first_name: 'A', last_name: 'B', email: 'a@example.com' });
    store.users.insert(tenant.id, { first_name: 'A', last_name: 'B', email: 'a@example.com' });
    read();
    expect(calls).toEqual({ tenants: 1, keys: 1 });
    store.tenants.addAlias(tenant.id, 'b.test');
    expect(read()[0]?.aliases).toEqual(['b.test']);
    store.keys.create({ tenant_id: tenant.id, name: 'other', permissions: ['*'] });
    read();
    expect(calls).toEqual({ tenants: 3, keys: 3 });
  });

  it('never caches unknown key ids or hosts: a flood of made-up ones leaves it empty', () => {
    const store = fileStore();
    store.tenants.create('a.test');
    const lookups = new StoreLookups(store);
    void lookups.refresh();
    for (let i = 0; i < MAX_CACHED_KEYS + 100; i++) {
      expect(lookups.key(`ak_${String(i).padStart(24, '0')}`)).toBeUndefined();
      if (i % 100 === 0) expect(lookups.tenantByDomain(`h${i}.test`)).toBeUndefined();
    }
    expect(lookups.sizes()).toEqual({ tenants: 0, keys: 0 });
  });
});

describe('changes made by another process take effect on the next request', () => {
  /** `serve`'s store and server, and a second connection to the same file standing for `admin`. */
  function twoProcesses() {
    const file = join(tempDir(), 'confctl.db');
    const store = fileStore(file);
    const tenant = store.tenants.create('localhost');
    const { record, secret } = store.keys.create({ tenant_id: tenant.id, name: 'k', permissions: ['*'] });
    const app = createServer({ store, signingSecret: 'test-secret', mediaDir: '/nonexistent', rateLimit: null, log: 'off' });
    const admin = fileStore(file);
    const get = (host: string, keyId: string, keySecret: string) =>
      app.request({ path: `${API}/users?page_size=1`, headers: { host, 'x-access-key-id': keyId, 'x-access-key-secret': keySecret } });
    return { tenant, record, secret, admin, get };
  }

  it('a key revoked through another connection is refused on the very next request', async () => {
    const { record, secret, admin, get } = twoProcesses();
    expect((await get('localhost', record.id, secret)).status).toBe(200);
    expect((await get('localhost', record.id, secret)).status).toBe(200);
    expect(admin.keys.revoke(record.id)).toBe(true);
    const res = await get('localhost', record.id, secret);
    expect(res.status).toBe(401);
    expect(res.body).toBe('Invalid or missing access key.');
  });

  it('a tenant and key added through another connection answer on the very next request', async () => {
    const { record, secret, admin, get } = twoProcesses();
    expect((await get('localhost', record.id, secret)).status).toBe(200);
    expect((await get('new.test', record.id, secret)).status).toBe(404);
    const added = admin.tenants.create('new.test');
    const key = admin.keys.create({ tenant_id: added.id, name: 'k', permissions: ['*'] });
    const res = await get('new.test', key.record.id, key.secret);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ data: [], total: 0 });
    // The first tenant's key still belongs to it alone.
    expect((await get('new.test', record.id, secret)).status).toBe(401);
  });

  it('a key revoked by the serving connection itself is refused on the next request', async () => {
    const { record, secret, get } = twoProcesses();
    expect((await get('localhost', record.id, secret)).status).toBe(200);
    opened[0].keys.revoke(record.id);
    expect((await get('localhost', record.id, secret)).status).toBe(401);
  });
});
