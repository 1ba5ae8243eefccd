/**
 * For the webhooks e2e tests: a `webhooks listen` process, deliveries signed here with
 * node:crypto (independently of src/webhooks), and a target server that records what reaches it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { BIN, Sandbox } from './harness.js';

export interface Listener {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Sends `signal` and answers the exit code once the process ended. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** Starts `confctl webhooks listen --port 0 ARGS` with no terminal; answers once it prints its URL. */
export function listen(sandbox: Sandbox, args: string[], env: Record<string, string> = {}): Promise<Listener> {
  const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', ...args], { env: sandbox.env(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.stdout.on('data', (d) => (out += d));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`listen did not start: ${err}`)), 20_000);
    child.stderr.on('data', (d) => {
      err += d;
      const m = /Listening on (\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        done({
          url: m[1],
          child,
          stdout: () => out,
          stderr: () => err,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.once('exit', (code) => fail(new Error(`listen exited ${code}: ${err}`)));
  });
}

export interface Delivery {
  id: string;
  timestamp: string;
  body: Buffer;
  headers: Record<string, string>;
}

/** A delivery of `event` signed with `secret`, its timestamp `ageSeconds` in the past. */
export function signedDelivery(secret: string, opts: { event?: string; data?: unknown; ageSeconds?: number; body?: Buffer } = {}): Delivery {
  const id = randomUUID();
  const timestamp = new Date(Date.now() - (opts.ageSeconds ?? 0) * 1000).toISOString();
  const body = opts.body ?? Buffer.from(JSON.stringify({ event: opts.event ?? 'events.created', data: opts.data ?? { id: 42, calendar_id: 7 } }));
  const signature = createHmac('sha256', secret).update(`${id}.${timestamp}.`).update(body).digest('hex');
  return {
    id,
    timestamp,
    body,
    headers: { 'Content-Type': 'application/json', 'X-Webhook-Id': id, 'X-Webhook-Timestamp': timestamp, 'X-Webhook-Signature': signature },
  };
}

export interface Answer {
  status: number;
  text: string;
}

/** POSTs `delivery` to `url` (extra headers after the delivery's); `ca` trusts a test certificate. */
export function post(url: string, delivery: Delivery, opts: { extra?: Record<string, string>; ca?: Buffer; method?: string } = {}): Promise<Answer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((done, fail) => {
    const req = send(target, { method: opts.method ?? 'POST', headers: { ...delivery.headers, ...opts.extra }, ...(opts.ca && { ca: opts.ca }) }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => done({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', fail);
    req.end(delivery.body);
  });
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

/** A server that records each request and answers `status` with a small JSON body. */
export async function target(status: number): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end('{"handled":true}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/in?x=1`, received, close: () => new Promise((done) => server.close(() => done())) };
}

/** A loopback port nothing listens on (bound once, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** A captured delivery as raw HTTP/1.1 request text. */
export function rawRequest(d: Delivery): Buffer {
  const head = ['POST /hooks HTTP/1.1', 'Host: localhost:8090', ...Object.entries(d.headers).map(([k, v]) => `${k}: ${v}`), `Content-Length: ${d.body.length}`];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), d.body]);
}
