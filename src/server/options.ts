import { type Clock, instanceClock, realMs } from '../contract/clock.js';
import type { ClockControl } from '../store/instance-clock.js';
import type { ServiceStore } from '../store/port.js';
import type { TestControls } from './test-controls/routes.js';
import type { LogSink } from './access-log.js';

/** Access log format (decisions §8). */
export type LogFormat = 'json' | 'pretty' | 'off';

/** Per-second request limits (decisions §5); `null` turns rate limiting off. */
export interface RateLimitOptions {
  client: number;
  tenant: number;
}

/** node:http's timeouts, in milliseconds. */
export interface Timeouts {
  /** For the whole header section of a request (a slow header is cut). */
  headersMs: number;
  /** For the whole request, headers and body (a slow upload is cut); at least `headersMs`. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
}

/** Options of `createServer`. Only `store`, `signingSecret` and `mediaDir` are required. */
export interface ServerOptions {
  /** The opened store; the server never closes it (the caller does, after `closeGracefully`). */
  store: ServiceStore;
  /** HMAC-SHA256 key that signs temporary recording URLs. */
  signingSecret: string;
  /** Directory holding recording files. */
  mediaDir: string;
  /**
   * The store answers over round trips (PostgreSQL), not on the event loop: requests outlive turns
   * of the loop, which changes when connections are held (see pipelining.ts). Default false.
   */
  roundTrips?: boolean;
  /** Default `{ client: 5, tenant: 10 }` per one-second window; `null` disables limits. */
  rateLimit?: RateLimitOptions | null;
  /** Maximum attendees of a conference besides its owner; default 5. */
  maxAttendees?: number;
  /** Honour `X-Forwarded-Host`, `X-Forwarded-Proto` and `X-Forwarded-For`; default false. */
  trustProxy?: boolean;
  /** Default `'off'`. */
  log?: LogFormat;
  /** Where the access log goes; default `process.stderr`. */
  logStream?: LogSink;
  /** Default headers 20 s, whole request 30 s, keep-alive 5 s. */
  timeouts?: Partial<Timeouts>;
  /** Open connections served at once; default 500. Beyond it: 503 `Too many connections.` (see connections.ts). */
  maxConnections?: number;
  /**
   * Open connections served per client address; `null` for no cap. Default 100, or no cap with
   * `trustProxy` (behind a proxy every connection comes from the proxy's address).
   */
  maxConnectionsPerAddress?: number | null;
  /** Apply the hosted service's complete-body rules (`serve --strict`); default false (lenient). */
  strict?: boolean;
  /** Origins (`https://editor.example`) whose browsers may call the server: they get CORS headers. Default none. */
  cors?: readonly string[];
  /** The real clock in epoch milliseconds (rate-limit windows, busy retries, log times); default `realMs`. */
  now?: () => number;
  /** Waits without holding the event loop (an injected fault's latency); default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * The instance clock (src/contract/clock.ts): key expiry, recording-link and join-token expiry,
   * what handlers date; refreshed before each request. Default: the process's instance clock.
   */
  clock?: Clock;
  /**
   * `serve --test-controls`: the routes under `/_confctl` and their token (see
   * `test-controls/controls.ts`). Default null: those paths are unknown routes (404).
   */
  testControls?: TestControls | null;
  /** The manual clock, shown and moved by `/_confctl/clock`; default null: the instance runs on the real clock. */
  clockControl?: ClockControl | null;
}

/** `ServerOptions` with every default applied. */
export type ResolvedOptions = Required<Omit<ServerOptions, 'timeouts'>> & { timeouts: Timeouts };

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { client: 5, tenant: 10 };
export const DEFAULT_MAX_ATTENDEES = 5;
export const DEFAULT_TIMEOUTS: Timeouts = { headersMs: 20_000, requestMs: 30_000, keepAliveMs: 5_000 };
export const DEFAULT_MAX_CONNECTIONS = 500;
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 100;

/** The per-address connection cap when none is given: none behind a trusted proxy. */
export const defaultMaxConnectionsPerAddress = (trustProxy: boolean): number | null => (trustProxy ? null : DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);
/** Largest accepted request body (decisions §1). */
export const MAX_BODY_BYTES = 1024 * 1024;

export function resolveOptions(options: ServerOptions): ResolvedOptions {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...stripUndefined(options.timeouts ?? {}) };
  if (timeouts.headersMs > timeouts.requestMs) throw new RangeError('the headers timeout must not exceed the request timeout');
  return {
    rateLimit: DEFAULT_RATE_LIMIT,
    maxAttendees: DEFAULT_MAX_ATTENDEES,
    trustProxy: false,
    log: 'off',
    logStream: process.stderr,
    now: realMs,
    clock: instanceClock(),
    sleep: (ms: number) => new Promise<void>((done) => setTimeout(done, ms)),
    maxConnections: DEFAULT_MAX_CONNECTIONS,
    maxConnectionsPerAddress: defaultMaxConnectionsPerAddress(options.trustProxy ?? false),
    strict: false,
    cors: [],
    testControls: null,
    clockControl: null,
    roundTrips: false,
    ...stripUndefined(options),
    timeouts,
  } as ResolvedOptions;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
