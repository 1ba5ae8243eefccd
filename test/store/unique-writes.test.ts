import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UniqueViolation } from '../../src/store/index.js';
import { openStore } from '../../src/store/sqlite/index.js';

describe('writes that meet a uniqueness rule', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('throw UniqueViolation naming the field, and change nothing', () => {
    const store = openStore(':memory:');
    const t = store.tenants.create('a.test').id;
    store.customers.insert(t, { first_name: 'A', last_name: 'B', email: 'taken@example.com' });
    const other = store.customers.insert(t, { first_name: 'C', last_name: 'D', email: 'free@example.com' });
    expect(() => store.customers.insert(t, { first_name: 'E', last_name: 'F', email: 'TAKEN@example.com' })).toThrow(UniqueViolation);
    expect(() => store.customers.update(t, other.id, { email: 'taken@example.com' })).toThrow(expect.objectContaining({ field: 'email' }));
    expect(store.customers.get(t, other.id)?.email).toBe('free@example.com');

    store.users.insert(t, { first_name: 'U', last_name: '1', email: 'u1@example.com' });
    const u2 = store.users.insert(t, { first_name: 'U', last_name: '2', email: 'u2@example.com' });
    expect(() => store.users.update(t, u2.id, { email: 'U1@example.com' })).toThrow(UniqueViolation);
    expect(store.users.get(t, u2.id)?.email).toBe('u2@example.com');
  });

  it('also when another connection (an admin command beside serve) wrote first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confctl-unique-'));
    dirs.push(dir);
    const server = openStore(join(dir, 'db.sqlite'));
    const admin = openStore(join(dir, 'db.sqlite'));
    const t = server.tenants.create('a.test').id;
    expect(server.customers.emailTaken(t, 'race@example.com')).toBe(false);
    admin.customers.insert(t, { first_name: 'Admin', last_name: 'Import', email: 'race@example.com' });
    expect(() => server.customers.insert(t, { first_name: 'Api', last_name: 'Create', email: 'race@example.com' })).toThrow(UniqueViolation);
    server.close();
    admin.close();
  });
});
