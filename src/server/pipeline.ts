import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { API_PREFIX, MESSAGES, OPERATIONS, type Operation, SUCCESS_MESSAGES } from '../contract/index.js';
import type { AccessKeyRecord, ListResult } from '../store/types.js';
import { accessRecord, createLogger } from './access-log.js';
import { authenticated, authorize, verifyKey } from './auth.js';
import { retryBusy } from './busy.js';
import { corsHeaders } from './cors.js';
import { DOCS_BUNDLE_PATH, DOCS_PATH, docsBundle, docsReply } from './docs.js';
import { ClientClosedRequest, HttpError, notFound } from './errors.js';
import type { Handler, HandlerMap } from './handlers/types.js';
import { fieldOrder, validateInput } from './input.js';
import { openApiJson } from './openapi.js';
import type { ResolvedOptions } from './options.js';
import { StoreLookups } from './lookups.js';
import { paginate } from './pagination.js';
import { RateLimiter } from './rate-limit.js';
import { envelopeJson } from './json-text.js';
import { emptyReply, errorReply, rawJsonReply, type Reply, withoutBody } from './reply.js';
import { clientAddress, header, hostName, requestHost, requestScheme, validRequestId } from './request-info.js';
import { Router } from './router.js';

/** A request as the pipeline needs it, whether it came from a socket or from `request()`. */
export interface PipelineRequest {
  method: string;
  /** Path and query string as sent. */
  url: string;
  /** Lower-case header names, as node:http gives them. */
  headers: IncomingHttpHeaders;
  remoteAddress: string;
  /** Reads the body, rejecting with 413 beyond `limit` bytes. Called only for operations with a body. */
  readBody(limit: number): Promise<Buffer>;
  /** True once the client has gone: the handler is then not run (the request is logged 499). */
  gone?(): boolean;
}

type Target =
  | { kind: 'openapi' }
  | { kind: 'docs' }
  | { kind: 'docs-bundle' }
  | { kind: 'operation'; op: Operation; handler: Handler; order: string[] };

/** `GET {API_PREFIX}/openapi.json`: public, on any Host, outside tenancy and rate limits. */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/** Answers of the route stage: on any Host, without a key, never rate limited. */
const PUBLIC_ROUTES = [
  { method: 'GET', path: OPENAPI_PATH, target: { kind: 'openapi' } },
  { method: 'GET', path: DOCS_PATH, target: { kind: 'docs' } },
  { method: 'GET', path: DOCS_BUNDLE_PATH, target: { kind: 'docs-bundle' } },
] as const;

const KEY_ID = /^ak_[A-Za-z0-9]{24}$/;

/**
 * Builds the request pipeline (decisions §2 order): route (404/405), tenant by Host (404), rate
 * limit (429), key (401), permissions (401), input validation (400), then the handler, which
 * checks existence (404) and business rules (409). The key is verified before the rate-limit
 * stage only to pick the bucket (decisions §10): an authenticated request counts against its
 * key and tenant, any other against its client address alone; the 401 still comes after the
 * 429. Every reply gets `X-Process-ID`, `X-Request-ID` and, with limits on, the `RateLimit-*`
 * headers of its bucket; each request is access-logged. `HEAD` runs its `GET` and drops the
 * body; `OPTIONS` on a known path is 204 with `Allow`, like `/docs` and `openapi.json` answered
 * at the route stage; with `cors`, a listed `Origin` gets the CORS headers on every answer.
 * On a store with group commit (SQLite), the handler of every operation but a GET joins the
 * open commit group, and no answer leaves before the groups it overlapped have committed.
 */
