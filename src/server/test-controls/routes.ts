import type { ResolvedOptions } from '../options.js';

/**
 * One route of `serve --test-controls`, answered under `/_confctl` (see `controls.ts` for the
 * checks every route gets first: loopback peer, control token).
 *
 * To add routes: write a module beside this one that exports a `ControlRoute[]` (for example
 * `clock.ts` exporting `CLOCK_ROUTES`), and add it to the list in `index.ts`, one line. A route
 * names its method and a path template below `/_confctl` whose `{name}` segments match any one
 * non-empty segment, handed to `handle` percent-decoded in `params` (validate them there). The
 * JSON body (`{}` when empty) arrives unvalidated in `body`. `handle` answers the `data` of a 200
 * `{"message": "Success.", "data": ...}`; it throws `ValidationError` for bad input (400, the
 * validation body of decisions §2) or `HttpError` for any other refusal. What a route needs from
 * the running server (the store, a clock, a fault table) it reads from `options`, the server's
 * resolved options: add a field there rather than a global.
 */
export interface ControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below `/_confctl`, e.g. `/snapshots/{name}/restore`. */
  path: string;
  /** A line for `GET /_confctl`, which lists the routes. */
  summary: string;
  handle(request: ControlRequest): unknown;
}

export interface ControlRequest {
  /** The template's `{name}` segments, percent-decoded. */
  params: Readonly<Record<string, string>>;
  /** The JSON body, `{}` when empty. */
  body: unknown;
  options: ResolvedOptions;
}

/** `serve --test-controls`: the token every control request must carry, and the routes. */
export interface TestControls {
  token: string;
  /** Default: every route of `index.ts`. */
  routes?: readonly ControlRoute[];
}
