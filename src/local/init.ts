import { ensureDefaultRoles } from '../admin/seed/roles.js';
import type { Store, TenantRecord } from '../store/types.js';

/** Aliases of the first local tenant `localhost` (decisions §4). */
export const LOCAL_ALIASES = ['127.0.0.1', '::1'] as const;

/** The name of the all-permissions key a new local instance gets. */
export const FIRST_KEY_NAME = 'admin';

export interface CreatedKey {
  id: string;
  secret: string;
}

/** Creates a tenant with the default roles (Admin, Manager, Member), in one transaction. */
export function createTenant(store: Store, domain: string, aliases: readonly string[] = []): TenantRecord {
  return store.transaction(() => {
    const tenant = store.tenants.create(domain, aliases);
    ensureDefaultRoles(store, tenant.id);
    return tenant;
  });
}

/**
 * Initialises an empty store with its first tenant (`localhost` with its loopback aliases by
 * default) and an all-permissions key. Answers undefined when the store already has a tenant.
 * The secret is returned here only.
 */
export function initFirstTenant(store: Store, domain = 'localhost'): { tenant: TenantRecord; key: CreatedKey } | undefined {
  // Checked under the write lock: two processes starting on one new directory create one tenant.
  return store.transaction(() => {
    if (store.tenants.list().length > 0) return undefined;
    const tenant = createTenant(store, domain, domain === 'localhost' ? LOCAL_ALIASES : []);
    const { record, secret } = store.keys.create({ tenant_id: tenant.id, name: FIRST_KEY_NAME, permissions: ['*'] });
    return { tenant, key: { id: record.id, secret } };
  });
}
