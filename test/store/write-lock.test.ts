import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isBusyError } from '../../src/store/index.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';

/**
 * Two connections on one file stand for two processes (`serve` and an admin command). A write
 * transaction must hold the write lock from its start: with a deferred BEGIN its first read takes
 * a snapshot, another process commits, and the transaction's first write then fails "database is
 * locked" whatever the busy timeout.
 */
describe('write transactions', () => {
  const dirs: string[] = [];
  const stores: SqliteStore[] = [];
  afterEach(() => {
    stores.splice(0).forEach((s) => s.close());
    dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  });
  const pair = () => {
    const dir = mkdtempSync(join(tmpdir(), 'confctl-lock-'));
    dirs.push(dir);
    const a = openStore(join(dir, 'confctl.db'));
    const b = openStore(join(dir, 'confctl.db'));
    stores.push(a, b);
    const tenant = a.tenants.create('a.test').id;
    return { a, b, tenant };
  };
  const customer = (email: string) => ({ first_name: 'F', last_name: 'L', email });

  it('take the write lock before their first read, so a read-then-write transaction commits', () => {
    const { a, b, tenant } = pair();
    b.setBusyTimeout(0);
    let other: unknown;
    const created = a.transaction(() => {
      expect(a.customers.emailTaken(tenant, 'first@example.com')).toBe(false);
      // Another process writes between this transaction's read and its write.
      try {
        b.customers.insert(tenant, customer('other@example.com'));
      } catch (err) {
        other = err;
      }
      return a.customers.insert(tenant, customer('first@example.com'));
    });
    expect(created.email).toBe('first@example.com');
    expect(isBusyError(other)).toBe(true);
    const emails = b.customers.list(tenant, { page_size: 10, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).rows.map((c) => c.email);
    expect(emails).toEqual(['first@example.com']);
  });

  it('wait for a writer in another process for the busy timeout, then fail busy having written nothing', () => {
    const { a, b, tenant } = pair();
    b.setBusyTimeout(10);
    const attempt = (email: string) => () => b.transaction(() => b.customers.insert(tenant, customer(email)));
    a.transaction(() => {
      a.customers.insert(tenant, customer('holder@example.com'));
      expect(attempt('blocked@example.com')).toThrow(expect.objectContaining({ code: expect.stringMatching(/^SQLITE_BUSY/) }));
    });
    expect(b.customers.emailTaken(tenant, 'blocked@example.com')).toBe(false);
    attempt('later@example.com')();
    expect(a.customers.emailTaken(tenant, 'later@example.com')).toBe(true);
  });

  it('planner maintenance is skipped, not failed, while another process holds the write lock', () => {
    const { a, b, tenant } = pair();
    b.setBusyTimeout(0);
    a.transaction(() => {
      a.customers.insert(tenant, customer('holder@example.com'));
      expect(() => b.optimize()).not.toThrow();
    });
    expect(b.customers.emailTaken(tenant, 'holder@example.com')).toBe(true);
  });

  it('isBusyError knows only the busy family', () => {
    expect(isBusyError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' }))).toBe(true);
    expect(isBusyError(Object.assign(new Error('x'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(false);
    expect(isBusyError(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(true);
    expect(isBusyError(Object.assign(new Error('could not serialize access'), { code: '40001' }))).toBe(true);
    expect(isBusyError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isBusyError(undefined)).toBe(false);
  });
});
