import { cell, type Row } from './values.js';

/** One RFC 4180 field: quoted when it holds a comma, quote, CR or LF; quotes doubled. */
export function csvField(v: unknown): string {
  const s = cell(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV record with its CRLF terminator (RFC 4180). */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** Header plus records; `columns` fixes the header (else the first row's keys). */
export function csvRows(rows: readonly Row[], columns: readonly string[]): string {
  return rows.map((r) => csvLine(columns.map((c) => r[c]))).join('');
}
