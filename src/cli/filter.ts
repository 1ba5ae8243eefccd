import { parseIsoInstant } from '../contract/dates.js';
import type { RowFilter } from '../contract/list-filter.js';
import { booleanValue, type ListSpec, type Operator } from '../contract/list-specs.js';
import { UsageError } from './errors.js';
import { didYouMean } from './suggest.js';

/** The list query parameters a `--filter` expression becomes (decisions §6). */
export interface FilterParams {
  filter_attribute: string;
  filter_operator: Operator;
  filter_value?: string;
}

/** Operator symbols, longest first so `>=` wins over `>`. */
const SYMBOLS: readonly [string, Operator][] = [
  ['!=', 'NotEqual'],
  ['>=', 'GreaterThanOrEqual'],
  ['<=', 'LessThanOrEqual'],
  ['=', 'Equal'],
  ['~', 'Contains'],
  ['>', 'GreaterThan'],
  ['<', 'LessThan'],
];

export const FILTER_SYNTAX = 'attr=value, attr!=value, attr~value (contains), attr>value, attr>=value, attr<value, attr<=value, attr:null, attr:notnull';

/** Parses `attr=value`, `attr!=value`, `attr~value`, `attr>value` … `attr:null`, `attr:notnull`. */
export function parseFilter(expr: string, spec: ListSpec): FilterParams {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(.*)$/s.exec(expr);
  const rest = m?.[2] ?? '';
  const nullCheck = /^:(null|notnull)\s*$/i.exec(rest);
  const symbol = SYMBOLS.find(([s]) => rest.startsWith(s));
  if (!m || (!nullCheck && !symbol)) throw new UsageError(`cannot read filter '${expr}'`, `use one of: ${FILTER_SYNTAX}`);
  const attribute = m[1];
  if (!(attribute in spec.filters)) {
    throw new UsageError(`cannot filter by '${attribute}'${didYouMean(attribute, Object.keys(spec.filters))}`, `filter attributes: ${Object.keys(spec.filters).join(', ')}`);
  }
  if (nullCheck) return { filter_attribute: attribute, filter_operator: nullCheck[1].toLowerCase() === 'null' ? 'IsNull' : 'NotNull' };
  const [sym, operator] = symbol!;
  const value = rest.slice(sym.length).trim();
  if (operator !== 'Contains' && value.startsWith('=')) {
    throw new UsageError(`cannot read filter '${expr}': '${sym}=' is not an operator`, `use one of: ${FILTER_SYNTAX}`);
  }
  if (!value) throw new UsageError(`filter '${expr}' has no value after '${sym}'`, `to match empty or missing values use ${attribute}:null`);
  checkValue(attribute, spec.filters[attribute], operator, value);
  return { filter_attribute: attribute, filter_operator: operator, filter_value: value };
}

/** Rejects a value the server would refuse for the attribute's type (Contains takes any text but for a boolean). */
function checkValue(attribute: string, type: ListSpec['filters'][string], operator: Operator, value: string): void {
  if (type === 'boolean' && booleanValue(value) === undefined) {
    throw new UsageError(`'${attribute}' is true or false, not '${value}'`, `e.g. ${attribute}=true or ${attribute}=0`);
  }
  if (operator === 'Contains') return;
  if (type === 'integer' && !/^-?[0-9]+$/.test(value)) {
    throw new UsageError(`'${attribute}' compares whole numbers, not '${value}'`, `e.g. ${attribute}>=10, or ${attribute}~${value} to match text`);
  }
  if (type === 'date' && parseIsoInstant(value) === undefined) {
    throw new UsageError(`'${attribute}' compares ISO 8601 dates, not '${value}'`, `e.g. ${attribute}>=2026-01-31 or ${attribute}<2026-01-31T12:00:00Z`);
  }
}

/** The filters of a list: the first goes to the server, the rest are applied to the rows it answers. */
export interface ListFilters {
  server?: FilterParams;
  client: RowFilter[];
}

/**
 * Parses repeated `--filter`s. The API filters one attribute per request, so every filter after
 * the first is applied by the client to the rows `--all` streams; without `--all`, or with
 * `--raw` (envelopes as the server sent them), that cannot work and is a usage error.
 */
export function parseFilters(exprs: readonly string[], spec: ListSpec, opts: { all: boolean; raw: boolean }): ListFilters {
  const parsed = exprs.map((e) => parseFilter(e, spec));
  if (parsed.length > 1 && (!opts.all || opts.raw)) {
    throw new UsageError(
      opts.raw ? '--raw takes one --filter' : 'more than one --filter needs --all',
      opts.raw
        ? 'the API filters on one attribute per request, and --raw prints its pages unchanged; drop --raw to apply the other filters to the rows'
        : 'the API filters on one attribute per request; with --all the other filters are applied to every row streamed',
    );
  }
  const [server, ...rest] = parsed;
  return { server, client: rest.map((f) => ({ attribute: f.filter_attribute, operator: f.filter_operator, value: f.filter_value })) };
}

/** Parses `--sort [-]attr` (a leading `-` sorts descending). */
export function parseSort(expr: string, spec: ListSpec): { order_by: string; order_direction: 'asc' | 'desc' } {
  const desc = expr.startsWith('-');
  const attribute = expr.replace(/^[-+]/, '');
  if (!spec.orders.includes(attribute)) throw new UsageError(`cannot sort by '${attribute}'`, `sort attributes: ${spec.orders.join(', ')}`);
  return { order_by: attribute, order_direction: desc ? 'desc' : 'asc' };
}
