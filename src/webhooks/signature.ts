/**
 * The webhook signature scheme, shared by the receiving side (`confctl webhooks listen|verify`)
 * and the sending side: `X-Webhook-Signature` is the lower-case hex HMAC-SHA256, keyed with the
 * destination's secret, of `{X-Webhook-Id}.{X-Webhook-Timestamp}.{raw body}`, where the timestamp
 * is the ISO 8601 time of the attempt, exactly as its header carries it. Pure: the clock is a
 * parameter.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The three headers of a delivery (lower case, as node:http names them). */
export const WEBHOOK_HEADERS = {
  id: 'x-webhook-id',
  timestamp: 'x-webhook-timestamp',
  signature: 'x-webhook-signature',
} as const;

/** Receivers drop deliveries older than this (seconds). */
export const DEFAULT_MAX_AGE_SECONDS = 300;

/** The lower-case hex signature of one attempt. */
export function sign(secret: string, id: string, timestamp: string, body: Uint8Array | string): string {
  return createHmac('sha256', secret).update(`${id}.${timestamp}.`).update(body).digest('hex');
}

/** The three headers of an attempt made at `now` (each attempt is signed afresh). */
export function signedHeaders(secret: string, id: string, body: Uint8Array | string, now: Date): Record<string, string> {
  const timestamp = now.toISOString();
  return {
    [WEBHOOK_HEADERS.id]: id,
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    [WEBHOOK_HEADERS.signature]: sign(secret, id, timestamp, body),
  };
}

/** Why a delivery was refused. */
export type RejectReason = 'missing-header' | 'bad-timestamp' | 'bad-signature' | 'wrong-signature' | 'stale' | 'future';

export type Verdict =
  | { ok: true; id: string; timestamp: string; /** Seconds between the timestamp and now (negative: ahead of our clock). */ ageSeconds: number }
  | { ok: false; reason: RejectReason; message: string; /** The delivery's id, when it had a well-formed one. */ id?: string };

/** Headers as node:http gives them (lower-case names), or as a capture was parsed. */
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyOptions {
  now: Date;
  /**
   * Largest accepted age in seconds, and equally how far ahead of `now` a timestamp may be (clock
   * skew between sender and receiver); 0 skips both checks.
   */
  maxAgeSeconds: number;
}

/** ISO 8601 date-time with a zone (`Z` or `±hh:mm`), as senders write the timestamp header. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : (v as string | undefined);
}

/**
 * Checks a delivery: its three headers are present and well formed, the signature matches
 * (constant-time comparison) and the timestamp is within `maxAgeSeconds` of `now`. The
 * signature is checked before the age, so a forged delivery is reported as forged even when old.
 */
export function verify(headers: HeaderBag, body: Uint8Array, secret: string, options: VerifyOptions): Verdict {
  const id = header(headers, WEBHOOK_HEADERS.id);
  const timestamp = header(headers, WEBHOOK_HEADERS.timestamp);
  const signature = header(headers, WEBHOOK_HEADERS.signature);
  const missing = [!id && 'X-Webhook-Id', !timestamp && 'X-Webhook-Timestamp', !signature && 'X-Webhook-Signature'].filter(Boolean);
  if (!id || !timestamp || !signature) {
    return { ok: false, reason: 'missing-header', message: `missing header${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, ...(id && { id }) };
  }
  const at = ISO_DATE_TIME.test(timestamp) ? Date.parse(timestamp) : NaN;
  if (Number.isNaN(at)) {
    return { ok: false, id, reason: 'bad-timestamp', message: `X-Webhook-Timestamp is not an ISO 8601 date-time with a zone: '${timestamp.slice(0, 64)}'` };
  }
  if (!HEX_SHA256.test(signature)) {
    return { ok: false, id, reason: 'bad-signature', message: 'X-Webhook-Signature is not a hex HMAC-SHA256 (64 hex digits)' };
  }
  const expected = Buffer.from(sign(secret, id, timestamp, body), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    return { ok: false, id, reason: 'wrong-signature', message: 'signature does not match: wrong secret, or the body or headers were changed' };
  }
  const ageSeconds = (options.now.getTime() - at) / 1000;
  if (options.maxAgeSeconds > 0 && ageSeconds > options.maxAgeSeconds) {
    return { ok: false, id, reason: 'stale', message: `timestamp ${timestamp} is ${Math.floor(ageSeconds)} s old, more than the ${options.maxAgeSeconds} s allowed` };
  }
  if (options.maxAgeSeconds > 0 && -ageSeconds > options.maxAgeSeconds) {
    return { ok: false, id, reason: 'future', message: `timestamp ${timestamp} is ${Math.ceil(-ageSeconds)} s in the future, more than the ${options.maxAgeSeconds} s allowed` };
  }
  return { ok: true, id, timestamp, ageSeconds };
}
