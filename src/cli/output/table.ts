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

/** A bordered table of `rows` over `columns`, cells truncated with `…` to fit a terminal's `width`; times local and short. */
export async function renderTable(
  rows: readonly Row[],
  columns: readonly string[],
  opts: { width: number; color: boolean; stdoutIsTTY?: boolean },
): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const texts = rows.map((r) => columns.map((c) => tableCell(r[c]).replace(/\s+/g, ' ')));
  const natural = columns.map((c, i) => Math.max(c.length, ...texts.map((t) => t[i].length)) + 2);
  const table = new Table({
    head: [...columns],
    // Only a terminal has a width to fit; in a pipe nothing is truncated (ARCHITECTURE: pipe output).
    colWidths: opts.stdoutIsTTY === false ? natural : fitWidths(natural, opts.width),
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    style: { head: opts.color ? ['cyan'] : [], border: [] },
  });
  table.push(...texts);
  return `${table.toString()}\n`;
}

/** A single resource as a two-column key/value table. */
export function renderRecord(row: Row, opts: { width: number; color: boolean; stdoutIsTTY?: boolean }): Promise<string> {
  const rows = Object.entries(row).map(([field, value]) => ({ field, value }));
  return renderTable(rows, ['field', 'value'], opts);
}
