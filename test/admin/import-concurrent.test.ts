import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importRecords, ImportError } from '../../src/admin/import.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

/**
 * `admin import` beside another process that writes (two connections on one file stand for the
 * two processes). Validation runs without the write lock; the checks against stored data run
 * again under it.
 */
describe('admin import beside another writer', () => {
  let dir: string;
  const stores: SqliteStore[] = [];
  afterEach(() => {
    stores.splice(0).forEach((s) => s.close());
    rmSync(dir, { recursive: true, force: true });
  });
  const open = () => {
    dir = mkdtempSync(join(tmpdir(), 'confctl-import-'));
    const admin = openStore(join(dir, 'confctl.db'));
    const server = openStore(join(dir, 'confctl.db'));
    stores.push(admin, server);
    server.setBusyTimeout(0);
    return { admin, server, tenant: admin.tenants.create('a.test').id };
  };
  const customer = (email: string) => ({ first_name: 'F', last_name: 'L', email });
  const ndjson = (emails: string[]) => emails.map((e) => JSON.stringify(customer(e))).join('\n');
  const emails = (store: SqliteStore, tenant: number) =>
    store.customers.list(tenant, { page_size: 100, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).rows.map((c) => c.email);

  it('lets the other process write while records are validated, then imports them all', () => {
    const { admin, server, tenant } = open();
    let wrote = false;
    // The other process commits in the middle of validation, without waiting for any lock.
    const watched: SqliteStore = {
      ...admin,
      customers: {
        ...admin.customers,
        emailTaken: (...args) => {
          if (!wrote) server.customers.insert(tenant, customer('api@example.com'));
          wrote = true;
          return admin.customers.emailTaken(...args);
        },
      },
    };
    const result = atOnce(importRecords(watched, tenant, 'customers', ndjson(['one@example.com', 'two@example.com']), { fileName: 'c.ndjson' }));
    expect(result).toEqual({ kind: 'customers', created: 2 });
    expect(emails(server, tenant)).toEqual(['api@example.com', 'one@example.com', 'two@example.com']);
  });

  it('re-checks uniqueness under the lock: an email taken after validation fails the import, which writes nothing', () => {
    const { admin, server, tenant } = open();
    // The other process takes an email of the file after validation, just before the import's transaction.
    const racing: SqliteStore = {
      ...admin,
      transaction: (fn) => {
        server.customers.insert(tenant, customer('TWO@example.com'));
        return admin.transaction(fn);
      },
    };
    const error = (() => {
      try {
        atOnce(importRecords(racing, tenant, 'customers', ndjson(['one@example.com', 'two@example.com']), { fileName: 'c.ndjson' }));
      } catch (e) {
        return e;
      }
    })() as ImportError;
    expect(error).toBeInstanceOf(ImportError);
    expect(error.details()).toEqual(['c.ndjson:2: email: The email has already been taken.']);
    expect(emails(server, tenant)).toEqual(['TWO@example.com']);
  });
});
