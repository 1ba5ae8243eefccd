/**
 * The CLI's one HTTP stack: a request on node:http / node:https. Node's global agents keep
 * connections alive (the pages of `--all` share one), TLS trusts Node's CA store plus
 * `NODE_EXTRA_CA_CERTS`, and redirects are not followed (a 3xx is an answer like any other).
 * Loading it costs a fraction of what undici or `fetch` cost at start-up (docs/performance.md).
 */
import { type IncomingHttpHeaders, type IncomingMessage, request as httpRequest } from 'node:http';
import type { Duplex } from 'node:stream';

/** Opens the connection for a request instead of an agent (tests route every host to their server). */
export type Connector = (url: URL) => Duplex;

export interface HttpRequest {
  method: string;
  url: string;
  /** Lower-case names. `content-length` is added for a body. */
  headers: Record<string, string>;
  body?: string;
  /** Aborts the exchange, the answer's body included; the error is the signal's reason. */
  signal?: AbortSignal;
  /** Fails the exchange when the socket is idle this long (waiting for headers or body bytes). */
  idleTimeoutMs?: number;
  /** Used instead of Node's global keep-alive agent when given: no pooling, plain bytes on the socket it answers. */
  connect?: Connector;
}

export interface HttpAnswer {
  status: number;
  /** Lower-case names, repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body as a stream; read it (`readText`) or pipe it, else the connection is not reused. */
  body: IncomingMessage;
}

/** Thrown on an idle socket past `idleTimeoutMs`. */
export class IdleTimeoutError extends Error {
  override name = 'IdleTimeoutError';
  readonly code = 'ETIMEDOUT';
}

/** Flat, lower-case header map. */
export function flatHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * Sends the request; resolves once the status line and headers arrived. node:https (and with it
 * the TLS stack) loads on the first https URL only: a plain-HTTP command starts without it.
 */
export async function request(req: HttpRequest): Promise<HttpAnswer> {
  const url = new URL(req.url);
  const send = url.protocol === 'https:' ? (await import('node:https')).request : url.protocol === 'http:' ? httpRequest : undefined;
  if (!send) throw Object.assign(new Error(`unsupported protocol ${url.protocol}`), { code: 'ERR_INVALID_URL' });
  const headers = { ...req.headers };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise<HttpAnswer>((resolve, reject) => {
    const { signal, connect } = req;
    if (signal?.aborted) return reject(signal.reason);
    let res: IncomingMessage | undefined;
    const via = connect ? { createConnection: () => connect(url) } : {};
    const outgoing = send(url, { method: req.method, headers, ...via }, (answer) => {
      res = answer;
      resolve({ status: answer.statusCode ?? 0, headers: flatHeaders(answer.headers), body: answer });
    });
    const fail = (err: unknown) => {
      outgoing.destroy(err as Error);
      res?.destroy(err as Error);
    };
    const onAbort = () => fail(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    outgoing.once('close', () => {
      if (!res || res.complete || res.destroyed) signal?.removeEventListener('abort', onAbort);
      else res.once('close', () => signal?.removeEventListener('abort', onAbort));
    });
    const idle = req.idleTimeoutMs;
    if (idle) outgoing.setTimeout(idle, () => fail(new IdleTimeoutError(`no data for ${idle / 1000} s`)));
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/** The whole body as UTF-8 text. */
export async function readText(body: IncomingMessage): Promise<string> {
  body.setEncoding('utf8');
  let text = '';
  for await (const chunk of body) text += chunk as string;
  return text;
}
