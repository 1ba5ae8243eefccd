import { ALL_PERMISSIONS } from './operations-meta.js';

/**
 * Permission grants: a grant matches a required permission segment by segment;
 * `*` matches any one segment, and a trailing `*` matches the rest. So `*` grants everything,
 * `users.*` every `users.…` permission, and `users.read.*` exactly `users.read.*`.
 */
export function grantMatches(grant: string, required: string): boolean {
  const g = grant.split('.');
  const r = required.split('.');
  for (let i = 0; i < g.length; i++) {
    if (g[i] === '*' && i === g.length - 1) return true;
    if (i >= r.length) return false;
    if (g[i] !== '*' && g[i] !== r[i]) return false;
  }
  return g.length === r.length;
}

/** True when the grants cover every one of the required permissions. */
export function hasPermissions(grants: readonly string[], required: readonly string[]): boolean {
  return required.every((p) => grants.some((g) => grantMatches(g, p)));
}

/** A permission name or grant: dot-separated segments of letters, digits, `_` or a lone `*`. */
export const PERMISSION_PATTERN = /^(\*|[a-z0-9_]+)(\.(\*|[a-z0-9_]+))*$/;

/**
 * The grants that match none of the known permissions (every permission an operation of the
 * table requires): `user.read.*` is a typo, while `*`, `users.*` and `*.read.*` match some.
 */
export function grantsMatchingNothing(grants: readonly string[], known: readonly string[] = ALL_PERMISSIONS): string[] {
  return grants.filter((g) => !known.some((p) => grantMatches(g, p)));
}
