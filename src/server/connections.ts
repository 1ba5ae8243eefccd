import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { MESSAGES } from '../contract/index.js';
import { HttpError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { errorReply } from './reply.js';

/** 503 `Too many connections.`: the connection is closed after it. */
export const tooManyConnections = (): HttpError =>
  new HttpError(503, MESSAGES.tooManyConnections, { 'Retry-After': '1', Connection: 'close' });

/**
 * Counts open connections, in all and per client address (the socket's: behind a proxy every
 * connection shares one). A connection opened over a cap is answered 503 on its first request
 * (the caller asks `isOverCap`), then closed; the count drops as connections close.
 */
export function countConnections(server: http.Server, options: Pick<ResolvedOptions, 'maxConnections' | 'maxConnectionsPerAddress'>) {
  let open = 0;
  const perAddress = new Map<string, number>();
  const over = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const mine = (perAddress.get(address) ?? 0) + 1;
    perAddress.set(address, mine);
    open++;
    const cap = options.maxConnectionsPerAddress;
    if (open > options.maxConnections || (cap !== null && mine > cap)) over.add(socket);
    socket.once('close', () => {
      open--;
      const left = perAddress.get(address)! - 1;
      if (left) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  return { isOverCap: (socket: Socket) => over.has(socket) };
}

const timedOut = new WeakSet<object>();

/** True once the server answered 408 on this socket (the request it carried is logged so). */
export const requestTimedOut = (socket: object): boolean => timedOut.has(socket);

/** The answer to an error node's HTTP parser raised before there was a request to answer. */
function parserError(code: string | undefined): HttpError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError(431, MESSAGES.headersTooLarge);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError(408, MESSAGES.requestTimeout);
    default:
      return new HttpError(400, MESSAGES.badRequest);
  }
}

/**
 * Answers what node's HTTP parser refuses (bad header bytes, conflicting lengths, an oversized
 * header section, a header or request timeout) through the one renderer, with `X-Process-ID`,
 * then closes the connection. A connection reset, or one whose response has begun, is just closed.
 */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as { _httpMessage?: http.ServerResponse })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') timedOut.add(socket);
    const reply = errorReply(parserError(err.code));
    const body = Buffer.from(reply.body, 'utf8');
    const headers = { ...reply.headers, 'X-Process-ID': randomUUID(), 'Content-Length': String(body.length), Connection: 'close' };
    const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${reply.status} ${http.STATUS_CODES[reply.status]}\r\n${head}\r\n`, 'latin1'), body]), () => socket.destroy());
  });
}

/** node:http options for `timeouts`; expired requests are looked for often enough to be cut on time. */
export function timeoutOptions({ timeouts }: Pick<ResolvedOptions, 'timeouts'>): http.ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headersMs / 4))),
  };
}
