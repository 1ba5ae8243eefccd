/**
 * The API client: one function per operation of the contract's table, auth headers, per-try
 * timeouts, retries and a page iterator, over node:http (./http.ts). All failures are `ApiError`
 * or `NetworkError`.
 */
import { randomUUID } from 'node:crypto';
import { MESSAGES } from '../contract/messages.js';
import { fillPath, hasBody, OPERATION_META, type OperationId, operationMeta, pathParams } from '../contract/operations-meta.js';
import type { PlannedRequest } from './curl.js';
import { ApiError, type FieldErrors, NetworkError, refusedLoopbackPort } from './errors.js';
import { type Connector, readText, request } from './http.js';
import { abortableSleep, createPacer, type Pacer, realSleep, type Sleep } from './pacing.js';
import type { CallInput, ItemOf, ListOperationId, OperationFunctions, Page, Query, ResultOf } from './types.js';
import { realMs } from '../contract/clock.js';

export interface ClientOptions {
  /** e.g. `https://acme.example/api/public/v2.0` */
  baseUrl: string;
  keyId: string;
  secret: string;
  /** Per try, covering the whole answer (default 30 s). */
  timeoutMs?: number;
  /** Tries in all, the first included (default 5). */
  maxTries?: number;
  /** Opens each connection itself instead of an agent (tests route every host to a local server). */
  connect?: Connector;
  /** Waits between tries and for rate-limit pacing (tests pass an instant one). */
  sleep?: Sleep;
  /** Paces requests by the `RateLimit-*` headers (default: a pacer of its own; null: none). */
  pacer?: Pacer | null;
  onRetry?: (info: { tries: number; delayMs: number; reason: string }) => void;
  /** Receives a trace of each request and response, the secret masked (`--verbose`). */
  log?: (line: string) => void;
  /** `--dry-run`: requests other than GET go here instead of the network; the call answers `DRY_RUN`. */
  dryRun?: (request: PlannedRequest) => void;
}

/** What a write answers under `dryRun`: nothing was sent. */
export const DRY_RUN = Object.freeze({ message: 'Dry run: not sent.', data: null });

export interface ApiClient extends OperationFunctions {
  readonly baseUrl: string;
  call<K extends OperationId>(id: K, input?: CallInput): Promise<ResultOf<K>>;
  /** Pages of a list operation, first to last: follows `next_page_url` (same origin) or counts up `page_number`. */
  paginate<K extends ListOperationId>(id: K, input?: CallInput): AsyncGenerator<Page<ItemOf<K>>>;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * Network failures that another try cannot fix: the host name does not resolve, the certificate
 * is not trusted or does not match, TLS spoken to a plain-HTTP port. Failing at once shows the
 * cause instead of hiding it behind retries.
 */
const PERMANENT = /^(ENOTFOUND|EPROTO|ERR_TLS_CERT_ALTNAME_INVALID|ERR_INVALID_URL|ERR_SSL_.*|.*CERT.*|UNABLE_TO_.*|SELF_SIGNED_.*)$/;

/** Whether a failed exchange's cause is one no retry can heal (see `PERMANENT`). */
export function cannotHeal(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && PERMANENT.test(e.code)) return true;
  }
  return false;
}

/**
 * Tries in all when a loopback address refuses the connection: a local server that is down does
 * not come up by waiting, so the command answers after 250 + 500 ms of waits, not 3.75 s.
 */
export const LOOPBACK_REFUSED_TRIES = 3;

/** Exponential backoff for GET retries: 250 ms, 500 ms, 1 s, … at most 8 s. */
export const backoffMs = (tries: number) => Math.min(250 * 2 ** (tries - 1), 8000);

