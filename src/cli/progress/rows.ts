/** The progress line of `--all` on stderr: rows fetched of the total, and rows per second. */
import { liveLine } from './bar.js';
import { realMs } from '../../contract/clock.js';

interface Out {
  write(chunk: string): unknown;
}

export interface RowProgress {
  /** `rows` fetched so far of `total` (the list's total, when known). */
  update(rows: number, total?: number): void;
  /** Clears the line (before other output on the same terminal, and at the end). */
  done(): void;
}

/** `Fetched 300/10000 rows (3%), 1250 rows/s`, cut to `width` columns. */
export function rowsLine(rows: number, total: number | undefined, perSecond: number | undefined, width: number): string {
  const of = total ? `/${total} rows (${Math.floor((Math.min(rows, total) / total) * 100)}%)` : ' rows';
  const rate = perSecond === undefined ? '' : `, ${Math.round(perSecond)} rows/s`;
  return `Fetched ${rows}${of}${rate}`.slice(0, Math.max(0, width));
}

/** A progress line on `out` (only create it when that is a terminal); `now` in milliseconds. */
export function rowProgress(out: Out, opts: { width: number; now?: () => number }): RowProgress {
  const now = opts.now ?? realMs;
  const started = now();
  const line = liveLine(out, { now });
  return {
    update(rows, total) {
      const seconds = (now() - started) / 1000;
      line.show(rowsLine(rows, total, seconds > 0 ? rows / seconds : undefined, opts.width - 1), total !== undefined && rows >= total);
    },
    done: () => line.done(),
  };
}
