import { afterEach } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { DataStore } from '../../src/store/port.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Backend } from '../e2e/harness.js';
import { createMigratedDatabase, type TestDatabase } from '../pg/database.js';
import { q } from '../store/contract/fixtures.js';

/**
 * For the tests written once as `describe.each(BACKENDS)` on a store: call it at a test file's
 * top level; it answers `open`, which opens an empty store of the backend (SQLite in memory, or a
 * fresh migrated PostgreSQL database), and registers the hook that closes the store and drops the
 * database after each test.
 */
export function storeBackends() {
  let database: TestDatabase | undefined;
  let opened: DataStore | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
    await database?.drop();
    database = undefined;
  });
  return async function open(backend: Backend): Promise<DataStore> {
    if (backend === 'sqlite') opened = openStore(':memory:');
    else {
      database = await createMigratedDatabase();
      opened = await openPostgresStore(database.url);
    }
    return opened;
  };
}

/**
 * For the admin function tests written once as `describe.each(BACKENDS)`: as `storeBackends`, and
 * `setup` gives the store two tenants, the first with a user and a calendar.
 */
export function adminBackends() {
  const open = storeBackends();
  return async function setup(backend: Backend) {
    const store = await open(backend);
    const tenantId = (await store.tenants.create('localhost', ['127.0.0.1'])).id;
    const otherTenantId = (await store.tenants.create('other.example')).id;
    const owner = await store.users.insert(tenantId, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    const calendar = await store.calendars.insert(tenantId, { owner_type: 'User', owner_id: owner.id, name: 'Work' });
    return { store, tenantId, otherTenantId, owner, calendar };
  };
}

/** How many rows of each kind a tenant holds, deleted ones included, read through the port. */
export async function tenantRows(store: DataStore, tenantId: number) {
  const all = q({ with_trashed: true, page_size: 100 });
  const conferences = await store.conferences.list(tenantId, all);
  let recordings = 0;
  for (const c of conferences.rows) recordings += (await store.recordings.listByConference(c.id, { page_size: 1, page_number: 1 })).total;
  return {
    users: (await store.users.list(tenantId, all)).total,
    customers: (await store.customers.list(tenantId, all)).total,
    conferences: conferences.total,
    recordings,
    meeting_links: (await store.meetingLinks.list(tenantId)).length,
  };
}