/** `Retry-After` in milliseconds: whole seconds or an HTTP date; undefined when absent or bad. */
export function retryAfterMs(value: string | undefined, now = realMs()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) params.append(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

export function createClient(options: ClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const { keyId, secret, connect, log, onRetry } = options;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxTries = Math.max(1, options.maxTries ?? 5);
  const sleep = options.sleep ?? realSleep;
  const pacer = options.pacer === undefined ? createPacer({ sleep }) : options.pacer;
  const origin = new URL(baseUrl).origin;

  async function exchange(method: string, url: string, headers: Record<string, string>, body: string | undefined, abort?: AbortSignal): Promise<Answer> {
    log?.(`> ${method} ${url}`);
    for (const [k, v] of Object.entries(headers)) log?.(`> ${k}: ${k === 'x-access-key-secret' ? '********' : v}`);
    if (body !== undefined) log?.(`> ${body}`);
    const started = realMs();
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = abort ? AbortSignal.any([timeout, abort]) : timeout;
    try {
      const res = await request({ method, url, headers, body, signal, connect });
      const text = await readText(res.body);
      log?.(`< ${res.status} (${realMs() - started} ms)`);
      for (const [k, v] of Object.entries(res.headers)) log?.(`< ${k}: ${v}`);
      if (text) log?.(`< ${text}`);
      return { status: res.status, headers: res.headers, text };
    } catch (err) {
      const timedOut = timeout.aborted;
      const reason = timedOut ? `timed out after ${timeoutMs / 1000} s` : describe(err);
      throw new NetworkError(reason, method, url, timedOut, 1, { cause: err });
    }
  }

  async function send(method: string, url: string, body: unknown, permissions: readonly string[], abort?: AbortSignal): Promise<unknown> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'confctl',
      'x-access-key-id': keyId,
      'x-access-key-secret': secret,
      'x-request-id': randomUUID(),
    };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (options.dryRun && method !== 'GET') {
      options.dryRun({ method, url, headers, body: payload });
      return DRY_RUN;
    }
    const idempotent = method === 'GET';
    for (let tries = 1; ; tries++) {
      let answer: Answer;
      await pacer?.beforeRequest(abort);
      try {
        answer = await exchange(method, url, headers, payload, abort);
      } catch (err) {
        pacer?.observe(undefined);
        abort?.throwIfAborted();
        const e = err as NetworkError;
        const limit = refusedLoopbackPort(e.cause, url) === undefined ? maxTries : Math.min(maxTries, LOOPBACK_REFUSED_TRIES);
        if (!idempotent || tries >= limit || cannotHeal(e.cause)) throw new NetworkError(e.message, method, url, e.timedOut, tries, { cause: e.cause });
        await pause(tries, backoffMs(tries), e.message, abort);
        continue;
      }
      pacer?.observe(answer.headers);
      if (answer.status >= 200 && answer.status < 300) return successBody(answer, method, url, baseUrl, tries);
      // 503 `Service busy, try again.` wrote nothing, so it is retried whatever the method.
      const busy = answer.status === 503 && answer.text.trim() === MESSAGES.serviceBusy;
      const wait =
        answer.status === 429 || busy
          ? (retryAfterMs(answer.headers['retry-after']) ?? backoffMs(tries))
          : answer.status >= 500 && idempotent
            ? backoffMs(tries)
            : undefined;
      if (wait === undefined || tries >= maxTries) throw toApiError(answer, method, url.slice(baseUrl.length) || '/', permissions, tries, baseUrl);
      await pause(tries, wait, `HTTP ${answer.status}`, abort);
    }
  }

  async function pause(tries: number, delayMs: number, reason: string, abort?: AbortSignal) {
    onRetry?.({ tries, delayMs, reason });
    log?.(`* retrying in ${delayMs} ms (${reason})`);
    await abortableSleep(sleep, delayMs, abort);
  }

  function call<K extends OperationId>(id: K, input: CallInput = {}): Promise<ResultOf<K>> {
    const op = operationMeta(id);
    const url = baseUrl + fillPath(op.path, input.params ?? {}) + queryString(input.query);
    return send(op.method, url, hasBody(op.method) ? (input.body ?? {}) : undefined, op.permissions, input.signal) as Promise<ResultOf<K>>;
  }

  /**
   * Every page of a list, one page ahead: the next page's request is sent before the current page
   * is yielded, so the server prepares it while the caller writes this one (at most two pages in
   * memory). A caller that stops early aborts through `input.signal`, or lets the one request
   * ahead finish unread.
   */
  async function* paginate<K extends ListOperationId>(id: K, input: CallInput = {}): AsyncGenerator<Page<ItemOf<K>>> {
    const op = operationMeta(id);
    /** How to fetch the page after `page`, if there is one. */
    const after = (page: Page<ItemOf<K>>): (() => Promise<Page<ItemOf<K>>>) | undefined => {
      const next = page.next_page_url;
      if (!page.data.length || next === null) return undefined;
      if (typeof next === 'string' && new URL(next, baseUrl).origin === origin) {
        return () => send('GET', new URL(next, baseUrl).href, undefined, op.permissions, input.signal) as Promise<Page<ItemOf<K>>>;
      }
      if (page.current_page < page.last_page) {
        return () => call(id, { ...input, query: { ...input.query, page_number: page.current_page + 1 } }) as Promise<Page<ItemOf<K>>>;
      }
      return undefined;
    };
    let page = (await call(id, input)) as Page<ItemOf<K>>;
    for (;;) {
      const fetchNext = after(page);
      // After a turn of the event loop, so the agent has taken back the keep-alive connection the
      // last answer came on (sent at once, every page would open a new connection).
      const ahead = fetchNext && new Promise<void>((resolve) => setImmediate(resolve)).then(fetchNext);
      // Awaited below; this only keeps a caller that stopped early from an unhandled rejection.
      ahead?.catch(() => undefined);
      yield page;
      if (!ahead) return;
      page = await ahead;
    }
  }

  const functions = Object.fromEntries(
    OPERATION_META.map((op) => {
      const names = pathParams(op.path);
      const fn = (...args: unknown[]) => {
        const params = Object.fromEntries(names.map((n, i) => [n, args[i] as string | number]));
        const rest = args[names.length];
        return call(op.id, hasBody(op.method) ? { params, body: rest } : { params, query: rest as Query | undefined });
      };
      return [op.id, fn];
    }),
  ) as unknown as OperationFunctions;

  return { ...functions, baseUrl, call, paginate };
}

