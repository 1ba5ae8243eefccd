import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTenant, initFirstTenant } from '../../src/local/init.js';
import { findTenant } from '../../src/local/open.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

describe('first tenant', () => {
  it('creates localhost with loopback aliases, the default roles and an all-permissions key', () => {
    const store = openStore(':memory:');
    const created = atOnce(initFirstTenant(store))!;
    expect(created.tenant).toMatchObject({ primary_domain: 'localhost', aliases: ['127.0.0.1', '::1'] });
    expect(store.roles.list(created.tenant.id).sort()).toEqual(['Admin', 'Manager', 'Member']);
    const key = store.keys.get(created.key.id)!;
    expect(key).toMatchObject({ tenant_id: created.tenant.id, name: 'admin', permissions: ['*'], revoked_at: null, expires_at: null });
    expect(key.secret_hash).toBe(createHash('sha256').update(created.key.secret).digest('hex'));
    expect(JSON.stringify(key)).not.toContain(created.key.secret);
    expect(store.tenants.byDomain('::1')?.id).toBe(created.tenant.id);
  });

  it('does nothing on a store that already has a tenant', () => {
    const store = openStore(':memory:');
    atOnce(initFirstTenant(store, 'example.test'));
    expect(atOnce(initFirstTenant(store))).toBeUndefined();
    expect(store.tenants.list()).toHaveLength(1);
    expect(store.tenants.list()[0].aliases).toEqual([]);
  });

  it('finds tenants by domain or takes the first', async () => {
    const store = openStore(':memory:');
    const first = atOnce(initFirstTenant(store))!.tenant;
    const acme = atOnce(createTenant(store, 'acme.test', ['www.acme.test']));
    expect(store.roles.list(acme.id)).toHaveLength(3);
    expect((await findTenant(store, undefined))?.id).toBe(first.id);
    expect((await findTenant(store, 'WWW.ACME.TEST'))?.id).toBe(acme.id);
    expect(await findTenant(store, 'nope.test')).toBeUndefined();
  });
});

describe('first tenant, two processes', () => {
  it('is created once when another process initialised the directory meanwhile', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confctl-init-'));
    const mine = openStore(join(dir, 'confctl.db'));
    const other = openStore(join(dir, 'confctl.db'));
    try {
      // The other process initialises after this one saw an empty store but before it writes.
      const racing: SqliteStore = { ...mine, atomic: (steps, options) => (atOnce(initFirstTenant(other)), mine.atomic(steps, options)) };
      expect(mine.tenants.list()).toEqual([]);
      expect(atOnce(initFirstTenant(racing))).toBeUndefined();
      expect(mine.tenants.list()).toHaveLength(1);
    } finally {
      mine.close();
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
