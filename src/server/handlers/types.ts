import type { FieldErrors, Operation, OperationId } from '../../contract/index.js';
import type { Awaitable, ServiceStore } from '../../store/port.js';
import type { AccessKeyRecord, TenantRecord } from '../../store/types.js';
import type { ResolvedOptions } from '../options.js';

/**
 * What a handler sees: the tenant and key already checked, path ids parsed, the query and body
 * already validated against the contract. Nothing HTTP: no request, no response, no SQL.
 */
export interface HandlerContext<B = unknown, Q = unknown> {
  store: ServiceStore;
  tenant: TenantRecord;
  key: AccessKeyRecord;
  op: Operation;
  /** Path parameters by template name (`user_id`), positive safe integers. */
  params: Readonly<Record<string, number>>;
  /** The parsed body (`undefined` for operations without one). */
  body: B;
  /** `ListQuery` for list operations, `PageQuery` for page-only lists, `RecordingUrlQuery` for expiry. */
  query: Q;
  /** `scheme://host[:port]` of the request, for absolute URLs. */
  origin: string;
  /** The instance clock's reading (epoch ms) when the request arrived (`ServerOptions.clock`). */
  now: number;
  options: ResolvedOptions;
}

/**
 * One operation's handler. `run` returns the response `data`: the resource (`single`), the array
 * (`attendees`), a `ListResult` `{rows, total}` (`list`, the pipeline builds the envelope) or
 * `{url, expires_at}` (`temporaryUrl`); a resource may come as `JsonText` (rows of a `ListResult`
 * too), already serialized by the store. It throws `HttpError` (404, 409 ...) or `ValidationError`.
 */
export interface Handler<B = unknown, Q = unknown> {
  /**
   * Checks against stored data (references, uniqueness) of the body fields that passed the
   * schema, adding messages to `errors`. Runs even when other fields failed, and before any
   * existence check, since validation (400) precedes existence (404) (decisions §2).
   */
  validate?(ctx: HandlerContext<Partial<B>, Q>, errors: FieldErrors): Awaitable<void>;
  run(ctx: HandlerContext<B, Q>): unknown;
}

/** Handlers by operation id; an operation without one answers 404 like an unknown route. */
export type HandlerMap = Partial<Record<OperationId, Handler>>;
