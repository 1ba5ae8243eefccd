import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MESSAGES } from '../contract/index.js';
import type { TenantRecord } from '../store/types.js';
import { createLogger } from './access-log.js';
import type { ResolvedOptions } from './options.js';
import { hostName, requestHost, validRequestId } from './request-info.js';

/** Serves one request of a side route for the Host's tenant (undefined only for another method than GET/HEAD). */
export type SideHandler = (req: IncomingMessage, res: ServerResponse, tenant: TenantRecord | undefined) => void | Promise<void>;

/**
 * A route beside the JSON pipeline, authorised by something in its URL instead of a key (the
 * recording links, the join pages): no key, no rate limit. Like the API it answers
 * `X-Process-ID`/`X-Request-ID` and resolves the tenant by Host: a GET or HEAD on a Host of no
 * tenant is 404 `Unknown tenant.` (another method reaches `handle`, which answers 405 first).
 * Each request is access-logged when the response ends, secret query values masked.
 */
export function createSideRoute(options: ResolvedOptions, handle: SideHandler): (req: IncomingMessage, res: ServerResponse) => void {
  const logger = createLogger(options.log, options.logStream);
  const { store, trustProxy } = options;
  return (req, res) => {
    const started = performance.now();
    const requestId = validRequestId(req.headers) ?? randomUUID();
    res.setHeader('X-Process-ID', randomUUID());
    res.setHeader('X-Request-ID', requestId);
    res.once('close', () =>
      logger.access({
        time: new Date(options.now()).toISOString(),
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        status: res.statusCode,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        key_id: null,
        request_id: requestId,
      }),
    );
    const method = req.method ?? 'GET';
    const answer = (tenant: TenantRecord | undefined) => {
      if (!tenant && (method === 'GET' || method === 'HEAD')) {
        const body = Buffer.from(MESSAGES.unknownTenant, 'utf8');
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length });
        res.end(method === 'HEAD' ? undefined : body);
        return;
      }
      return handle(req, res, tenant);
    };
    // The instance clock is brought up to date first: the links' expiry is checked on it.
    Promise.resolve(options.clock.refresh?.())
      .then(() => store.tenants.byDomain(hostName(requestHost(req.headers, trustProxy))))
      .then(answer)
      .catch(() => {
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
          res.end(MESSAGES.unexpected);
        } else res.destroy();
      });
  };
}
