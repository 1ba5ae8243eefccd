/**
 * `listen --forward-to`: passes a verified delivery on to another URL. The method, the headers
 * (names, order and values as they arrived) and the body bytes are sent unchanged, except the
 * headers that belong to one connection rather than to the request: `Host` becomes the target's,
 * and `Connection`, `Keep-Alive`, `Transfer-Encoding`, `TE`, `Trailer`, `Upgrade` and
 * `Proxy-*` are dropped (the body is sent with its `Content-Length`).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What the target answered, or why it could not be reached (then 502, or 504 on a timeout). */
export interface ForwardResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Set when the target did not answer: the reason, for stderr and the 5xx body. */
  error?: string;
}

/** The sender's own timeout for one attempt. */
export const FORWARD_TIMEOUT_MS = 10_000;

const HOP_BY_HOP = /^(connection|keep-alive|transfer-encoding|te|trailer|upgrade|proxy-.*)$/i;

/**
 * `rawHeaders` (name, value, name, value, …) in their order, without the per-connection ones,
 * `Host` naming `host` and `Content-Length` the body's length (each added if it was absent).
 */
export function forwardedHeaders(rawHeaders: readonly string[], host: string, bodyLength: number): string[] {
  const out: string[] = [];
  const fixed = new Map([['host', host], ['content-length', String(bodyLength)]]);
  const seen = new Set<string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (HOP_BY_HOP.test(name) || seen.has(name)) continue;
    if (fixed.has(name)) seen.add(name);
    out.push(rawHeaders[i], fixed.get(name) ?? rawHeaders[i + 1]);
  }
  if (!seen.has('host')) out.push('Host', host);
  if (!seen.has('content-length')) out.push('Content-Length', String(bodyLength));
  return out;
}

/** Sends the delivery to `target`; never rejects. */
export function forward(target: URL, method: string, rawHeaders: readonly string[], body: Buffer, timeoutMs = FORWARD_TIMEOUT_MS): Promise<ForwardResult> {
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((done) => {
    const failed = (status: number, error: string) => done({ status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(`${error}\n`), error });
    const req = send(target, { method, headers: forwardedHeaders(rawHeaders, target.host, body.length), timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (err) => failed(502, `forward to ${target.href} failed: ${err.message}`));
    });
    req.on('timeout', () => {
      req.destroy();
      failed(504, `forward to ${target.href} timed out after ${timeoutMs / 1000} s`);
    });
    req.on('error', (err: NodeJS.ErrnoException) => failed(502, `forward to ${target.href} failed: ${err.code ?? err.message}`));
    req.end(body);
  });
}
