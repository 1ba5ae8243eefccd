/**
 * Raw requests for `confctl api` and `confctl doctor`: any method and path under the profile's
 * base URL with its key headers, `--timeout` per try, `--verbose` traces (secret masked), and
 * 429 answers retried after `Retry-After`. Any HTTP answer is returned, never thrown.
 */
import { randomUUID } from 'node:crypto';
import { describe } from '../../../client/client.js';
import { NetworkError } from '../../../client/errors.js';
import { type Connector, readText, request } from '../../../client/http.js';
import { type CliContext, type GlobalOptions, requireAccess, settingsFor, UsageError } from '../../context.js';
import { realMs } from '../../../contract/clock.js';

export interface RawRequest {
  method: string;
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
}

export interface RawAnswer {
  status: number;
  /** Lower-case names, repeated headers joined with `, `. */
  headers: Record<string, string>;
  text: string;
  /** Time to the whole answer of the last try. */
  ms: number;
}

export interface SendOptions {
  timeoutMs: number;
  log?: (line: string) => void;
  /** Tries in all when answered 429 (default 5). */
  maxTries?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Opens each connection itself instead of an agent (tests route every host to a local server). */
  connect?: Connector;
}

/** The profile's base URL and key, or exit 2 naming what is missing or wrong (like every API command). */
export async function accessFor(ctx: CliContext, globals: GlobalOptions): Promise<ReturnType<typeof requireAccess>> {
  return requireAccess(await settingsFor(ctx, globals));
}

/** The headers every request carries: JSON accepted, the key pair and a request id. */
export function keyHeaders(keyId: string, secret: string): Record<string, string> {
  return { accept: 'application/json', 'user-agent': 'confctl', 'x-access-key-id': keyId, 'x-access-key-secret': secret, 'x-request-id': randomUUID() };
}

/** `path` under `baseUrl`; an absolute URL only on the base URL's origin (the key goes nowhere else). */
export function resolveUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (!/^https?:\/\//i.test(path)) return base + (path.startsWith('/') ? path : `/${path}`);
  if (new URL(path).origin !== new URL(base).origin) throw new UsageError(`'${path}' is not on the profile's origin ${new URL(base).origin}`, 'give a path relative to the base URL, e.g. /users');
  return path;
}

/** Sends `req` and answers whatever status comes back; no answer at all is a `NetworkError` (exit 8). */
export async function sendRaw(req: RawRequest, opts: SendOptions): Promise<RawAnswer> {
  const maxTries = Math.max(1, opts.maxTries ?? 5);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let tries = 1; ; tries++) {
    const answer = await once(req, opts, tries);
    if (answer.status !== 429 || tries >= maxTries) return answer;
    // Whole seconds, as this API sends (decisions §5); else the client's backoff (250 ms doubling).
    const after = answer.headers['retry-after'];
    const wait = after && /^\d+$/.test(after.trim()) ? Number(after) * 1000 : Math.min(250 * 2 ** (tries - 1), 8000);
    opts.log?.(`* retrying in ${wait} ms (HTTP 429)`);
    await sleep(wait);
  }
}

async function once(req: RawRequest, { timeoutMs, log, connect }: SendOptions, tries: number): Promise<RawAnswer> {
  log?.(`> ${req.method} ${req.url}`);
  for (const [k, v] of Object.entries(req.headers)) log?.(`> ${k}: ${k === 'x-access-key-secret' ? '********' : v}`);
  if (req.body !== undefined) log?.(`> ${req.body}`);
  const started = realMs();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await request({ method: req.method, url: req.url, headers: req.headers, body: req.body, signal, connect });
    const text = await readText(res.body);
    const ms = realMs() - started;
    log?.(`< ${res.status} (${ms} ms)`);
    for (const [k, v] of Object.entries(res.headers)) log?.(`< ${k}: ${v}`);
    if (text) log?.(`< ${text}`);
    return { status: res.status, headers: res.headers, text, ms };
  } catch (err) {
    const timedOut = signal.aborted;
    const reason = timedOut ? `timed out after ${timeoutMs / 1000} s` : describe(err);
    throw new NetworkError(reason, req.method, req.url, timedOut, tries, { cause: err });
  }
}
