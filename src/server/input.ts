import { z } from 'zod';
import {
  type FieldErrors,
  type Operation,
  orderErrors,
  parseListQuery,
  parsePageQuery,
  parseWith,
  type ParseResult,
  RecordingUrlQuery,
} from '../contract/index.js';
import { incompleteKeys, needsCompleteBody } from '../contract/complete-bodies.js';
import { parseJsonBody } from './body.js';
import { ValidationError } from './errors.js';
import type { Handler, HandlerContext } from './handlers/types.js';
import { MAX_BODY_BYTES } from './options.js';

/** Key order of an object body schema: the order validation errors are reported in (decisions §10). */
export function fieldOrder(op: Operation): string[] {
  return op.body instanceof z.ZodObject ? Object.keys(op.body.shape) : [];
}

function parseQuery(op: Operation, params: URLSearchParams): ParseResult<unknown> {
  switch (op.query) {
    case 'list':
      return parseListQuery(op.listSpec!, params);
    case 'page':
      return parsePageQuery(params);
    case 'expiry':
      return parseWith(RecordingUrlQuery, { expiry: params.get('expiry') ?? undefined }, 'expiry');
    default:
      return { ok: true, value: undefined };
  }
}

/** The top-level fields of an object body that have no error, as sent. */
function passedFields(input: unknown, errors: FieldErrors, order: readonly string[]): Record<string, unknown> | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const failed = new Set(Object.keys(errors).map((a) => a.split('.')[0]));
  const out: Record<string, unknown> = {};
  for (const k of order) if (Object.hasOwn(input, k) && !failed.has(k)) out[k] = (input as Record<string, unknown>)[k];
  return out;
}

/**
 * Strict mode's complete-body rule: each key of the operation's rule that is absent (or null where
 * null is not allowed) is `required`, which replaces any other message for it, as Laravel reports.
 */
function requireComplete(op: Operation, json: unknown, errors: FieldErrors): void {
  if (!needsCompleteBody(op.id) || json === null || typeof json !== 'object' || Array.isArray(json)) return;
  for (const key of incompleteKeys(op.id, json as Record<string, unknown>)) errors[key] = [`The ${key} field is required.`];
}

/**
 * The input-validation stage (decisions §2): the query, then the body (JSON whatever the
 * Content-Type, at most 1 MiB), then the handler's checks against stored data on the fields that
 * passed; all errors are merged, ordered by the body schema's keys, and thrown as one 400. With
 * `strict`, the hosted complete-body rules apply too.
 */
export async function validateInput(
  base: HandlerContext<undefined, undefined>,
  handler: Handler,
  order: readonly string[],
  search: string,
  readBody: (limit: number) => Promise<Buffer>,
): Promise<HandlerContext> {
  const { op } = base;
  const errors: FieldErrors = {};
  const query = op.query === 'none' ? { ok: true as const, value: undefined } : parseQuery(op, new URLSearchParams(search));
  if (!query.ok) Object.assign(errors, query.errors);
  let body: unknown;
  let fields: unknown;
  if (op.body) {
    const json = parseJsonBody(await readBody(MAX_BODY_BYTES));
    const parsed = parseWith(op.body, json);
    if (parsed.ok) body = fields = parsed.value;
    else {
      Object.assign(errors, parsed.errors);
      fields = passedFields(json, parsed.errors, order);
    }
    if (base.options.strict) requireComplete(op, json, errors);
  }
  const queryValue = query.ok ? query.value : undefined;
  if (handler.validate && fields !== undefined) await handler.validate({ ...base, query: queryValue, body: fields as Record<string, unknown> }, errors);
  if (Object.keys(errors).length) throw new ValidationError(orderErrors(errors, order));
  return { ...base, query: queryValue, body };
}
