/**
 * Signed temporary recording URLs (decisions §7):
 * `{origin}/media/recordings/{recording_id}/{file_name}?expires={unix seconds}&signature={hex}`.
 *
 * The signature is the lower-case hex HMAC-SHA256, keyed by the instance's secret, of the
 * canonical string
 *
 *     confctl-recording-v1 LF {recording_id} LF {file_name} LF {expires}
 *
 * (LF = "\n"; `recording_id` and `expires` in decimal without leading zeros; `file_name` as
 * stored, i.e. not URL-encoded). A file name cannot contain LF, so the fields cannot be shifted
 * into one another. A link is valid while `now < expires` (seconds since the epoch).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { EXPIRY_GRACE } from '../contract/bodies.js';

const CANONICAL_PREFIX = 'confctl-recording-v1';

export type SigningSecret = string | Buffer;

/** The exact string that is signed (see the module comment). */
export function canonicalString(recordingId: number, fileName: string, expires: number): string {
  return `${CANONICAL_PREFIX}\n${recordingId}\n${fileName}\n${expires}`;
}

function sign(recordingId: number, fileName: string, expires: number, secret: SigningSecret): string {
  return createHmac('sha256', secret).update(canonicalString(recordingId, fileName, expires), 'utf8').digest('hex');
}

/** Whole seconds since the epoch, rounded up so a link never expires before `expiresAt`. */
export function unixSeconds(date: Date): number {
  return Math.ceil(date.getTime() / 1000);
}

/** Builds the signed URL; `origin` is `scheme://host[:port]` (a trailing slash is ignored). */
export function signRecordingUrl(options: {
  origin: string;
  recordingId: number;
  fileName: string;
  expiresAt: Date;
  secret: SigningSecret;
}): string {
  const { origin, recordingId, fileName, expiresAt, secret } = options;
  const expires = unixSeconds(expiresAt);
  const signature = sign(recordingId, fileName, expires, secret);
  const base = origin.replace(/\/+$/, '');
  return `${base}/media/recordings/${recordingId}/${encodeURIComponent(fileName)}?expires=${expires}&signature=${signature}`;
}

/**
 * True when `signature` is the signature of (recordingId, fileName, expires) and the link has not
 * expired at `now`. `expires` and `signature` are taken as they come from the query string:
 * missing, malformed or wrong-length values are simply invalid. The digest comparison is
 * constant-time (`timingSafeEqual`, after a length check).
 */
export function verifyRecordingSignature(options: {
  recordingId: number;
  fileName: string;
  expires: string | number | null | undefined;
  signature: string | null | undefined;
  secret: SigningSecret;
  now: Date;
}): boolean {
  const { recordingId, fileName, signature, secret, now } = options;
  const raw = options.expires;
  const expiresText = typeof raw === 'number' ? String(raw) : raw;
  if (!expiresText || !/^(0|[1-9][0-9]{0,15})$/.test(expiresText)) return false;
  if (!signature || !/^[0-9a-fA-F]+$/.test(signature)) return false;
  const expires = Number(expiresText);
  if (!Number.isSafeInteger(expires) || now.getTime() >= expires * 1000) return false;
  const expected = Buffer.from(sign(recordingId, fileName, expires, secret), 'hex');
  const given = Buffer.from(signature, 'hex');
  // Hex decoding stops at an odd trailing digit, so compare the text length too.
  if (signature.length !== expected.length * 2 || given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

/** The recording fields that decide the default expiry. */
export interface RecordingTimes {
  started_at: string | null;
  stopped_at: string | null;
}

/**
 * Default `expiry` in seconds: the recording's length (`stopped_at − started_at`, whole seconds
 * rounded up; 0 when either is missing or the difference is negative) plus 600 seconds.
 */
export function defaultExpirySeconds(recording: RecordingTimes): number {
  const start = recording.started_at ? Date.parse(recording.started_at) : NaN;
  const stop = recording.stopped_at ? Date.parse(recording.stopped_at) : NaN;
  const length = Number.isNaN(start) || Number.isNaN(stop) ? 0 : Math.max(0, Math.ceil((stop - start) / 1000));
  return length + EXPIRY_GRACE;
}

/**
 * The `expires_at` of a temporary URL: `now` plus `expiry` seconds (the validated query value) or
 * the default expiry, rounded up to a whole second so that it equals the URL's `expires`.
 */
export function recordingExpiresAt(recording: RecordingTimes, expiry: number | undefined, now: Date): Date {
  const seconds = expiry ?? defaultExpirySeconds(recording);
  return new Date(unixSeconds(new Date(now.getTime() + seconds * 1000)) * 1000);
}
