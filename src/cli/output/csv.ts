import { columnValue } from './fields.js';
import { cell, type Row } from './values.js';

/** One RFC 4180 field: quoted when it holds a comma, quote, CR or LF; quotes doubled. */
export function csvField(v: unknown): string {
  const s = cell(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * One CSV record ending in LF, as xsv, Miller, DuckDB and PostgreSQL write (CRLF breaks `grep -x`
 * and `cut`); a field holding a line break is still quoted, so readers of either ending agree.
 */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\n`;
}

/** Records of `rows` over `columns` (dotted columns read nested values). */
export function csvRows(rows: readonly Row[], columns: readonly string[]): string {
  return rows.map((r) => csvLine(columns.map((c) => columnValue(r, c)))).join('');
}
