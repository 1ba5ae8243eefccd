import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../src/contract/index.js';
import { openStore } from '../../src/store/sqlite/index.js';

const page: ListQuery = { page_size: 5, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null };
const user = (n: number) => ({ first_name: 'U', last_name: String(n), email: `u${n}@example.com` });

describe('cached list totals', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  /** Two connections to one new database file: `serve`'s and an admin command's beside it. */
  const twoConnections = () => {
    const dir = mkdtempSync(join(tmpdir(), 'confctl-totals-'));
    dirs.push(dir);
    return { server: openStore(join(dir, 'db.sqlite')), admin: openStore(join(dir, 'db.sqlite')) };
  };

  it('follow writes of the same connection', () => {
    const store = openStore(':memory:');
    const t = store.tenants.create('a.test');
    store.users.insert(t.id, user(1));
    expect(store.users.list(t.id, page).total).toBe(1);
    store.users.insert(t.id, user(2));
    expect(store.users.list(t.id, page).total).toBe(2);
    store.users.update(t.id, 1, { first_name: 'V' });
    expect(store.users.list(t.id, { ...page, filter: { attribute: 'first_name', type: 'text', operator: 'Equal', value: 'v' } }).total).toBe(1);
  });

  it('follow commits of another connection to the same file (admin beside serve)', () => {
    const { server, admin } = twoConnections();
    const t = server.tenants.create('a.test');
    expect(server.users.list(t.id, page).total).toBe(0);
    admin.users.insert(t.id, user(1));
    admin.users.insert(t.id, user(2));
    expect(server.users.list(t.id, page).total).toBe(2);
    expect(server.users.list(t.id, page).rows).toHaveLength(2);
    server.close();
    admin.close();
  });

  it('answer identical lists with nothing written between them with one answer, and the next list after any write anew', () => {
    const { server, admin } = twoConnections();
    const t = server.tenants.create('a.test');
    server.users.insert(t.id, user(1));
    const first = server.users.listJson(t.id, page);
    expect(server.users.listJson(t.id, { ...page })).toBe(first);
    expect(server.users.listJson(t.id, { ...page, page_size: 6 })).not.toBe(first);
    // A write of this connection, then a commit of another's: each list after it reads again.
    server.users.insert(t.id, user(2));
    const second = server.users.listJson(t.id, page);
    expect([second.total, second.rows.map((r) => (JSON.parse(r) as { email: string }).email)]).toEqual([2, ['u1@example.com', 'u2@example.com']]);
    admin.users.update(t.id, 1, { first_name: 'V' });
    const third = server.users.listJson(t.id, page);
    expect(third).not.toBe(second);
    expect((JSON.parse(third.rows[0]) as { first_name: string }).first_name).toBe('V');
    expect(first.rows).toHaveLength(1);
    server.close();
    admin.close();
  });
});
