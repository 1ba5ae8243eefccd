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
  return String(v);
}
