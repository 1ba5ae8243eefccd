import { randomUUID } from 'node:crypto';
import { MESSAGES, SUCCESS_MESSAGES } from '../../contract/index.js';
import { accessRecord, createLogger } from '../access-log.js';
import { parseJsonBody } from '../body.js';
import { HttpError, notFound } from '../errors.js';
import { MAX_BODY_BYTES, type ResolvedOptions } from '../options.js';
import type { PipelineRequest } from '../pipeline.js';
import { emptyReply, errorReply, jsonReply, type Reply, withoutBody } from '../reply.js';
import { header, validRequestId } from '../request-info.js';
import { CONTROL_ROUTES } from './index.js';
import { isLoopback } from './peer.js';
import type { ControlRoute, TestControls } from './routes.js';
import { tokenMatches } from './token.js';

/** Where the control routes live; nothing of the API is below it. */
export const CONTROL_PREFIX = '/_confctl';
/** The header carrying the control token. */
export const CONTROL_TOKEN_HEADER = 'X-Confctl-Control-Token';
const TOKEN_HEADER_KEY = CONTROL_TOKEN_HEADER.toLowerCase();

/** The refusals of a control request, plain text like decisions §2. */
export const CONTROL_MESSAGES = {
  /** 403: the socket's peer is not a loopback address. */
  notLoopback: 'Test controls answer only on loopback.',
  /** 401: no `X-Confctl-Control-Token`, or another token. */
  invalidToken: 'Invalid or missing control token.',
} as const;

/** Whether a request's path (query ignored) is `/_confctl` or below it. */
export function isControlPath(url: string): boolean {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

interface Compiled {
  route: ControlRoute;
  /** Literal segments, or null where a parameter goes. */
  segments: (string | null)[];
  names: string[];
}

/**
 * Answers the requests below `/_confctl` of a server started with test controls. In this order:
 * the socket's peer must be loopback (403, whatever `trustProxy` and forwarding headers say),
 * the request must carry the token in `X-Confctl-Control-Token` (401), the path and method must
 * be a route's (404 `Resource object does not exist.`, 405 with `Allow`), the body must be JSON
 * (400, 413), then the route answers (see `routes.ts`). `GET /_confctl` lists the routes.
 * Answers are never cached, carry `X-Process-ID`/`X-Request-ID`, and are access-logged like the
 * API's (the token is a header, so it never reaches the log). `isAllowedPeer` is for tests.
 */
export function createControlHandler(
  options: ResolvedOptions,
  controls: TestControls,
  isAllowedPeer: (address: string) => boolean = isLoopback,
): (req: PipelineRequest) => Promise<Reply> {
  const listed = controls.routes ?? CONTROL_ROUTES;
  const listing: ControlRoute = {
    method: 'GET',
    path: '',
    summary: 'lists the control routes',
    handle: () => [listing, ...listed].map((r) => ({ method: r.method, path: CONTROL_PREFIX + r.path, summary: r.summary })),
  };
  const table = [listing, ...listed].map(compile);
  const logger = createLogger(options.log, options.logStream);

  async function answer(req: PipelineRequest): Promise<Reply> {
    if (!isAllowedPeer(req.remoteAddress)) throw new HttpError(403, CONTROL_MESSAGES.notLoopback);
    if (!tokenMatches(controls.token, header(req.headers, TOKEN_HEADER_KEY))) throw new HttpError(401, CONTROL_MESSAGES.invalidToken);
    const q = req.url.indexOf('?');
    const path = (q === -1 ? req.url : req.url.slice(0, q)).slice(CONTROL_PREFIX.length);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const candidates = table.flatMap((c) => {
      const params = match(c, path);
      return params ? [{ route: c.route, params }] : [];
    });
    if (!candidates.length) throw notFound();
    const found = candidates.find((c) => c.route.method === method);
    if (!found || req.method === 'OPTIONS') {
      const allow: string[] = [...new Set(candidates.map((c) => c.route.method))];
      if (allow.includes('GET')) allow.push('HEAD');
      allow.push('OPTIONS');
      if (req.method === 'OPTIONS') return emptyReply(204, { Allow: allow.join(', ') });
      throw new HttpError(405, MESSAGES.methodNotAllowed, { Allow: allow.join(', ') });
    }
    const body = method === 'GET' ? {} : parseJsonBody(await req.readBody(MAX_BODY_BYTES));
    const data = await found.route.handle({ params: found.params, body, options });
    return jsonReply(200, { message: SUCCESS_MESSAGES.single, data });
  }

  return async (req) => {
    const started = performance.now();
    const requestId = validRequestId(req.headers) ?? randomUUID();
    let reply: Reply;
    try {
      reply = await answer(req);
    } catch (err) {
      reply = errorReply(err);
      if (reply.status === 500) logger.error(err, requestId);
    }
    Object.assign(reply.headers, { 'Cache-Control': 'no-store', 'X-Process-ID': randomUUID(), 'X-Request-ID': requestId });
    if (req.method === 'HEAD') reply = withoutBody(reply);
    logger.access(accessRecord(req, reply.status, { now: options.now(), started }, null, requestId));
    return reply;
  };
}

function compile(route: ControlRoute): Compiled {
  const parts = route.path.split('/');
  return {
    route,
    segments: parts.map((p) => (p.startsWith('{') ? null : p)),
    names: parts.filter((p) => p.startsWith('{')).map((p) => p.slice(1, -1)),
  };
}

/** The route's parameters if `path` (below the prefix) matches its template, else undefined. */
function match(c: Compiled, path: string): Record<string, string> | undefined {
  const parts = path.split('/');
  if (parts.length !== c.segments.length) return undefined;
  const values: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const literal = c.segments[i];
    if (literal !== null) {
      if (literal !== parts[i]) return undefined;
      continue;
    }
    if (parts[i] === '') return undefined;
    try {
      values.push(decodeURIComponent(parts[i]));
    } catch {
      return undefined;
    }
  }
  return Object.fromEntries(c.names.map((name, i) => [name, values[i]]));
}
