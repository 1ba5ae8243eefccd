/** A resource as printed: plain JSON values. */
export type Row = Record<string, unknown>;

/** The value at a dotted path (`address.city`), or undefined. */
export function at(row: Row, path: string): unknown {
  let v: unknown = row;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Row)[key];
  }
  return v;
}

/** Keeps only `fields` (dotted paths allowed, keys named as given), in that order. */
export function pick(row: Row, fields: readonly string[] | undefined): Row {
  if (!fields) return row;
  return Object.fromEntries(fields.map((f) => [f, at(row, f) ?? null]));
}

/** A value as one text cell: empty for null, JSON for objects and arrays. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'string') return v;
  // What else a JSON value holds: a number or a boolean.
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : '';
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const two = (n: number) => String(n).padStart(2, '0');

/**
 * A table cell: like `cell`, but an ISO date-time shows short in the local time zone
 * (`2026-01-31 10:30`). Only tables do this; every other format keeps the ISO text.
 */
export function tableCell(v: unknown): string {
  if (typeof v !== 'string' || !ISO_TIME.test(v)) return cell(v);
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return v;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
