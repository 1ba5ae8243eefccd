/**
 * The list filter of decisions §6 and §10 evaluated on rows as the API returns them, free of zod:
 * the CLI applies every `--filter` after the first (the interface filters one attribute per
 * request) to the rows it streams. It must agree with the server's SQL exactly:
 * - text compares with ASCII letters folded to lower case (SQLite's NOCASE), other characters by
 *   code point (the order of their UTF-8 bytes);
 * - `Contains` is a substring match, `%` and `_` literal, ASCII case folded, on the text of the
 *   value: an integer's decimal digits, a date's ISO text as the server renders it;
 * - integers compare numerically, dates as instants, booleans as 1/0 (`Contains` as equality);
 * - a null matches only IsNull: NotEqual and the ordering operators never match it (SQL rules);
 * - derived attributes: users' `department` (the department's name), customers' `address` and
 *   `city_country` (non-empty parts joined by `, `).
 */
import { parseIsoInstant } from './dates.js';
import { type AttributeType, booleanValue, type ListSpec, type Operator, CUSTOMER_LIST, USER_LIST } from './list-specs.js';

/** One filter: attribute, operator and (unless IsNull/NotNull) the value as typed. */
export interface RowFilter {
  attribute: string;
  operator: Operator;
  value?: string;
}

type Row = Readonly<Record<string, unknown>>;

/** Non-empty text parts joined by `sep`, or null when none is left (decisions §10, "Derived text"). */
function joinParts(parts: readonly unknown[], sep: string): string | null {
  const kept = parts.filter((p): p is string => typeof p === 'string' && p !== '');
  return kept.length ? kept.join(sep) : null;
}

const addressPart = (row: Row, part: string): unknown => {
  const address = row.address;
  return address && typeof address === 'object' ? (address as Row)[part] : null;
};

/** Attributes that are not a key of the row, by list. */
const DERIVED = new Map<ListSpec, Readonly<Record<string, (row: Row) => unknown>>>([
  [USER_LIST, { department: (row) => row.department_name }],
  [
    CUSTOMER_LIST,
    {
      address: (row) => joinParts(['line_1', 'line_2', 'city', 'region', 'postal_code', 'country'].map((p) => addressPart(row, p)), ', '),
      city_country: (row) => joinParts([addressPart(row, 'city'), addressPart(row, 'country')], ', '),
    },
  ],
]);

/** The value a filter attribute compares for `row` (null when absent). */
export function filterOperand(spec: ListSpec, attribute: string, row: Row): unknown {
  const derived = DERIVED.get(spec)?.[attribute];
  const v = derived ? derived(row) : row[attribute];
  return v === undefined ? null : v;
}

/** SQLite's NOCASE: ASCII A-Z folded to a-z, nothing else. */
const foldAscii = (s: string) => s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

/** Orders two strings by code point (= UTF-8 byte order, SQLite's memcmp), not by UTF-16 unit. */
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d) return d;
  }
  return x.length - y.length;
}

/** The text SQL sees for `Contains`: integers by their digits, everything else as rendered. */
const asText = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));

/** -1/0/1 of `actual` against the filter value by the attribute's type; undefined when not comparable. */
function compare(type: AttributeType, actual: unknown, value: string): number | undefined {
  if (type === 'integer') {
    const n = Number(value);
    return typeof actual === 'number' ? Math.sign(actual - n) : undefined;
  }
  if (type === 'date') {
    const a = typeof actual === 'string' ? parseIsoInstant(actual) : undefined;
    const b = parseIsoInstant(value);
    return a === undefined || b === undefined ? undefined : Math.sign(a - b);
  }
  return typeof actual === 'string' ? Math.sign(compareCodePoints(foldAscii(actual), foldAscii(value))) : undefined;
}

const ORDERED: Partial<Record<Operator, (c: number) => boolean>> = {
  Equal: (c) => c === 0,
  NotEqual: (c) => c !== 0,
  GreaterThan: (c) => c > 0,
  GreaterThanOrEqual: (c) => c >= 0,
  LessThan: (c) => c < 0,
  LessThanOrEqual: (c) => c <= 0,
};

/**
 * Whether `row` passes `filter` on list `spec`, as the server would decide. A date value is
 * expected in ISO 8601 form (the CLI checks it before any request, as the server does).
 */
export function matchesFilter(spec: ListSpec, row: Row, filter: RowFilter): boolean {
  const type = spec.filters[filter.attribute];
  if (!type) throw new Error(`Unknown filter attribute ${filter.attribute}`);
  const actual = filterOperand(spec, filter.attribute, row);
  if (filter.operator === 'IsNull') return actual === null;
  if (filter.operator === 'NotNull') return actual !== null;
  if (actual === null) return false;
  const value = filter.value ?? '';
  if (type === 'boolean') {
    const c = typeof actual === 'boolean' ? Math.sign(Number(actual) - (booleanValue(value) ?? NaN)) : NaN;
    const test = ORDERED[filter.operator === 'Contains' ? 'Equal' : filter.operator];
    return !Number.isNaN(c) && test !== undefined && test(c);
  }
  if (filter.operator === 'Contains') return foldAscii(asText(actual)).includes(foldAscii(value));
  const c = compare(type, actual, value);
  const test = ORDERED[filter.operator];
  if (!test) throw new Error(`Unknown operator ${filter.operator}`);
  return c !== undefined && test(c);
}

/** Whether `row` passes every filter (AND). */
export function matchesAll(spec: ListSpec, row: Row, filters: readonly RowFilter[]): boolean {
  return filters.every((f) => matchesFilter(spec, row, f));
}
