import { afterEach, describe, expect, it } from 'vitest';
import { type AdminFake, adminFake } from './admin-helpers.js';

let f: AdminFake;
afterEach(() => f.dispose());

describe('admin roles list / departments list', () => {
  it("lists a tenant's roles and departments from the data directory", async () => {
    f = adminFake();
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.json(['admin', 'roles', 'list'])).toEqual([
      { name: 'Admin', tenant: 'localhost' },
      { name: 'Manager', tenant: 'localhost' },
      { name: 'Member', tenant: 'localhost' },
    ]);
    expect(await f.json(['admin', 'departments', 'list'])).toEqual([]);
    await f.json(['admin', 'seed', '--demo']);
    const departments = await f.json<{ id: number; name: string; tenant: string }[]>(['admin', 'departments', 'list', '--tenant', '127.0.0.1']);
    const stored = f.inspect((l) => l.store.departments.list(1));
    expect(departments).toEqual(stored.map((d) => ({ id: d.id, name: d.name, tenant: 'localhost' })));
    expect(departments.length).toBeGreaterThan(2);
  });

  it('prints a table on a terminal and the selected fields on request; an unknown tenant is exit 4', async () => {
    f = adminFake({ tty: true });
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['admin', 'roles', 'list'])).toBe(0);
    expect(f.stdout()).toMatch(/name\s.*tenant[\s\S]*Manager\s.*localhost/);
    expect(await f.json(['admin', 'roles', 'list', '--fields', 'name'])).toEqual([{ name: 'Admin' }, { name: 'Manager' }, { name: 'Member' }]);
    expect(await f.run(['admin', 'departments', 'list', '--tenant', 'nope.test'])).toBe(4);
    expect(f.stderr()).toContain("no tenant has the domain 'nope.test'");
  });
});
