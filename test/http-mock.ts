/**
 * A scripted HTTP server on a real socket (127.0.0.1, free port) for client and CLI tests. Tests
 * script answers with an interface shaped like undici's MockAgent (`get(origin).intercept({ path,
 * method, headers, body }).reply(status, body, { headers })`, `.times(n)`, `.persist()`,
 * `.delay(ms)`, `.replyWithError()`), and every request is recorded. A request no script matches
 * is answered by a dropped connection (the client sees a network error, as with MockAgent);
 * `assertNoPendingInterceptors()` fails when a script was not requested as often as given.
 * `connect` routes a client's connections to this server whatever the URL's host and scheme
 * (plain HTTP on the socket), so profiles with a domain (`https://acme.test/…`) reach it too.
 */
import { createServer, type IncomingHttpHeaders, STATUS_CODES, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

type Matcher = string | RegExp | ((value: string) => boolean);

export interface InterceptOptions {
  path: Matcher;
  /** Default GET. */
  method?: string;
  /** Each named request header must match. */
  headers?: Record<string, Matcher>;
  body?: Matcher;
}

/** What a reply callback receives: the request as the server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type ReplyData = string | Buffer | object | undefined;
interface ReplyOptions {
  headers?: Record<string, string>;
}
interface Scripted {
  statusCode: number;
  data?: ReplyData;
  responseOptions?: ReplyOptions;
}

interface Interceptor {
  options: InterceptOptions;
  answer: ((req: SeenRequest) => Scripted) | 'error';
  remaining: number;
  persist: boolean;
  delayMs: number;
  /** How often it answered. */
  used: number;
}

export interface Scope {
  /** Answers this many requests (default 1). */
  times(n: number): Scope;
  /** Answers every matching request; pending until first used. */
  persist(): Scope;
  /** Waits before answering. */
  delay(ms: number): Scope;
}

export interface Interception {
  reply(status: number, data?: ReplyData | ((req: SeenRequest) => ReplyData), options?: ReplyOptions): Scope;
  reply(callback: (req: SeenRequest) => Scripted): Scope;
  /** Drops the connection without an answer (the client sees a reset). The error is not sent anywhere. */
  replyWithError(error?: Error): Scope;
}

export interface MockServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** Requests in arrival order. */
  readonly requests: SeenRequest[];
  /** A client `connect` option: every connection goes to this server, in plain HTTP. */
  readonly connect: () => Socket;
  /** The origin is ignored: the server answers one. Kept for MockAgent-shaped tests. */
  get(origin?: string): { intercept(options: InterceptOptions): Interception };
  /** Scripts not requested as often as they were given. */
  pendingInterceptors(): { method: string; path: string; remaining: number }[];
  /** Fails when a script was never (fully) used; the message also names requests no script matched. */
  assertNoPendingInterceptors(): void;
  /** Forgets scripts, requests and misses (a fresh start for the next test). */
  reset(): void;
  /** Lets the process exit with the server still listening (a server shared by the files of one worker). */
  unref(): void;
  close(): Promise<void>;
}

/** The same normalisation on both sides: query parameters sorted. */
function normalisePath(path: string): string {
  const [base, query, ...rest] = path.split('?');
  if (query === undefined || rest.length) return path;
  const params = new URLSearchParams(query);
  params.sort();
  return `${base}?${params.toString()}`;
}

function matches(matcher: Matcher, value: string, normalise = (s: string) => s): boolean {
  if (typeof matcher === 'string') return normalise(matcher) === normalise(value);
  if (matcher instanceof RegExp) return matcher.test(value);
  return matcher(value);
}

function accepts(i: Interceptor, req: SeenRequest): boolean {
  const o = i.options;
  if ((o.method ?? 'GET').toUpperCase() !== req.method) return false;
  if (!matches(o.path, req.path, normalisePath)) return false;
  for (const [name, m] of Object.entries(o.headers ?? {})) {
    const v = req.headers[name.toLowerCase()];
    if (v === undefined || !matches(m, Array.isArray(v) ? v.join(', ') : v)) return false;
  }
  return o.body === undefined || matches(o.body, req.body);
}

