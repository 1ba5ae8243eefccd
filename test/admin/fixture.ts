import { ensureDefaultRoles } from '../../src/admin/seed/index.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

/** A fresh in-memory store with two tenants (so cross-tenant lookups can be checked). */
export function setup() {
  const store: SqliteStore = openStore(':memory:');
  const tenant = store.tenants.create('localhost', ['127.0.0.1']);
  const other = store.tenants.create('other.example');
  atOnce(ensureDefaultRoles(store, tenant.id));
  atOnce(ensureDefaultRoles(store, other.id));
  const owner = store.users.insert(tenant.id, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', role: 'Admin' });
  const account = store.conferenceAccounts.insert(tenant.id, { owner_type: 'User', owner_id: owner.id, name: 'Ada room' });
  const conference = store.conferences.insert(tenant.id, {
    online_conference_account_id: account.id,
    public_id: 'weekly-sync',
    title: 'Weekly sync',
    is_public: false,
  });
  return { store, tenantId: tenant.id, otherTenantId: other.id, owner, account, conference };
}
