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
    const dir = mkdtempSync(join(tmpdir(), 'confctl-totals-'));
    dirs.push(dir);
    const server = openStore(join(dir, 'db.sqlite'));
    const admin = openStore(join(dir, 'db.sqlite'));
    const t = server.tenants.create('a.test');
    expect(server.users.list(t.id, page).total).toBe(0);
    admin.users.insert(t.id, user(1));
    admin.users.insert(t.id, user(2));
    expect(server.users.list(t.id, page).total).toBe(2);
    expect(server.users.list(t.id, page).rows).toHaveLength(2);
    server.close();
    admin.close();
  });
});
