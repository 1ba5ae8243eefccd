import type { Server } from 'node:http';
import net from 'node:net';
import { PassThrough } from 'node:stream';

/** What a raw socket received before the server closed it. */
export interface RawExchange {
  /** Everything the server wrote, as text. */
  text: string;
  /** The status of the first response, or 0 if none came. */
  status: number;
  /** The first response's headers, names lower case. */
  headers: Record<string, string>;
  /** The first response's body (by its Content-Length). */
  body: string;
}

function parse(text: string): RawExchange {
  const end = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/1.1 ') || end === -1) return { text, status: 0, headers: {}, body: '' };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? 0);
  return { text, status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4, end + 4 + length) };
}

/** Opens a raw TCP connection to 127.0.0.1, from `localAddress` if given (resolves once connected). */
export function connect(port: number, localAddress?: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Reads one whole response (by Content-Length) from a kept-alive socket. */
export function readResponse(socket: net.Socket): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (c: Buffer) => {
      text += c.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? -1);
      if (end !== -1 && length >= 0 && text.length >= end + 4 + length) {
        socket.off('data', onData);
        resolve({ status: Number(text.split(' ')[1]), text });
      }
    };
    socket.on('data', onData);
  });
}

/** A raw `GET path` on the `localhost` tenant with `headers` (the key pair, say), and `extra` header lines. */
export const rawGet = (path: string, headers: Record<string, string> = {}, extra = ''): string =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}${extra}\r\n`;

/** A connection from `localAddress` that has been answered `request` and is kept alive. */
export async function served(port: number, request: string, localAddress?: string) {
  const socket = await connect(port, localAddress);
  const answer = readResponse(socket);
  socket.write(request);
  return { socket, answer: await answer };
}

/** Waits (polling, up to about a second) until `server` counts `n` open connections. */
export async function openConnections(server: Server, n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const count = await new Promise<number>((r) => server.getConnections((_e, c) => r(c)));
    if (count === n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`the server never had ${n} connections`);
}

/** Collects what the server writes on `socket` until it closes the connection. */
export function untilClosed(socket: net.Socket): Promise<RawExchange> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (text += c));
    socket.on('error', () => {});
    socket.on('close', () => resolve(parse(text)));
  });
}

/** Sends `data` on a fresh connection and answers what came back before the server closed it. */
export async function exchange(port: number, data: string | Buffer): Promise<RawExchange> {
  const socket = await connect(port);
  const done = untilClosed(socket);
  socket.write(data);
  return done;
}

/** A log stream and the JSON records written to it so far. */
export function logSink() {
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (c) => (out += c));
  const records = (): Record<string, unknown>[] => out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  /** Waits (up to about two seconds) for a record that `match` accepts. */
  const waitFor = async (match: (r: Record<string, unknown>) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const found = records().find(match);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no matching log record in:\n${out}`);
  };
  return { stream, records, waitFor, text: () => out };
}

/** Resolves once a new connection to `port` is refused: the server has stopped accepting (a drain began). */
export async function refused(port: number): Promise<void> {
  for (;;) {
    const outcome = await new Promise<string>((done) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        done('accepted');
      });
      socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? 'error'));
    });
    if (outcome === 'ECONNREFUSED') return;
  }
}
