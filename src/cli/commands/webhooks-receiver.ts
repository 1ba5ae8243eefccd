/**
 * The request handler of `webhooks listen`: reads a POST's raw body, verifies the delivery, and
 * answers 200 (or the forward target's answer), 400 with the reason, 405 for another method, or
 * 413 over 1 MiB. It never throws to node:http and never answers 500.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { verify } from '../../webhooks/signature.js';
import { forward } from './webhooks-forward.js';
import { eventOf, type Received } from './webhooks-print.js';

/** Largest body read, as the API's own limit. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ReceiverOptions {
  secret: string;
  maxAgeSeconds: number;
  forwardTo?: URL;
  now: () => Date;
  /** A verified delivery, after it was answered. */
  accepted: (r: Received) => void;
  /** A refused delivery or a failed forward, one line for stderr. */
  problem: (line: string) => void;
}

function answer(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
}

/** The raw body, or undefined once it passes `MAX_BODY_BYTES` (then the request is answered 413). */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        done(undefined);
      } else chunks.push(c);
    });
    req.on('end', () => done(Buffer.concat(chunks)));
    req.on('error', fail);
  });
}

/** Copies the target's answer: status, content type and body. */
function relay(res: ServerResponse, status: number, headers: Record<string, string | string[] | undefined>, body: Buffer): void {
  const type = headers['content-type'];
  res.writeHead(status, typeof type === 'string' ? { 'Content-Type': type } : {});
  res.end(body);
}

export function createReceiver(options: ReceiverOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return answer(res, 405, 'Webhook deliveries are POST requests.', { Allow: 'POST' });
    const body = await readBody(req);
    if (!body) return answer(res, 413, 'Payload too large.', { Connection: 'close' });
    const verdict = verify(req.headers, body, options.secret, { now: options.now(), maxAgeSeconds: options.maxAgeSeconds });
    if (!verdict.ok) {
      options.problem(`rejected ${verdict.id ?? 'a delivery'}: ${verdict.message}`);
      return answer(res, 400, `Rejected: ${verdict.message}.`);
    }
    let status = 200;
    if (options.forwardTo) {
      const result = await forward(options.forwardTo, req.method, req.rawHeaders, body);
      if (result.error) options.problem(`${verdict.id}: ${result.error}`);
      status = result.status;
      relay(res, result.status, result.headers, result.body);
    } else answer(res, 200, 'OK');
    options.accepted({ id: verdict.id, timestamp: verdict.timestamp, ...eventOf(body), status });
  };
  return (req, res) => {
    handle(req, res).catch((err: Error) => {
      options.problem(`could not read a request: ${err.message}`);
      if (!res.headersSent) answer(res, 400, 'The request could not be read.');
      else res.destroy();
    });
  };
}
