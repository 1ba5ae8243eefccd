/** Whether byte `j` exists and lies in `lo..hi` (a continuation byte, by default). */
const within = (b: Buffer, j: number, lo = 0x80, hi = 0xbf) => j < b.length && b[j] >= lo && b[j] <= hi;

/** Length of the well-formed UTF-8 sequence at `i` (Unicode table 3-7), or 0 where the bytes are ill-formed. */
function sequenceAt(b: Buffer, i: number): number {
  const x = b[i];
  if (x < 0x80) return 1;
  if (x >= 0xc2 && x <= 0xdf) return within(b, i + 1) ? 2 : 0;
  if (x >= 0xe0 && x <= 0xef) {
    // E0 excludes overlong forms; ED excludes the surrogates U+D800..U+DFFF.
    const [lo, hi] = x === 0xe0 ? [0xa0, 0xbf] : x === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return within(b, i + 1, lo, hi) && within(b, i + 2) ? 3 : 0;
  }
  if (x >= 0xf0 && x <= 0xf4) {
    const [lo, hi] = x === 0xf0 ? [0x90, 0xbf] : x === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return within(b, i + 1, lo, hi) && within(b, i + 2) && within(b, i + 3) ? 4 : 0;
  }
  return 0;
}

/**
 * Decodes a UTF-8 body, turning each ill-formed byte (such as an encoded surrogate, `ED A0 80`)
 * into a lone surrogate U+DFFF rather than U+FFFD: inside a JSON string, the field's validation
 * then refuses it (`format is invalid`) instead of storing it altered; elsewhere, the JSON is
 * malformed. Well-formed bodies, U+FFFD included, decode as usual.
 */
export function decodeUtf8(raw: Buffer): string {
  const text = raw.toString('utf8');
  // Every ill-formed byte decodes to U+FFFD, so a body without one needs no second look.
  if (!text.includes('\ufffd')) return text;
  let out = '';
  let start = 0;
  for (let i = 0; i < raw.length; ) {
    const n = sequenceAt(raw, i);
    if (n) {
      i += n;
      continue;
    }
    out += `${raw.toString('utf8', start, i)}\udfff`;
    start = ++i;
  }
  return out + raw.toString('utf8', start);
}
