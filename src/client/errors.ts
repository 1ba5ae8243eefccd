/**
 * The client's two error types. Kept free of heavy imports so the CLI can map them to exit
 * codes without loading the HTTP stack.
 */

/** Laravel-style validation details: dotted attribute path → messages. */
export type FieldErrors = Record<string, string[]>;

/** A non-2xx answer from the API. `message` is the plain-text body or the validation `message`. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly method: string,
    /** Request path relative to the base URL, query included (never carries secrets). */
    readonly path: string,
    readonly headers: Readonly<Record<string, string>>,
    readonly errors?: FieldErrors,
    /** Permissions the operation requires, when known (for 401 hints). */
    readonly permissions: readonly string[] = [],
    /** How many tries were made (more than 1 after retries). */
    readonly tries = 1,
    /** The base URL the request went to (for hints about a wrong one). */
    readonly baseUrl?: string,
    /** The answer was not the API's: an HTML page, or a success that is not JSON. */
    readonly notApi = false,
  ) {
    super(message);
  }
}

/** The request never got an HTTP answer: connection failure, DNS failure or timeout. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  constructor(
    message: string,
    readonly method: string,
    readonly url: string,
    readonly timedOut: boolean,
    readonly tries = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
