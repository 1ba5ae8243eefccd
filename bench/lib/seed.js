// Data directories for the benchmark, filled with the store's bulk seeder (one transaction) from
// the built code in dist/, so that `confctl serve --data DIR` serves them as it would a user's.

const DEPARTMENTS = ['Engineering', 'Sales', 'Support', 'Finance', 'Legal', 'Marketing', 'Research', 'Operations'];

/** The permissions of the benchmark's key: what the scenarios need, checked on every request (not `*`). */
const PERMISSIONS = ['users.read.*', 'customers.read.*', 'customers.create.*'];

/**
 * Creates the data directory `dir` with the tenant `localhost`: `users` users (about 20 % with
 * status 0, 5 % soft-deleted, spread over 8 departments) and 1,000 customers, plus a key limited to
 * PERMISSIONS. Answers that key.
 */
export async function seedDataDir(dir, users) {
  const { openLocal } = await import('../../dist/local/open.js');
  const { initFirstTenant } = await import('../../dist/local/init.js');
  const { seedBulk } = await import('../../dist/admin/seed/index.js');
  const { store } = openLocal(dir, {});
  try {
    const created = initFirstTenant(store);
    if (!created) throw new Error(`${dir} already holds a tenant`);
    const tenantId = created.tenant.id;
    for (const name of DEPARTMENTS) store.departments.create(tenantId, name);
    seedBulk(store, tenantId, { users, customers: 1_000 });
    const { record, secret } = store.keys.create({ tenant_id: tenantId, name: 'bench', permissions: PERMISSIONS });
    store.optimize();
    return { keyId: record.id, secret };
  } finally {
    store.close();
  }
}

/** The tenant's users (not deleted) of the data directory `dir`, as the API shows them: json-server's data. */
export async function exportUsers(dir) {
  const { openLocal } = await import('../../dist/local/open.js');
  const { store } = openLocal(dir, {});
  try {
    const [tenant] = store.tenants.list();
    const query = { page_size: 1_000_000, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null };
    return store.users.list(tenant.id, query).rows;
  } finally {
    store.close();
  }
}
