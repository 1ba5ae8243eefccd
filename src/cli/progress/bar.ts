/**
 * A one-line byte progress bar for stderr (only ever shown when stderr is a terminal): bar,
 * percentage and bytes/total, redrawn in place with `\r` at most every 100 ms; and the live line
 * it draws with, shared by the other progress lines.
 */
import { realMs } from '../../contract/clock.js';

interface Out {
  write(chunk: string): unknown;
}

export interface ProgressBar {
  /** Reports the bytes received so far. */
  update(bytes: number): void;
  /** Clears the bar's line, leaving the cursor at its start. */
  done(): void;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** `512 B`, `1.5 KiB`, `12.0 MiB`. */
export function formatBytes(n: number): string {
  let v = n;
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} B` : `${v.toFixed(1)} ${UNITS[i]}`;
}

/** The line for `bytes` of `total` (total unknown: bytes only), fitting `width` columns. */
export function progressLine(bytes: number, total: number | undefined, width: number): string {
  if (!total) return `${formatBytes(bytes)} received`;
  const ratio = Math.min(1, bytes / total);
  const text = ` ${String(Math.floor(ratio * 100)).padStart(3)}%  ${formatBytes(bytes)} / ${formatBytes(total)}`;
  const barWidth = Math.max(10, Math.min(40, width - text.length - 3));
  const filled = Math.round(ratio * barWidth);
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${text}`;
}

/** A line redrawn in place with `\r`, at most every `intervalMs` unless forced. */
export interface LiveLine {
  show(line: string, force?: boolean): void;
  /** Clears the line, leaving the cursor at its start; the next `show` draws again. */
  done(): void;
}

/** A live line on `out` (a terminal); `now` gives milliseconds (injectable for tests). */
export function liveLine(out: Out, opts: { now?: () => number; intervalMs?: number } = {}): LiveLine {
  const now = opts.now ?? realMs;
  const interval = opts.intervalMs ?? 100;
  let last = -Infinity;
  let shown = 0;
  return {
    show(line, force) {
      const t = now();
      if (!force && t - last < interval) return;
      last = t;
      out.write(`\r${line}${' '.repeat(Math.max(0, shown - line.length))}`);
      shown = line.length;
    },
    done() {
      if (shown) out.write(`\r${' '.repeat(shown)}\r`);
      shown = 0;
    },
  };
}

/** A bar writing to `out`; `now` gives milliseconds (injectable for tests). */
export function progressBar(out: Out, opts: { total?: number; width: number; now?: () => number }): ProgressBar {
  const line = liveLine(out, { now: opts.now });
  return {
    update: (bytes) => line.show(progressLine(bytes, opts.total, opts.width - 1), bytes === opts.total),
    done: () => line.done(),
  };
}
