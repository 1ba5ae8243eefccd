/**
 * The client's two error types. Kept free of heavy imports so the CLI can map them to exit
 * codes without loading the HTTP stack.
 */

/** Laravel-style validation details: dotted attribute path → messages. */
export type FieldErrors = Record<string, string[]>;

/** A non-2xx answer from the API. `message` is the plain-text body or the validation `message`. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly method: string,
    /** Request path relative to the base URL, query included (never carries secrets). */
    readonly path: string,
    readonly headers: Readonly<Record<string, string>>,
    readonly errors?: FieldErrors,
    /** Permissions the operation requires, when known (for 401 hints). */
    readonly permissions: readonly string[] = [],
    /** How many tries were made (more than 1 after retries). */
    readonly tries = 1,
    /** The base URL the request went to (for hints about a wrong one). */
    readonly baseUrl?: string,
    /** The answer was not the API's: an HTML page, or a success that is not JSON. */
    readonly notApi = false,
  ) {
    super(message);
  }
}

/** The request never got an HTTP answer: connection failure, DNS failure or timeout. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  constructor(
    message: string,
    readonly method: string,
    readonly url: string,
    readonly timedOut: boolean,
    readonly tries = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Whether `host` (a URL's hostname) is this machine: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1';
}

/** Whether `err` (or its cause, or one of an AggregateError's) is a refused connection. */
function refused(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (e.code === 'ECONNREFUSED') return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => refused(x, depth + 1))) return true;
  return refused(e.cause, depth + 1);
}

/**
 * The port of a loopback `url` whose connection `err` was refused: nothing listens there (a local
 * `confctl serve` that is not running), which waiting does not heal. Undefined otherwise.
 */
export function refusedLoopbackPort(err: unknown, url: string): number | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!isLoopbackHost(parsed.hostname) || !refused(err)) return undefined;
  return Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
}

/** What OpenSSL says when TLS is spoken to a port that answers plain http. */
const TLS_TO_PLAIN = /wrong version number|packet length too long|WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG/i;

/** Whether `err` (or a cause) is TLS spoken to a plain-http port. */
export function tlsToPlainHttp(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  return TLS_TO_PLAIN.test(`${text(e.code)} ${text(e.message)}`) || tlsToPlainHttp(e.cause, depth + 1);
}

/**
 * The plain-http base URL to give instead, when an https request to `url` failed because the
 * host answers plain http (a local `confctl serve` given as `--domain`); else undefined.
 */
export function plainHttpBaseUrl(err: unknown, url: string): string | undefined {
  if (!url.startsWith('https://') || !tlsToPlainHttp(err)) return undefined;
  return `http://${new URL(url).host}/api/public/v2.0`;
}

/** The hint for a host that answers plain http on the TLS port. */
export const plainHttpHint = (host: string, baseUrl: string) =>
  `${host} answers plain http, not https (a local 'confctl serve' does): give --base-url ${baseUrl} instead of --domain (e.g. confctl profile add NAME --base-url ${baseUrl} --key-id ID --secret-stdin --force)`;
