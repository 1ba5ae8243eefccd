/**
 * `--all`: every page of a list into the output as it arrives, with a progress line and a clean
 * stop on Ctrl-C. Holds one page at a time.
 */
import type { RowProgress } from '../progress/rows.js';

export interface PageLike {
  data: readonly unknown[];
  total?: number;
}

export interface StreamOptions {
  /** Aborted on Ctrl-C: no more pages are fetched, the page in hand is written whole. */
  signal?: AbortSignal;
  progress?: RowProgress;
  /** Clear the progress line before each write (stdout is the same terminal). */
  hideProgressWhileWriting?: boolean;
}

/** Feeds every page to `write`; answers the rows written and whether Ctrl-C stopped it. */
export async function streamPages<P extends PageLike>(
  pages: AsyncIterable<P>,
  write: (page: P) => Promise<void>,
  opts: StreamOptions = {},
): Promise<{ rows: number; interrupted: boolean }> {
  const { signal, progress } = opts;
  let rows = 0;
  try {
    for await (const page of pages) {
      if (opts.hideProgressWhileWriting) progress?.done();
      await write(page);
      rows += page.data.length;
      progress?.update(rows, page.total);
      if (signal?.aborted) break;
    }
  } catch (err) {
    if (!signal?.aborted) throw err;
  } finally {
    progress?.done();
  }
  return { rows, interrupted: Boolean(signal?.aborted) };
}
