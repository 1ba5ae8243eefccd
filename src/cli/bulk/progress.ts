/** A one-line count bar for bulk runs on stderr (only when stderr is a terminal). */
import { realMs } from '../../contract/clock.js';

interface Out {
  write(chunk: string): unknown;
}

export interface CountBar {
  update(done: number, failed: number): void;
  done(): void;
}

/** `[########------------]  7/20  1 failed`, fitting `width` columns. */
export function countLine(done: number, total: number, failed: number, width: number): string {
  const text = `  ${done}/${total}${failed ? `  ${failed} failed` : ''}`;
  const barWidth = Math.max(10, Math.min(40, width - text.length - 3));
  const filled = Math.round((total ? done / total : 1) * barWidth);
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${text}`;
}

/** A bar on `out` (the caller checks it is a terminal), redrawn at most every 100 ms. */
export function countBar(out: Out, total: number, width: number, now: () => number = realMs): CountBar {
  let last = -Infinity;
  let shown = 0;
  return {
    update(done, failed) {
      const t = now();
      if (t - last < 100 && done !== total) return;
      last = t;
      const line = countLine(done, total, failed, width - 1);
      out.write(`\r${line}${' '.repeat(Math.max(0, shown - line.length))}`);
      shown = line.length;
    },
    done() {
      if (shown) out.write(`\r${' '.repeat(shown)}\r`);
      shown = 0;
    },
  };
}
