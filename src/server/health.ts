import type { IncomingMessage, ServerResponse } from 'node:http';
import { MESSAGES } from '../contract/index.js';
import { SchemaMismatch } from '../store/index.js';
import type { ServiceStore } from '../store/port.js';

/** The load balancer's probes, outside the API prefix (decisions §2: any Host, no key, never rate limited). */
const PROBES = new Set(['/healthz', '/readyz']);

/** Whether the request's path (query ignored) is `/healthz` or `/readyz`. */
export function isHealthPath(url: string): boolean {
  const query = url.indexOf('?');
  return PROBES.has(query === -1 ? url : url.slice(0, query));
}

/**
 * Answers `/healthz` (the process is up: 200 `ok`) and `/readyz` (the store answers and its schema
 * is this build's: 200 `ready`, else 503 with the reason), in plain text as `curl -f` and load
 * balancers expect, never cached. Once `draining()` is true (SIGTERM) both answer 503
 * `draining`, so a balancer stops sending before the process goes. A failing database is named
 * only as `database unreachable` (its error may carry a host name). Probes are not access-logged:
 * a balancer polls every few seconds and would bury the requests that matter.
 */
export function createHealthRoute(store: ServiceStore, draining: () => boolean): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return send(res, 204, '', method);
    if (method !== 'GET' && method !== 'HEAD') return send(res, 405, MESSAGES.methodNotAllowed, method);
    if (draining()) return send(res, 503, 'draining', method);
    if (!(req.url ?? '').startsWith('/readyz')) return send(res, 200, 'ok', method);
    Promise.resolve()
      .then(() => store.ping())
      .then(
        () => send(res, 200, 'ready', method),
        (err) => send(res, 503, `not ready: ${err instanceof SchemaMismatch ? err.message : 'database unreachable'}`, method),
      );
  };
}

function send(res: ServerResponse, status: number, text: string, method: string): void {
  const body = text ? `${text}\n` : '';
  const headers: Record<string, string | number> = { 'Cache-Control': 'no-store' };
  if (status === 204 || status === 405) headers.Allow = 'GET, HEAD, OPTIONS';
  if (status !== 204) {
    headers['Content-Type'] = 'text/plain; charset=utf-8';
    headers['Content-Length'] = Buffer.byteLength(body);
  }
  res.writeHead(status, headers);
  res.end(method === 'HEAD' || status === 204 ? undefined : body);
}
