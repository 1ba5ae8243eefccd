import { DEFAULT_ROLES } from '../admin/seed/roles.js';
import type { PostgresStore } from '../store/postgres/index.js';
import type { TenantRecord } from '../store/types.js';
import { type CreatedKey, FIRST_KEY_NAME, LOCAL_ALIASES } from './init.js';

/**
 * `initFirstTenant` for a database that several instances share: under a session advisory lock,
 * so that instances starting together on an empty database create one tenant and one key.
 */
export async function initFirstTenantShared(store: PostgresStore, domain = 'localhost'): Promise<{ tenant: TenantRecord; key: CreatedKey } | undefined> {
  const lock = await store.pool.connect();
  try {
    await lock.query("SELECT pg_advisory_lock(hashtextextended('confctl:init', 0))");
    if ((await store.tenants.list()).length > 0) return undefined;
    const tenant = await store.tenants.create(domain, domain === 'localhost' ? LOCAL_ALIASES : []);
    for (const role of DEFAULT_ROLES) await store.roles.create(tenant.id, role);
    const { record, secret } = await store.keys.create({ tenant_id: tenant.id, name: FIRST_KEY_NAME, permissions: ['*'] });
    return { tenant, key: { id: record.id, secret } };
  } finally {
    await lock.query("SELECT pg_advisory_unlock(hashtextextended('confctl:init', 0))").catch(() => {});
    lock.release();
  }
}
