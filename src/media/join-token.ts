/**
 * Attendee join tokens (decisions §11). A token is opaque to clients; the local instance writes
 *
 *     {conference_id}.{attendee_id}.{expires}.{signature}
 *
 * (decimal without leading zeros; `expires` in seconds since the epoch; `signature` the
 * lower-case hex HMAC-SHA256, keyed by the instance secret that also signs recording links, of
 *
 *     confctl-join-v1 LF {tenant_id} LF {conference_id} LF {attendee_id} LF {expires}
 *
 * The tenant is not in the token: it comes from the Host the page is asked on, so a token
 * presented on another tenant's host fails the signature. A token is valid while
 * `now < expires`. The parse is strict (one spelling per value), so changing any character
 * makes a token invalid.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type SigningSecret, unixSeconds } from './signing.js';

const CANONICAL_PREFIX = 'confctl-join-v1';
const TOKEN_SHAPE = /^([1-9][0-9]{0,15})\.([1-9][0-9]{0,15})\.([1-9][0-9]{0,15})\.([0-9a-f]{64})$/;

/** What a token grants: one attendee of one conference of one tenant, until `expires`. */
export interface JoinGrant {
  tenantId: number;
  conferenceId: number;
  attendeeId: number;
  /** Seconds since the epoch. */
  expires: number;
}

/** The exact string that is signed (see the module comment). */
export function joinCanonicalString(grant: JoinGrant): string {
  return `${CANONICAL_PREFIX}\n${grant.tenantId}\n${grant.conferenceId}\n${grant.attendeeId}\n${grant.expires}`;
}

function sign(grant: JoinGrant, secret: SigningSecret): string {
  return createHmac('sha256', secret).update(joinCanonicalString(grant), 'utf8').digest('hex');
}

/** The token and its expiry: `now` plus `expirySeconds`, rounded up to a whole second. */
export function createJoinToken(
  grant: Omit<JoinGrant, 'expires'>,
  expirySeconds: number,
  now: Date,
  secret: SigningSecret,
): { token: string; expiresAt: Date } {
  const expires = unixSeconds(new Date(now.getTime() + expirySeconds * 1000));
  const signature = sign({ ...grant, expires }, secret);
  return { token: `${grant.conferenceId}.${grant.attendeeId}.${expires}.${signature}`, expiresAt: new Date(expires * 1000) };
}

/**
 * The conference and attendee a token grants on tenant `tenantId`, or undefined when the token is
 * missing, malformed, signed for other values or expired at `now`. The comparison of signatures
 * is constant-time.
 */
export function verifyJoinToken(
  token: string | null | undefined,
  tenantId: number,
  now: Date,
  secret: SigningSecret,
): { conferenceId: number; attendeeId: number } | undefined {
  const m = token ? TOKEN_SHAPE.exec(token) : null;
  if (!m) return undefined;
  const [conferenceId, attendeeId, expires] = [m[1], m[2], m[3]].map(Number);
  if (![conferenceId, attendeeId, expires].every(Number.isSafeInteger) || now.getTime() >= expires * 1000) return undefined;
  const expected = Buffer.from(sign({ tenantId, conferenceId, attendeeId, expires }, secret), 'hex');
  if (!timingSafeEqual(Buffer.from(m[4], 'hex'), expected)) return undefined;
  return { conferenceId, attendeeId };
}
