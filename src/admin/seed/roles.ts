import type { Store } from '../../store/types.js';

/** The roles a new tenant starts with (decisions §7). */
export const DEFAULT_ROLES = ['Admin', 'Manager', 'Member'] as const;

/** Creates the default roles of a tenant; existing ones are kept (idempotent). */
export function ensureDefaultRoles(store: Store, tenantId: number): void {
  store.transaction(() => {
    for (const r of DEFAULT_ROLES) store.roles.create(tenantId, r);
  });
}
