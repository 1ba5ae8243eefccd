/** A byte range of a file, both ends inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Interprets a `Range` header for a file of `size` bytes (RFC 9110 §14):
 * - `undefined`: no usable range (absent, not `bytes=`, malformed, or several ranges): serve the
 *   whole file with 200. Multi-range requests are answered with the full 200, never multipart.
 * - `'unsatisfiable'`: a well-formed single range that selects no byte: 416.
 * - a `ByteRange`: serve it with 206. `bytes=a-b` (b clamped to the last byte), `bytes=a-`, and
 *   `bytes=-n` (the last n bytes, the whole file when n ≥ size).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return undefined;
  const [, a, b] = m;
  if (a === '' && b === '') return undefined;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Number(b);
  if (b !== '' && end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}
