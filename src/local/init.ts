import { defaultRoleSteps } from '../admin/seed/roles.js';
import type { Awaitable, DataStore } from '../store/port.js';
import { ask, type Steps } from '../store/steps.js';
import type { TenantRecord } from '../store/types.js';

/** Aliases of the first local tenant `localhost` (decisions §4). */
export const LOCAL_ALIASES = ['127.0.0.1', '::1'] as const;

/** The name of the all-permissions key a new local instance gets. */
export const FIRST_KEY_NAME = 'admin';

/**
 * The name instances take turns on while one creates the first tenant (on PostgreSQL an advisory
 * lock, which `admin copy` also takes so that no instance initialises a database being filled).
 */
export const INIT_LOCK = 'confctl:init';

export interface CreatedKey {
  id: string;
  secret: string;
}

export interface FirstTenant {
  tenant: TenantRecord;
  key: CreatedKey;
}

/** A tenant with its domains and the default roles (Admin, Manager, Member). */
export function* createTenantSteps(domain: string, aliases: readonly string[] = []): Steps<TenantRecord> {
  const tenant = yield* ask((s) => s.tenants.create(domain, aliases));
  yield* defaultRoleSteps(tenant.id);
  return tenant;
}

/** On a store without tenants: the first tenant, its roles and an all-permissions key; else undefined. */
export function* initFirstTenantSteps(domain = 'localhost'): Steps<FirstTenant | undefined> {
  if ((yield* ask((s) => s.tenants.list())).length > 0) return undefined;
  const tenant = yield* createTenantSteps(domain, domain === 'localhost' ? LOCAL_ALIASES : []);
  const { record, secret } = yield* ask((s) => s.keys.create({ tenant_id: tenant.id, name: FIRST_KEY_NAME, permissions: ['*'] }));
  return { tenant, key: { id: record.id, secret } };
}

/** Creates a tenant with the default roles, all or nothing. */
export function createTenant(store: DataStore, domain: string, aliases: readonly string[] = []): Awaitable<TenantRecord> {
  return store.atomic(createTenantSteps(domain, aliases));
}

/**
 * Initialises an empty store with its first tenant (`localhost` with its loopback aliases by
 * default), its roles and an all-permissions key, all or nothing. Answers undefined when the
 * store already has a tenant; instances starting together on one new store create one tenant
 * (the check runs under the write lock, or `INIT_LOCK`). The secret is returned here only.
 */
export function initFirstTenant(store: DataStore, domain = 'localhost'): Awaitable<FirstTenant | undefined> {
  return store.atomic(initFirstTenantSteps(domain), { locks: [INIT_LOCK] });
}
