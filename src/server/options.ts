import type { Store } from '../store/types.js';

/** Access log format (decisions §8). */
export type LogFormat = 'json' | 'pretty' | 'off';

/** Per-second request limits (decisions §5); `null` turns rate limiting off. */
export interface RateLimitOptions {
  client: number;
  tenant: number;
}

/** Options of `createServer`. Only `store`, `signingSecret` and `mediaDir` are required. */
export interface ServerOptions {
  /** The opened store; the server never closes it (the caller does, after `closeGracefully`). */
  store: Store;
  /** HMAC-SHA256 key that signs temporary recording URLs. */
  signingSecret: string;
  /** Directory holding recording files. */
  mediaDir: string;
  /** Default `{ client: 5, tenant: 10 }` per one-second window; `null` disables limits. */
  rateLimit?: RateLimitOptions | null;
  /** Maximum attendees of a conference besides its owner; default 5. */
  maxAttendees?: number;
  /** Honour `X-Forwarded-Host`, `X-Forwarded-Proto` and `X-Forwarded-For`; default false. */
  trustProxy?: boolean;
  /** Default `'off'`. */
  log?: LogFormat;
  /** Where the access log goes; default `process.stderr`. */
  logStream?: NodeJS.WritableStream;
  /** Clock in epoch milliseconds (rate-limit windows, key expiry); default `Date.now`. */
  now?: () => number;
}

/** `ServerOptions` with every default applied. */
export type ResolvedOptions = Required<ServerOptions>;

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { client: 5, tenant: 10 };
export const DEFAULT_MAX_ATTENDEES = 5;
/** Largest accepted request body (decisions §1). */
export const MAX_BODY_BYTES = 1024 * 1024;

export function resolveOptions(options: ServerOptions): ResolvedOptions {
  return {
    rateLimit: DEFAULT_RATE_LIMIT,
    maxAttendees: DEFAULT_MAX_ATTENDEES,
    trustProxy: false,
    log: 'off',
    logStream: process.stderr,
    now: Date.now,
    ...stripUndefined(options),
  } as ResolvedOptions;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
