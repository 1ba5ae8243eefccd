import type { IncomingMessage } from 'node:http';
import { MESSAGES } from '../contract/index.js';
import { requestTimedOut } from './connections.js';
import { ClientClosedRequest, HttpError, ValidationError } from './errors.js';
import { decodeUtf8 } from './utf8.js';

/** 413 `Payload too large.`; the connection is closed since the rest of the body is not read. */
export const payloadTooLarge = (): HttpError => new HttpError(413, MESSAGES.payloadTooLarge, { Connection: 'close' });

/**
 * Reads a request body of at most `limit` bytes. A declared `Content-Length` above the limit is
 * refused before reading; otherwise reading stops as soon as the limit is passed. A client that
 * goes away before the body ends (an aborted upload) rejects with `ClientClosedRequest`.
 */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(payloadTooLarge());
  if (req.destroyed) return Promise.reject(new ClientClosedRequest());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(payloadTooLarge());
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    // A request stream fails or closes before its end only when the connection went away:
    // the client's doing, unless the server cut it for taking too long (answered 408).
    const onGone = (err?: Error) => {
      cleanup();
      reject(requestTimedOut(req.socket) ? new HttpError(408, MESSAGES.requestTimeout) : new ClientClosedRequest({ cause: err }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onGone);
  });
}

/**
 * Parses a body as JSON whatever its Content-Type (decisions §10): empty (or only whitespace)
 * is `{}`; malformed JSON is a validation failure on `body`. Ill-formed UTF-8 is never replaced
 * silently (see `decodeUtf8`).
 */
export function parseJsonBody(raw: Buffer): unknown {
  let text = decodeUtf8(raw);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError({ body: [MESSAGES.invalidJson] });
  }
}
