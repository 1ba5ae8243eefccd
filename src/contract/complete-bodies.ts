/**
 * The hosted service's complete-body rules: where our server accepts a partial body, the hosted
 * reference requires every key of these three writes, even on PATCH. The CLI builds its bodies to
 * satisfy them (so it works against both), and `serve --strict` can apply them. Free of zod, so
 * the CLI loads it without the schemas.
 */
import type { OperationId } from './operations-meta.js';

export interface CompleteBodyRule {
  /** Keys the body must carry, in the body schema's order. */
  readonly keys: readonly string[];
  /** Of `keys`, those that may not be null. */
  readonly notNull: readonly string[];
}

export const COMPLETE_BODIES = {
  /** All seven writable fields; `department_id` alone may be null (no department). */
  updateUser: {
    keys: ['department_id', 'first_name', 'last_name', 'email', 'timezone', 'work_hours', 'role'],
    notNull: ['first_name', 'last_name', 'email', 'timezone', 'work_hours', 'role'],
  },
  updateConference: { keys: ['title', 'is_public'], notNull: ['title', 'is_public'] },
  /** All six keys; the name parts and the e-mail are required, `address` is an object (`{}` for none). */
  createCustomer: {
    keys: ['first_name', 'middle_name', 'last_name', 'email', 'contact_number', 'address'],
    notNull: ['first_name', 'last_name', 'email', 'address'],
  },
} as const satisfies Partial<Record<OperationId, CompleteBodyRule>>;

export type CompleteBodyOperation = keyof typeof COMPLETE_BODIES;

/** True when `id`'s body must be complete. */
export const needsCompleteBody = (id: string): id is CompleteBodyOperation => Object.hasOwn(COMPLETE_BODIES, id);

/** The keys of `body` that break `id`'s rule: absent, or null where null is not allowed. Empty when complete. */
export function incompleteKeys(id: CompleteBodyOperation, body: Readonly<Record<string, unknown>>): string[] {
  const rule: CompleteBodyRule = COMPLETE_BODIES[id];
  return rule.keys.filter((k) => !(k in body) || (body[k] === null && rule.notNull.includes(k)));
}
