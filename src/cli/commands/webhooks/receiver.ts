/**
 * The request handler of `webhooks listen`: reads a POST's raw body, verifies the delivery, and
 * answers 200 (or the forward target's answer), 400 with the reason, 405 for another method, or
 * 413 over 1 MiB. It never throws to node:http and never answers 500.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { verify } from '../../../webhooks/signature.js';
import { forward } from './forward.js';
import { eventOf, type Received } from './print.js';

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
  /** True once the listener is stopping. */
  closing?: () => boolean;
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

export function createReceiver(options: ReceiverOptions): (req: IncomingMessage, res: ServerResponse) => void {
  /** Writes an answer; once the listener is stopping, its connection closes after it (no idle keep-alive to wait out). */
  const send = (res: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: string | Buffer) => {
    if (options.closing?.()) res.shouldKeepAlive = false;
    res.writeHead(status, headers).end(body);
  };
  const answer = (res: ServerResponse, status: number, text: string, headers: OutgoingHttpHeaders = {}) =>
    send(res, status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, `${text}\n`);

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
      // The target's status and body (with its content type) are the answer.
      const result = await forward(options.forwardTo, req.method, req.rawHeaders, body);
      if (result.error) options.problem(`${verdict.id}: ${result.error}`);
      status = result.status;
      const type = result.headers['content-type'];
      send(res, status, typeof type === 'string' ? { 'Content-Type': type } : {}, result.body);
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
