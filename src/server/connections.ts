import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { MESSAGES } from '../contract/index.js';
import { HttpError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { errorReply } from './reply.js';

/**
 * How long a refused connection stays open for its client to read the 503 and close first: closing
 * with the client's request still unread would reset the connection, and a reset can discard
 * the 503 before the client reads it.
 */
const REFUSED_LINGER_MS = 1000;

/** An error as a whole HTTP/1.1 response that closes the connection, to write straight to a socket. */
function rawResponse(err: HttpError): Buffer {
  const reply = errorReply(err);
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
  const headers = { ...reply.headers, 'X-Process-ID': randomUUID(), 'Content-Length': String(body.length), Connection: 'close' };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return Buffer.concat([Buffer.from(`HTTP/1.1 ${reply.status} ${http.STATUS_CODES[reply.status]}\r\n${head}\r\n`, 'latin1'), body]);
}

/**
 * Admits or refuses each connection as it is accepted, before it sends anything (a slow-header
 * client would never complete a request to be refused on). Counts open connections, in all and
 * per client address (the socket's: behind a proxy every connection shares one).
 * - Over the per-address cap: refused.
 * - At the total cap: room is made by closing, without a word, the oldest connection with no
 *   request in hand (idle keep-alive, or a header section still arriving) of the address that
 *   holds the most connections; if every connection has a request in hand, refused.
 * A refused connection gets 503 `Too many connections.` with `Retry-After: 1`, written to the
 * socket at once, and is closed when its client closes or after `REFUSED_LINGER_MS`; it counts
 * toward no cap, and no request it sends is handled (its socket is no longer writable).
 */
export function admitConnections(
  server: http.Server,
  options: Pick<ResolvedOptions, 'maxConnections' | 'maxConnectionsPerAddress'>,
  hasRequest: (socket: Socket) => boolean,
): void {
  const byAddress = new Map<string, Set<Socket>>();
  const addressOf = new Map<Socket, string>();

  const forget = (socket: Socket) => {
    const address = addressOf.get(socket);
    if (address === undefined) return;
    addressOf.delete(socket);
    const mine = byAddress.get(address)!;
    mine.delete(socket);
    if (!mine.size) byAddress.delete(address);
  };
  /** Closes the oldest connection without a request of the address holding the most; false if none. */
  const reclaim = (): boolean => {
    let victim: Socket | undefined;
    let most = 0;
    for (const sockets of byAddress.values()) {
      if (sockets.size <= most) continue;
      for (const s of sockets) {
        if (hasRequest(s)) continue;
        victim = s;
        most = sockets.size;
        break;
      }
    }
    if (!victim) return false;
    forget(victim);
    victim.destroy();
    return true;
  };

  // Before node's own listener, so a refused socket is answered before its HTTP parser exists.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const cap = options.maxConnectionsPerAddress;
    const mine = byAddress.get(address);
    if ((cap !== null && (mine?.size ?? 0) >= cap) || (addressOf.size >= options.maxConnections && !reclaim())) {
      refuse(socket);
      return;
    }
    addressOf.set(socket, address);
    if (mine) mine.add(socket);
    else byAddress.set(address, new Set([socket]));
    socket.once('close', () => forget(socket));
  });
}

function refuse(socket: Socket): void {
  socket.end(rawResponse(tooManyConnections()));
  const linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  socket.once('close', () => clearTimeout(linger));
}

/** 503 `Too many connections.`: the connection is closed after it. */
const tooManyConnections = (): HttpError =>
  new HttpError(503, MESSAGES.tooManyConnections, { 'Retry-After': '1', Connection: 'close' });

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
    socket.end(rawResponse(parserError(err.code)), () => socket.destroy());
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
