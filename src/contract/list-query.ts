import { z } from 'zod';
import { inputString } from './common.js';
import { parseIsoInstant } from './dates.js';
import { type AttributeType, booleanValue, type ListSpec, OPERATORS, type Operator, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './list-specs.js';
import { addError, type FieldErrors, issuesToErrors, type ParseResult } from './validation.js';

export { type AttributeType, CONFERENCE_LIST, CUSTOMER_LIST, type ListSpec, OPERATORS, type Operator, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, USER_LIST } from './list-specs.js';

/** A validated filter; `value` is null for IsNull/NotNull, a number for integer comparisons and booleans (1/0). */
export interface ListFilter {
  attribute: string;
  type: AttributeType;
  operator: Operator;
  value: string | number | null;
}

/** A validated list query (decisions §6), ready for the store's list-query compiler. */
export interface ListQuery {
  page_size: number;
  page_number: number;
  with_trashed: boolean;
  order_by: string;
  order_direction: 'asc' | 'desc';
  filter: ListFilter | null;
}

/** Query of the attendee, recording and account lists: pagination only, ordered by id. */
export interface PageQuery {
  page_size: number;
  page_number: number;
}

/** Aliases accepted for the canonical parameter names (page URLs always use the canonical ones). */
export const PARAM_ALIASES: Readonly<Record<string, string>> = { per_page: 'page_size', page: 'page_number' };

/** Reads query parameters, mapping aliases to canonical names; a canonical name wins over its alias. */
export function canonicalParams(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [alias, canonical] of Object.entries(PARAM_ALIASES)) {
    const v = params.get(alias);
    if (v !== null) out[canonical] = v;
  }
  for (const [k, v] of params) if (!(k in PARAM_ALIASES)) out[k] = v;
  return out;
}

const INTEGER = 'The :attribute field must be an integer.';
const intParam = (min: number, max?: number) => {
  const bound = max === undefined ? `The :attribute field must be at least ${min}.` : `The :attribute field must be between ${min} and ${max}.`;
  let n = z.number().int().min(min, { error: bound });
  if (max !== undefined) n = n.max(max, { error: bound });
  // Beyond the safe integers zod's own bound message would leak (not in decisions §10's family).
  return z.string().regex(/^-?[0-9]+$/, { error: INTEGER }).refine((v) => Number.isSafeInteger(Number(v)), { error: INTEGER }).transform(Number).pipe(n);
};

const PageSchema = z.object({
  page_size: intParam(1, PAGE_SIZE_MAX).optional(),
  page_number: intParam(1).optional(),
});

const schemas = new WeakMap<ListSpec, ReturnType<typeof buildListSchema>>();

/** The query schema of one list, built once per list spec. */
function listSchema(spec: ListSpec) {
  let schema = schemas.get(spec);
  if (!schema) schemas.set(spec, (schema = buildListSchema(spec)));
  return schema;
}

function buildListSchema(spec: ListSpec) {
  const selected = 'The selected :attribute is invalid.';
  return PageSchema.extend({
    with_trashed: z.enum(['true', 'false', '1', '0'], { error: 'The :attribute field must be true or false.' }).optional(),
    order_by: z.enum(spec.orders as [string, ...string[]], { error: selected }).optional(),
    order_direction: z.enum(['asc', 'desc'], { error: selected }).optional(),
    filter_attribute: z.enum(Object.keys(spec.filters) as [string, ...string[]], { error: selected }).optional(),
    filter_operator: z.enum(OPERATORS, { error: selected }).optional(),
    filter_value: inputString().optional(),
  });
}

/** Parses a value for comparison against an attribute of `type`, or answers an error template. */
function filterValue(type: AttributeType, operator: Operator, raw: string): { value: string | number } | { error: string } {
  if (type === 'boolean') {
    const b = booleanValue(raw);
    return b === undefined ? { error: 'The :attribute field must be true or false.' } : { value: b };
  }
  if (operator === 'Contains' || type === 'text') return { value: raw };
  // Beyond the safe range a number no longer compares exactly: not an integer we can take.
  if (type === 'integer') return /^-?[0-9]+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? { value: Number(raw) } : { error: INTEGER };
  const time = parseIsoInstant(raw);
  return time === undefined ? { error: 'The :attribute field must be a valid date.' } : { value: new Date(time).toISOString() };
}

/**
 * Validates the query of a list operation: pagination, `with_trashed`, ordering and one filter.
 * `filter_value` is required unless the operator is IsNull/NotNull; it is ignored without a
 * `filter_attribute`.
 */
export function parseListQuery(spec: ListSpec, params: URLSearchParams): ParseResult<ListQuery> {
  const input = canonicalParams(params);
  const result = listSchema(spec).safeParse(input);
  const errors: FieldErrors = result.success ? {} : issuesToErrors(result.error.issues, input);
  let filter: ListFilter | null = null;
  if (result.success && result.data.filter_attribute) {
    const attribute = result.data.filter_attribute;
    const operator = result.data.filter_operator ?? 'Equal';
    const type = spec.filters[attribute];
    if (operator === 'IsNull' || operator === 'NotNull') {
      filter = { attribute, type, operator, value: null };
    } else if (result.data.filter_value === undefined || result.data.filter_value === '') {
      addError(errors, 'filter_value', 'The :attribute field is required.');
    } else {
      const parsed = filterValue(type, operator, result.data.filter_value);
      if ('error' in parsed) addError(errors, 'filter_value', parsed.error);
      else filter = { attribute, type, operator, value: parsed.value };
    }
  }
  if (!result.success || Object.keys(errors).length) return { ok: false, errors };
  const d = result.data;
  return {
    ok: true,
    value: {
      page_size: d.page_size ?? PAGE_SIZE_DEFAULT,
      page_number: d.page_number ?? 1,
      with_trashed: d.with_trashed === 'true' || d.with_trashed === '1',
      order_by: d.order_by ?? 'id',
      order_direction: d.order_direction ?? 'asc',
      filter,
    },
  };
}

/** Validates the query of a pagination-only list (attendees, recordings, accounts). */
export function parsePageQuery(params: URLSearchParams): ParseResult<PageQuery> {
  const input = canonicalParams(params);
  const result = PageSchema.safeParse(input);
  if (!result.success) return { ok: false, errors: issuesToErrors(result.error.issues, input) };
  return { ok: true, value: { page_size: result.data.page_size ?? PAGE_SIZE_DEFAULT, page_number: result.data.page_number ?? 1 } };
}
