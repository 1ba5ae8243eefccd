/**
 * What the output knows about a resource's fields (from the contract's zod-free lists): checking
 * `--fields`, CSV's dotted columns for fixed objects (`address.city`), and status labels in tables.
 */
import { CODE_LABELS, OBJECT_PARTS, RESOURCE_FIELDS, type ResourceName } from '../../contract/resource-fields.js';
import { UsageError } from '../errors.js';
import { closest } from '../suggest.js';
import { formatWorkHours } from '../work-hours.js';
import { at, type Row } from './values.js';

/** The dotted paths the contract knows for a resource: its fields and their fixed parts. */
function knownPaths(resource: ResourceName | undefined): string[] {
  if (!resource) return [];
  return RESOURCE_FIELDS[resource].flatMap((f) => [f, ...(OBJECT_PARTS[f] ?? []).map((p) => `${f}.${p}`)]);
}

/** Whether `path` is in the contract: a known path, or below a field that is not a fixed object (`work_hours.monday`). */
function inContract(path: string, resource: ResourceName | undefined): boolean {
  if (knownPaths(resource).includes(path)) return true;
  const top = path.split('.')[0];
  return Boolean(resource && path.includes('.') && (RESOURCE_FIELDS[resource] as readonly string[]).includes(top) && !OBJECT_PARTS[top]);
}

/**
 * Rejects `--fields` names that are neither in the contract's resource nor keys of `sample` (a
 * row as answered; absent before the request and for an empty list), listing the valid names.
 */
export function checkFields(fields: readonly string[] | undefined, sample: Row | undefined, resource: ResourceName | undefined): void {
  if (!fields || (!sample && !resource)) return;
  const unknown = fields.filter((f) => !inContract(f, resource) && (!sample || at(sample, f) === undefined));
  if (!unknown.length) return;
  refuse(unknown, [...new Set([...knownPaths(resource), ...(sample ? Object.keys(sample) : [])])]);
}

function refuse(unknown: readonly string[], valid: readonly string[]): never {
  const guesses = unknown.map((f) => closest(f, valid)).filter((g) => g !== undefined);
  const guess = guesses.length ? ` (did you mean ${guesses.join(', ')}?)` : '';
  throw new UsageError(`unknown field${unknown.length > 1 ? 's' : ''} for --fields: ${unknown.join(', ')}${guess}`, `fields: ${valid.join(', ')}`);
}

/**
 * `--fields` checked before any request. A write must not be sent when its answer cannot print,
 * so every name must be in the contract. A read refuses the names that look like misspellings of
 * the contract's fields; any other name may still be a key of the answer (checked then).
 */
export function checkFieldsBeforeRequest(fields: readonly string[] | undefined, resource: ResourceName, write: boolean): void {
  if (!fields) return;
  const known = knownPaths(resource);
  const unknown = fields.filter((f) => !inContract(f, resource) && (write || closest(f, known) !== undefined));
  if (unknown.length) refuse(unknown, known);
}

/** Expands fixed objects into their dotted parts (`address` → `address.line_1` … `address.postal_code`). */
const expand = (columns: readonly string[]) => columns.flatMap((c) => (OBJECT_PARTS[c] ? OBJECT_PARTS[c].map((p) => `${c}.${p}`) : [c]));

/**
 * CSV columns: `--fields` as given, else the resource's fields (rows stream, so the first row may
 * lack a value to learn from) then any other key of the first row; fixed objects become dotted
 * columns, other objects (work hours) stay one JSON cell.
 */
export function csvColumns(fields: readonly string[] | undefined, first: Row | undefined, resource: ResourceName | undefined): string[] {
  if (fields) return expand(fields);
  const schema: readonly string[] = resource ? RESOURCE_FIELDS[resource] : [];
  return expand([...new Set([...schema, ...(first ? Object.keys(first) : [])])]);
}

/** The value of a CSV column: a key as picked by `--fields` (`address.city` kept whole), else the dotted path. */
export const columnValue = (row: Row, column: string): unknown => (column in row ? row[column] : at(row, column));

/**
 * A row as tables show it: coded numbers replaced by their labels (user and recording `status`),
 * a user's work hours on one line (`Mon–Fri 09:00–17:00`).
 */
export function labelled(row: Row, resource: ResourceName | undefined): Row {
  const codes = resource && CODE_LABELS[resource];
  const hours = resource === 'User' ? formatWorkHours(row.work_hours) : undefined;
  if (!codes && hours === undefined) return row;
  const out: Row = hours === undefined ? { ...row } : { ...row, work_hours: hours };
  if (!codes) return out;
  for (const [field, labels] of Object.entries(codes)) {
    const v = out[field];
    if (typeof v === 'number' && labels[v] !== undefined) out[field] = labels[v];
  }
  return out;
}