export function createPipeline(options: ResolvedOptions, handlers: HandlerMap): (req: PipelineRequest) => Promise<Reply> {
  // Operations without a handler stay out of the table: they answer like an unknown path.
  const routes = OPERATIONS.flatMap((op) => {
    const handler = handlers[op.id];
    if (!handler) return [];
    const target: Target = { kind: 'operation', op, handler, order: fieldOrder(op) };
    return [{ method: op.method, path: API_PREFIX + op.path, target }];
  });
  const router = new Router<Target>([...routes, ...PUBLIC_ROUTES]);
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit, options.now) : null;
  const logger = createLogger(options.log, options.logStream);
  const { store, trustProxy } = options;
  const { shared, commits } = store;
  const lookups = new StoreLookups(store);

  /** Sets the `RateLimit-*` headers of a decision. */
  const rateHeaders = (headers: Record<string, string>, d: { limit: number; remaining: number; reset: number }) => {
    headers['RateLimit-Limit'] = String(d.limit);
    headers['RateLimit-Remaining'] = String(d.remaining);
    headers['RateLimit-Reset'] = String(d.reset);
  };
  /** The key pair sent, verified for `tenantId` (any tenant when null), or null. */
  const keyOf = async (req: PipelineRequest, tenantId: number | null, now: number) => {
    const id = header(req.headers, 'x-access-key-id');
    const secret = header(req.headers, 'x-access-key-secret');
    return verifyKey(id && secret ? await lookups.key(id) : undefined, tenantId, id, secret, now);
  };
  /** An authenticated request's bucket is its key; any other's is its client address (decisions §10). */
  const bucketOf = (req: PipelineRequest, key: AccessKeyRecord | null) =>
    key ? `key:${key.id}` : `address:${clientAddress(req.headers, req.remoteAddress, trustProxy)}`;

  async function dispatch(req: PipelineRequest, headers: Record<string, string>): Promise<Reply> {
    const q = req.url.indexOf('?');
    const pathname = q === -1 ? req.url : req.url.slice(0, q);
    const search = q === -1 ? '' : req.url.slice(q + 1);
    const match = router.match(req.method, pathname);
    if (!match.found) {
      if (!match.allow) throw notFound();
      const allow = match.allow.join(', ');
      if (req.method !== 'OPTIONS') throw new HttpError(405, MESSAGES.methodNotAllowed, { Allow: allow });
      return emptyReply(204, { Allow: allow, ...corsHeaders(options.cors, header(req.headers, 'origin'), match.allow) });
    }
    const target = match.target;
    if (target.kind === 'openapi') {
      const host = requestHost(req.headers, trustProxy);
      return rawJsonReply(openApiJson(host ? `${requestScheme(req.headers, trustProxy)}://${host}` : undefined));
    }
    if (target.kind === 'docs') return docsReply(OPENAPI_PATH);
    if (target.kind === 'docs-bundle') return docsBundle();

    const host = requestHost(req.headers, trustProxy);
    const tenant = await lookups.tenantByDomain(hostName(host));
    if (!tenant) throw new HttpError(404, MESSAGES.unknownTenant);

    const now = options.now();
    const verified = await keyOf(req, tenant.id, now);
    if (limiter) {
      // With a shared store, a key's and its tenant's windows are the database's, counted for
      // every instance together; a request without a valid key stays in this process's buckets
      // (it guards no one else's budget, and a keyless flood must not write to the database).
      const d =
        verified && shared
          ? limiter.fromCounts(await shared.countRequest(verified.id, tenant.id, limiter.limits.client))
          : limiter.hit(verified ? tenant.id : null, bucketOf(req, verified));
      rateHeaders(headers, d);
      if (!d.allowed) throw new HttpError(429, MESSAGES.tooManyRequests, { 'Retry-After': String(d.reset) });
    }
    const key = authenticated(verified);
    const { op, handler } = target;
    authorize(key, op.permissions);

    const origin = `${requestScheme(req.headers, trustProxy)}://${host}`;
    const base = { store, tenant, key, op, params: match.params, body: undefined, query: undefined, origin, now, options };
    const ctx = await validateInput(base, handler, target.order, search, (limit) => req.readBody(limit));
    if (req.gone?.()) throw new ClientClosedRequest();
    const data = await retryBusy(() => {
      if (commits && op.method !== 'GET') commits.join();
      return handler.run(ctx);
    }, options.now);
    if (op.response === 'list') {
      const page = ctx.query as { page_number: number; page_size: number };
      return rawJsonReply(envelopeJson(paginate(data as ListResult<unknown>, page, { origin, pathname, params: new URLSearchParams(search) })));
    }
    return rawJsonReply(envelopeJson({ message: SUCCESS_MESSAGES.single, data }));
  }

  return async function handle(req: PipelineRequest): Promise<Reply> {
    const started = performance.now();
    const requestId = validRequestId(req.headers) ?? randomUUID();
    const headers: Record<string, string> = {};
    const mark = commits?.mark();
    let reply: Reply;
    try {
      try {
        // The reads of the requests begun in this synchronous run share one snapshot (SQLite).
        commits?.read();
        // Before any tenant or key lookup: whatever was written since the last request is seen.
        await lookups.refresh();
        reply = await dispatch(req, headers);
      } finally {
        // Success or error, the answer waits for the COMMIT of every commit group this request may
        // have written to or read from (see `CommitGroups`); a failed COMMIT throws instead.
        const committed = commits && mark !== undefined ? commits.settled(mark) : undefined;
        if (committed) await committed;
      }
    } catch (err) {
      reply = errorReply(err);
      if (reply.status === 500) logger.error(err, requestId);
    }
    // Answers decided before the rate-limit stage carry their bucket's window as it stands (decisions §5).
    if (limiter && !headers['RateLimit-Limit']) {
      const key = await keyOf(req, null, options.now());
      rateHeaders(headers, key && shared ? limiter.fromCounts(await shared.peekRequests(key.id, key.tenant_id), false) : limiter.peek(key ? key.tenant_id : null, bucketOf(req, key)));
    }
    const out = reply.headers;
    if (options.cors.length) Object.assign(out, corsHeaders(options.cors, header(req.headers, 'origin')));
    Object.assign(out, headers);
    out['X-Process-ID'] = randomUUID();
    out['X-Request-ID'] = requestId;
    if (req.method === 'HEAD') reply = withoutBody(reply);
    if (!logger.on) return reply;
    const keyId = header(req.headers, 'x-access-key-id');
    logger.access(accessRecord(req, reply.status, { now: options.now(), started }, keyId !== undefined && KEY_ID.test(keyId) ? keyId : null, requestId));
    return reply;
  };
}
