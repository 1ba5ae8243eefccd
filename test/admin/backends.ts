import { afterEach } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { DataStore } from '../../src/store/port.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Backend } from '../e2e/harness.js';
import { createMigratedDatabase, type TestDatabase } from '../pg/database.js';

/**
 * For the admin function tests written once as `describe.each(BACKENDS)`: call it at a test
 * file's top level; it answers `setup`, which opens a store of the backend (SQLite in memory, or a
 * fresh migrated PostgreSQL database) with two tenants, the first with a user and a calendar, and
 * registers the hook that closes the store and drops the database after each test.
 */
export function adminBackends() {
  let database: TestDatabase | undefined;
  let opened: DataStore | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
    await database?.drop();
    database = undefined;
  });
  return async function setup(backend: Backend) {
    if (backend === 'sqlite') opened = openStore(':memory:');
    else {
      database = await createMigratedDatabase();
      opened = await openPostgresStore(database.url);
    }
    const store = opened;
    const tenantId = (await store.tenants.create('localhost', ['127.0.0.1'])).id;
    const otherTenantId = (await store.tenants.create('other.example')).id;
    const owner = await store.users.insert(tenantId, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    const calendar = await store.calendars.insert(tenantId, { owner_type: 'User', owner_id: owner.id, name: 'Work' });
    return { store, tenantId, otherTenantId, owner, calendar };
  };
}
