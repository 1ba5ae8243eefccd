import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/harness.js';
import { adminDatabaseFixture } from './admin-database-fixture.js';

/** `admin roles|departments|invitations list` and `admin keys create`, each case on a data directory and on a database. */
const { adminOn } = adminDatabaseFixture();

describe.each(BACKENDS)('admin roles list / departments list (%s)', (backend) => {
  it("lists a tenant's roles and departments from the store", async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.json(['admin', 'roles', 'list'])).toEqual([
      { name: 'Admin', tenant: 'localhost' },
      { name: 'Manager', tenant: 'localhost' },
      { name: 'Member', tenant: 'localhost' },
    ]);
    expect(await f.json(['admin', 'departments', 'list'])).toEqual([]);
    await f.json(['admin', 'seed', '--demo']);
    const departments = await f.json<{ id: number; name: string; tenant: string }[]>(['admin', 'departments', 'list', '--tenant', '127.0.0.1']);
    const stored = await f.store((store) => store.departments.list(1));
    expect(departments).toEqual(stored.map((d) => ({ id: d.id, name: d.name, tenant: 'localhost' })));
    expect(departments.length).toBeGreaterThan(2);
  });

  it('prints a table on a terminal and the selected fields on request; an unknown tenant is exit 4', async () => {
    const f = await adminOn(backend, { tty: true });
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['admin', 'roles', 'list'])).toBe(0);
    expect(f.stdout()).toMatch(/name\s.*tenant[\s\S]*Manager\s.*localhost/);
    expect(await f.json(['admin', 'roles', 'list', '--fields', 'name'])).toEqual([{ name: 'Admin' }, { name: 'Manager' }, { name: 'Member' }]);
    expect(await f.run(['admin', 'departments', 'list', '--tenant', 'nope.test'])).toBe(4);
    expect(f.stderr()).toContain("no tenant has the domain 'nope.test'");
  });
});

describe.each(BACKENDS)('admin invitations list (%s)', (backend) => {
  it("lists a tenant's invitations oldest first, each tenant its own; empty before any", async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    await f.json(['admin', 'tenants', 'add', 'acme.test']);
    expect(await f.json(['admin', 'invitations', 'list'])).toEqual([]);
    const ids = await f.store(async (store) => {
      const [local, acme] = await store.tenants.list();
      const ada = await store.users.insert(local.id, { first_name: 'Ada', last_name: 'L', email: 'ada@x.test' });
      const bob = await store.users.insert(acme.id, { first_name: 'Bob', last_name: 'B', email: 'bob@acme.test' });
      await store.invitations.insert(local.id, { user_id: ada.id, email: ada.email, created_at: '2026-01-02T03:04:05.000Z' });
      await store.invitations.insert(acme.id, { user_id: bob.id, email: bob.email, created_at: '2026-01-03T00:00:00.000Z' });
      await store.invitations.insert(local.id, { user_id: ada.id, email: ada.email, created_at: '2026-01-04T00:00:00.000Z' });
      return { ada: ada.id, bob: bob.id };
    });
    expect(await f.json(['admin', 'invitations', 'list'])).toEqual([
      { id: 1, created_at: '2026-01-02T03:04:05.000Z', user_id: ids.ada, email: 'ada@x.test', tenant: 'localhost' },
      { id: 3, created_at: '2026-01-04T00:00:00.000Z', user_id: ids.ada, email: 'ada@x.test', tenant: 'localhost' },
    ]);
    expect(await f.json(['admin', 'invitations', 'list', '--tenant', 'acme.test', '--fields', 'user_id,email'])).toEqual([{ user_id: ids.bob, email: 'bob@acme.test' }]);
    expect(await f.run(['admin', 'invitations', 'list', '--tenant', 'nope.test'])).toBe(4);
    expect(await f.run(['admin', 'invitations', 'list', '-o', 'csv'])).toBe(0);
    expect(f.stdout()).toContain('id,created_at,user_id,email,tenant\n1,2026-01-02T03:04:05.000Z,');
  });
});

describe.each(BACKENDS)('admin keys create and the permissions of decisions §11 (%s)', (backend) => {
  it('accepts users.create.* and users.lock.*, and its help lists them', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    const key = await f.json(['admin', 'keys', 'create', '--name', 'onboarding', '--permissions', 'users.create.*,users.lock.*']);
    expect(key.permissions).toEqual(['users.create.*', 'users.lock.*']);
    expect(await f.run(['admin', 'keys', 'create', '--name', 'typo', '--permissions', 'users.locks.*'])).toBe(2);
    expect(f.stderr()).toMatch(/known permissions: .*users\.create\.\*, users\.lock\.\*/);
    expect(await f.run(['admin', 'keys', 'create', '--help'])).toBe(0);
    expect(f.stdout()).toMatch(/Permissions: .*users\.create\.\*, users\.lock\.\*, users\.read\.\*/);
  });
});