/**
 * Writes the answer on the socket itself and closes it: the client sees the scripted headers and
 * nothing else (no `date` or chunked framing), the body delimited by the close. An answer whose end
 * the client knows without the close (a scripted `content-length`, a 204 or 304) also says
 * `connection: close`, so the client does not send its next request on this closing socket.
 */
function send(socket: Socket, { statusCode, data, responseOptions }: Scripted): void {
  const body = data === undefined ? '' : typeof data === 'string' || Buffer.isBuffer(data) ? data : JSON.stringify(data);
  const headers = { ...responseOptions?.headers };
  const names = Object.keys(headers).map((k) => k.toLowerCase());
  const delimited = names.includes('content-length') || statusCode === 204 || statusCode === 304;
  if (delimited && !names.includes('connection')) headers.connection = 'close';
  const head = [`HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? 'Unknown'}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), Buffer.from(body)]));
}

/** Starts a scripted server; close it after the tests (`afterAll(() => server.close())`). */
export async function startMockServer(): Promise<MockServer> {
  let interceptors: Interceptor[] = [];
  let misses: string[] = [];
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();

  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a rejection fails the run as an unhandled rejection, as a test wants
  const server: Server = createServer(async (req) => {
    let body = '';
    req.setEncoding('utf8');
    for await (const chunk of req) body += chunk as string;
    const seen: SeenRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
    requests.push(seen);
    const hit = interceptors.find((i) => (i.persist || i.remaining > 0) && accepts(i, seen));
    if (!hit) {
      misses.push(`${seen.method} ${seen.path}`);
      req.socket.destroy();
      return;
    }
    hit.used++;
    if (!hit.persist) hit.remaining--;
    if (hit.delayMs) await new Promise((r) => setTimeout(r, hit.delayMs).unref());
    if (hit.answer === 'error') req.socket.destroy();
    else send(req.socket, hit.answer(seen));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const scope = (i: Interceptor): Scope => ({
    times(n) {
      i.remaining = n;
      return this;
    },
    persist() {
      i.persist = true;
      return this;
    },
    delay(ms) {
      i.delayMs = ms;
      return this;
    },
  });
  const add = (options: InterceptOptions, answer: Interceptor['answer']) => {
    const i: Interceptor = { options, answer, remaining: 1, persist: false, delayMs: 0, used: 0 };
    interceptors.push(i);
    return scope(i);
  };
  const describe = (p: Matcher) => (typeof p === 'string' ? p : String(p));
  const pending = () =>
    interceptors
      .filter((i) => (i.persist ? i.used === 0 : i.remaining > 0))
      .map((i) => ({ method: (i.options.method ?? 'GET').toUpperCase(), path: describe(i.options.path), remaining: i.persist ? 1 : i.remaining }));

  const { port } = server.address() as AddressInfo;
  return {
    origin,
    requests,
    connect: () => connect(port, '127.0.0.1'),
    get: () => ({
      intercept: (options) => ({
        reply(statusOrCallback: number | ((req: SeenRequest) => Scripted), data?: ReplyData | ((req: SeenRequest) => ReplyData), responseOptions?: ReplyOptions) {
          if (typeof statusOrCallback === 'function') return add(options, statusOrCallback);
          return add(options, (req) => ({ statusCode: statusOrCallback, data: typeof data === 'function' ? data(req) : data, responseOptions }));
        },
        replyWithError: () => add(options, 'error'),
      }),
    }),
    pendingInterceptors: pending,
    assertNoPendingInterceptors() {
      const left = pending();
      if (!left.length) return;
      const problems = [...left.map((p) => `never requested (${p.remaining} left): ${p.method} ${p.path}`), ...misses.map((m) => `no script matched: ${m}`)];
      throw new Error(`scripted HTTP server:\n${problems.join('\n')}`);
    },
    reset() {
      interceptors = [];
      misses = [];
      requests.length = 0;
    },
    unref: () => server.unref(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const s of sockets) s.destroy();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
