import { hash, timingSafeEqual } from 'node:crypto';
import { hasPermissions, MESSAGES } from '../contract/index.js';
import type { AccessKeyRecord } from '../store/types.js';
import { HttpError } from './errors.js';
import type { KnownKey } from './lookups.js';

/** Compared against when the key id is unknown, so both paths cost one hash and one compare. */
const DUMMY_DIGEST = Buffer.alloc(32);

/**
 * Verifies the key pair sent (decisions §3): the key must exist, belong to `tenantId`, be
 * neither revoked nor expired, and the SHA-256 of the sent secret must equal the stored digest
 * (constant-time). `known` is the stored key of the sent id (see `StoreLookups.key`); the sent secret is
 * hashed and compared on every request, known key or not. `null` when any of it fails.
 */
export function verifyKey(
  known: KnownKey | undefined,
  tenantId: number | null,
  keyId: string | undefined,
  secret: string | undefined,
  now: number,
): AccessKeyRecord | null {
  if (!keyId || !secret) return null;
  const key = known?.record;
  const stored = known?.digest ?? DUMMY_DIGEST;
  // One-shot hash: about half the cost of a createHash() object per request.
  const sent = hash('sha256', secret, 'buffer');
  const matches = timingSafeEqual(sent, stored) && stored !== DUMMY_DIGEST;
  if (!key || !matches || (tenantId !== null && key.tenant_id !== tenantId) || key.revoked_at !== null || isExpired(key, now)) {
    return null;
  }
  return key;
}

/** The key `verifyKey` accepts, else 401 `Invalid or missing access key.` (every failure alike). */
export function authenticated(key: AccessKeyRecord | null): AccessKeyRecord {
  if (!key) throw new HttpError(401, MESSAGES.invalidKey);
  return key;
}

function isExpired(key: AccessKeyRecord, now: number): boolean {
  return key.expires_at !== null && Date.parse(key.expires_at) <= now;
}

/** 401 `Access denied.` unless the key's grants cover every permission of the operation. */
export function authorize(key: AccessKeyRecord, required: readonly string[]): void {
  if (!hasPermissions(key.permissions, required)) throw new HttpError(401, MESSAGES.accessDenied);
}
