import { MESSAGES, validationBody } from '../contract/index.js';
import { RuleViolation } from '../store/port.js';
import { NotFoundError, StoreBusy, UniqueViolation } from '../store/util.js';
import { ClientClosedRequest, HttpError, ValidationError } from './errors.js';

/** A finished response, independent of node:http (the in-process runner returns it as is). */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** UTF-8 text, or its bytes when one body is written to many sockets (`envelopeJson`). */
  body: string | Buffer;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

export function jsonReply(status: number, value: unknown): Reply {
  return { status, headers: { 'Content-Type': JSON_TYPE }, body: JSON.stringify(value) };
}

/** A 200 with a pre-serialized JSON body (the cached OpenAPI document, envelopes). */
export function rawJsonReply(body: string | Buffer): Reply {
  return { status: 200, headers: { 'Content-Type': JSON_TYPE }, body };
}

/** A reply without a body (204). */
export function emptyReply(status: number, headers: Readonly<Record<string, string>>): Reply {
  return { status, headers: { ...headers }, body: '' };
}

export function textReply(status: number, message: string, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status, headers: { 'Content-Type': TEXT_TYPE, ...headers }, body: message };
}

/** A HEAD answer: the GET's status and headers, its `Content-Length` included, no body. */
export const withoutBody = (reply: Reply): Reply => ({
  status: reply.status,
  headers: { ...reply.headers, 'Content-Length': String(Buffer.byteLength(reply.body)) },
  body: '',
});

/**
 * Renders any thrown value: `HttpError` as plain text, `ValidationError` (and a uniqueness clash
 * the store met at write time) as the 400 JSON body, a unit of work's `RuleViolation` as 409 and
 * its `NotFoundError` as 404, the store's `StoreBusy` as 503 with `Retry-After`, an aborted upload as 499 (never sent),
 * anything else as the bare 500 text (the caller logs the cause; nothing internal leaks).
 */
export function errorReply(err: unknown): Reply {
  if (err instanceof HttpError) return textReply(err.status, err.message, err.headers);
  // Nobody is left to read it; the status is for the access log (nginx's 499).
  if (err instanceof ClientClosedRequest) return textReply(499, 'Client closed request.');
  if (err instanceof ValidationError) return jsonReply(400, validationBody(err.errors));
  // A unit of work's refusals (see store/port.ts): nothing was written.
  if (err instanceof RuleViolation) return textReply(409, MESSAGES[err.reason]);
  if (err instanceof NotFoundError) return textReply(404, MESSAGES.notFound);
  // The store's bounded pool of slow reads is full, or the worker of this read died (decisions §2).
  if (err instanceof StoreBusy) return textReply(503, MESSAGES.serviceBusy, { 'Retry-After': String(err.retryAfterSeconds) });
  if (err instanceof UniqueViolation) {
    return jsonReply(400, validationBody({ [err.field]: [`The ${err.field} has already been taken.`] }));
  }
  return textReply(500, MESSAGES.unexpected);
}
