/** Writing to stdout with backpressure: the next chunk waits until the reader caught up. */

interface Out {
  write(chunk: string): unknown;
}

interface Emitter {
  once(event: string, listener: () => void): unknown;
  off?(event: string, listener: () => void): unknown;
}

/**
 * Writes `chunk`; when the stream says its buffer is full (`write` answers false), waits for
 * `drain` (or `close`, or `signal` aborting), so a slow pipe never makes us buffer a whole export.
 */
export async function writeChunk(out: Out, chunk: string, signal?: AbortSignal): Promise<void> {
  if (out.write(chunk) !== false) return;
  const em = out as Partial<Emitter>;
  if (typeof em.once !== 'function' || signal?.aborted) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      em.off?.('drain', done);
      em.off?.('close', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    em.once!('drain', done);
    em.once!('close', done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