/**
 * A network failure in one line. OpenSSL's errors (`write EPROTO 80DC…:error:0A00010B:SSL
 * routines:ssl3_get_record:wrong version number:../deps/…`) keep their code and reason only.
 */
export function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.message ?? e.cause?.message ?? String(err);
  const tls = /SSL routines:[^:]*:([^:]+)/.exec(message);
  if (tls) return `${code ?? 'TLS'}: TLS failed (${tls[1]})`;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

const isHtml = (answer: Answer) => /html/i.test(answer.headers['content-type'] ?? '') || /^\s*<(!doctype|html)/i.test(answer.text);

/** A 2xx answer's JSON; anything else (an HTML page from a wrong base URL) is an error saying so. */
function successBody(answer: Answer, method: string, url: string, baseUrl: string, tries: number): unknown {
  if (!answer.text) return {};
  try {
    return JSON.parse(answer.text);
  } catch {
    const type = answer.headers['content-type'] ?? 'no content type';
    const what = isHtml(answer) ? 'an HTML page' : `${type}, not JSON`;
    throw new ApiError(answer.status, `the answer is ${what}`, method, url.slice(baseUrl.length) || '/', answer.headers, undefined, [], tries, baseUrl, true);
  }
}

function toApiError(answer: Answer, method: string, path: string, permissions: readonly string[], tries: number, baseUrl: string): ApiError {
  if (isHtml(answer)) {
    return new ApiError(answer.status, `HTTP ${answer.status} with an HTML page`, method, path, answer.headers, undefined, permissions, tries, baseUrl, true);
  }
  let message = answer.text.trim() || `HTTP ${answer.status}`;
  let errors: FieldErrors | undefined;
  if ((answer.headers['content-type'] ?? '').includes('json')) {
    try {
      const body = JSON.parse(answer.text) as { message?: unknown; errors?: unknown };
      if (typeof body.message === 'string') message = body.message;
      if (body.errors && typeof body.errors === 'object') errors = body.errors as FieldErrors;
    } catch {
      // not JSON after all: keep the text
    }
  }
  return new ApiError(answer.status, message, method, path, answer.headers, errors, permissions, tries, baseUrl);
}
