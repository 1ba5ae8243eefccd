import { type Row, tableCell } from './values.js';

const MIN_COLUMN = 6;

/** Column widths (padding included) that fit `width`: the widest column shrinks first. */
export function fitWidths(natural: number[], width: number): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((a, b) => a + b, 0) + widths.length + 1;
  while (total() > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= MIN_COLUMN) break;
    widths[widest]--;
  }
  return widths;
}

/** A cell of a list table: one line. */
const lineCell = (v: unknown) => tableCell(v).replace(/\s+/g, ' ');

/** A cell of a record table: objects and arrays pretty-printed over several lines. */
const recordCell = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v, null, 2) : lineCell(v));

/**
 * A bordered table of `rows` over `columns`, cells truncated with `…` to fit a terminal's `width`
 * (each line of a multi-line cell on its own); times local and short.
 */
export async function renderTable(
  rows: readonly Row[],
  columns: readonly string[],
  opts: { width: number; widthKnown?: boolean; color: boolean; stdoutIsTTY?: boolean },
  cellText: (v: unknown) => string = lineCell,
): Promise<string> {
  const { default: Table } = await import('./cli-table3.js');
  const texts = rows.map((r) => columns.map((c) => cellText(r[c])));
  const longest = (s: string) => Math.max(...s.split('\n').map((l) => l.length));
  const natural = columns.map((c, i) => Math.max(c.length, ...texts.map((t) => longest(t[i]))) + 2);
  const table = new Table({
    head: [...columns],
    // Only a terminal of known width is fitted: in a pipe, or when no width was measured (never
    // assume 80 columns of a wider terminal), nothing is truncated.
    colWidths: opts.stdoutIsTTY === false || opts.widthKnown === false ? natural : fitWidths(natural, opts.width),
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    style: { head: opts.color ? ['cyan'] : [], border: [] },
  });
  table.push(...texts);
  return `${table.toString()}\n`;
}

/** A single resource as a two-column key/value table; nested JSON (address, work hours) pretty-printed. */
export function renderRecord(row: Row, opts: { width: number; widthKnown?: boolean; color: boolean; stdoutIsTTY?: boolean }): Promise<string> {
  const rows = Object.entries(row).map(([field, value]) => ({ field, value }));
  return renderTable(rows, ['field', 'value'], opts, recordCell);
}
