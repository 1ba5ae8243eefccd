import { change } from '../change.js';
import { ask, type Steps } from '../steps.js';

/** The roles a new tenant starts with (decisions §7). */
export const DEFAULT_ROLES = ['Admin', 'Manager', 'Member'] as const;

/** Creates the default roles of a tenant, as steps (../steps.ts); existing ones are kept. */
export function* defaultRoleSteps(tenantId: number): Steps<void> {
  for (const r of DEFAULT_ROLES) yield* ask((s) => s.roles.create(tenantId, r));
}

/** The lock seeds of one tenant take turns on (bulk rows are numbered one after the other; a second demo adds nothing). */
export const seedLock = (tenantId: number) => `seed:${tenantId}`;

/** Creates the default roles of a tenant; existing ones are kept (idempotent). */
export const ensureDefaultRoles = change(defaultRoleSteps);
