import type { FieldErrors } from '../contract/index.js';
import { MESSAGES } from '../contract/index.js';

/**
 * The one HTTP error type: a status and a plain-text message (decisions §2), plus optional
 * response headers (`Allow`, `Retry-After`, ...). Rendered as `text/plain; charset=utf-8`.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** A validation failure: Laravel-style field errors, rendered as the 400 JSON body. */
export class ValidationError extends Error {
  constructor(readonly errors: FieldErrors) {
    super('validation failed');
    this.name = 'ValidationError';
  }
}

/** The client closed the connection before its request body arrived: logged as 499, never answered. */
export class ClientClosedRequest extends Error {
  constructor(options?: ErrorOptions) {
    super('client closed request', options);
    this.name = 'ClientClosedRequest';
  }
}

/** 404 `Resource object does not exist.`: unknown routes and absent, deleted or foreign rows. */
export const notFound = (): HttpError => new HttpError(404, MESSAGES.notFound);
