import http from 'node:http';
import { payloadTooLarge, readNodeBody } from './body.js';
import { SERVE_BUSY_TIMEOUT_MS } from './busy.js';
import { admitConnections, answerClientErrors, timeoutOptions } from './connections.js';
import { answerConnect } from './connect.js';
import { HANDLERS } from './handlers/index.js';
import { createHealthRoute, isHealthPath } from './health.js';
import type { HandlerMap } from './handlers/types.js';
import { createMediaRoute, isMediaPath } from './media-route.js';
import { type ServerOptions, resolveOptions } from './options.js';
import { createPipeline, type PipelineRequest } from './pipeline.js';
import { createLanes, gone } from './pipelining.js';
import type { Reply } from './reply.js';
import { createRoomsRoute, isRoomPath } from './rooms-route.js';
import { isClosing } from './shutdown.js';
import { createControlHandler, isControlPath } from './test-controls/controls.js';

export { closeGracefully } from './shutdown.js';
export { HttpError, ValidationError, notFound } from './errors.js';
export type { Handler, HandlerContext, HandlerMap } from './handlers/types.js';
export { HANDLERS } from './handlers/index.js';
export { DEFAULT_MAX_ATTENDEES, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, DEFAULT_RATE_LIMIT, DEFAULT_TIMEOUTS, MAX_BODY_BYTES } from './options.js';
export type { LogFormat, RateLimitOptions, ResolvedOptions, ServerOptions, Timeouts } from './options.js';
export type { Reply } from './reply.js';
export { OPENAPI_PATH } from './pipeline.js';
export type { ControlRoute, TestControls } from './test-controls/index.js';
export { CONTROL_PREFIX, CONTROL_TOKEN_HEADER } from './test-controls/controls.js';
export { newControlToken, TOKEN_SHAPE } from './test-controls/token.js';

/** A request for the in-process runner; `body` objects are sent as JSON, strings and buffers as is. */
export interface InjectedRequest {
  method?: string;
  /** Path and query, e.g. `/api/public/v2.0/users?page_size=5`. */
  path: string;
  /** Header names in any case; `host` defaults to `localhost`. */
  headers?: Record<string, string>;
  body?: unknown;
  /** Default `127.0.0.1`. */
  remoteAddress?: string;
}

/** A response of the in-process runner; header names are lower case. */
export interface InjectedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, typed as the caller asserts it (tests read answers of every shape). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json<T = any>(): T;
}

export interface ConfServer {
  /** The node:http server, not yet listening. */
  server: http.Server;
  /** Runs one request through the pipeline in process, without a socket (like Hono's `app.request()`). */
  request(init: InjectedRequest): Promise<InjectedResponse>;
}

/**
 * Builds the API server without listening. `handlers` replaces the registry (tests only).
 * Recording links (`/media/recordings/...`), join pages (`/rooms/...`) and the probes `/healthz`
 * and `/readyz` are served beside the pipeline, on the socket only. With `testControls`, paths
 * under `/_confctl` are the test controls' (in process too; see test-controls/controls.ts).
 * The server ends responses with `Connection: close` once `closeGracefully` has begun. It sets
 * the store's busy timeout short (see busy.ts): the caller's start-up writes are done by then. It sets
 * node's timeouts, refuses a connection over the caps as it is accepted (see connections.ts), paces
 * each connection's pipelined requests (see pipelining.ts), and renders the parser's own refusals
 * (400, 408, 431) like every other error.
 */
export function createServer(options: ServerOptions, handlers: HandlerMap = HANDLERS): ConfServer {
  const resolved = resolveOptions(options);
  resolved.store.setBusyTimeout?.(SERVE_BUSY_TIMEOUT_MS);
  const pipeline = createPipeline(resolved, handlers);
  const controls = resolved.testControls ? createControlHandler(resolved, resolved.testControls) : null;
  // With test controls, `/_confctl/...` is theirs; without, it reaches the pipeline: an unknown route.
  const handle = controls ? (req: PipelineRequest) => (isControlPath(req.url) ? controls(req) : pipeline(req)) : pipeline;
  const media = createMediaRoute(resolved);
  const rooms = createRoomsRoute(resolved);
  const health = createHealthRoute(resolved.store, () => isClosing(server));
  const lanes = createLanes(undefined, resolved.roundTrips, resolved.timeouts.keepAliveMs);
  const server = http.createServer(timeoutOptions(resolved), (req, res) => lanes.enqueue(req.socket, res, () => {
    // Load-balancer probes: outside the pipeline's tenancy, keys and rate limits.
    if (isHealthPath(req.url ?? '/')) {
      if (isClosing(server)) res.setHeader('Connection', 'close');
      return health(req, res);
    }
    // Recording links stream a file, so they bypass the JSON pipeline (see media-route.ts).
    if (isMediaPath(req.url ?? '/')) {
      if (isClosing(server)) res.setHeader('Connection', 'close');
      return media(req, res);
    }
    // Join pages are HTML, not API JSON (see rooms-route.ts).
    if (isRoomPath(req.url ?? '/')) {
      if (isClosing(server)) res.setHeader('Connection', 'close');
      return rooms(req, res);
    }
    const request: PipelineRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      remoteAddress: req.socket.remoteAddress ?? '',
      readBody: (limit) => readNodeBody(req, limit),
      gone: () => gone(req.socket),
    };
    handle(request)
      .then((reply) => write(res, reply, isClosing(server)))
      .catch(() => res.destroy());
  }));
  admitConnections(server, resolved, lanes.hasRequest);
  server.on('connection', lanes.connected);
  answerClientErrors(server);
  answerConnect(server, handle, (res, reply) => write(res, reply, true));
  return { server, request: (init) => inject(handle, init) };
}

/**
 * Statuses the pipeline only logs: 499 (the client went away mid-upload: no one to answer) and
 * 408 (the parser's timeout already answered on the socket).
 */
const ANSWERED_ELSEWHERE = new Set([408, 499]);

function write(res: http.ServerResponse, reply: Reply, closing: boolean): void {
  if (res.destroyed || ANSWERED_ELSEWHERE.has(reply.status)) {
    res.destroy();
    return;
  }
  // A HEAD reply states its GET's length; a 204 states none.
  const headers: Record<string, string> =
    reply.status === 204 ? reply.headers : { 'Content-Length': String(Buffer.byteLength(reply.body)), ...reply.headers };
  if (closing) headers.Connection = 'close';
  res.writeHead(reply.status, headers);
  // A string body goes out in one socket write with the headers (node:http joins them); a
  // Buffer (a body shared by many answers) is a second chunk of a `writev`, written as it is.
  if (typeof reply.body === 'string') res.end(reply.body, 'utf8');
  else res.end(reply.body);
}

async function inject(handle: (req: PipelineRequest) => Promise<Reply>, init: InjectedRequest): Promise<InjectedResponse> {
  const headers: Record<string, string> = { host: 'localhost' };
  for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
  const raw =
    init.body === undefined ? Buffer.alloc(0)
    : Buffer.isBuffer(init.body) ? init.body
    : Buffer.from(typeof init.body === 'string' ? init.body : JSON.stringify(init.body), 'utf8');
  const reply = await handle({
    method: (init.method ?? 'GET').toUpperCase(),
    url: init.path,
    headers,
    remoteAddress: init.remoteAddress ?? '127.0.0.1',
    readBody: async (limit) => {
      if (raw.length > limit) throw payloadTooLarge();
      return raw;
    },
  });
  const lower = Object.fromEntries(Object.entries(reply.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const body = reply.body.toString();
  return { status: reply.status, headers: lower, body, json: <T>() => JSON.parse(body) as T };
}
