import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/server/utf8.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('decodeUtf8', () => {
  it('decodes well-formed UTF-8 as is, U+FFFD and four-byte characters included', () => {
    for (const text of ['', 'plain', 'Loïc ✓ \u{1F600} \ufffd', '\u{10FFFF}\u0800\u07ff']) expect(decodeUtf8(Buffer.from(text, 'utf8'))).toBe(text);
  });

  it('turns each ill-formed byte into a lone surrogate, keeping the text around it', () => {
    expect(decodeUtf8(bytes('a', [0xed, 0xa0, 0x80], 'b'))).toBe('a\udfff\udfff\udfffb'); // an encoded surrogate
    expect(decodeUtf8(bytes('x', [0xff], 'y', [0xc0, 0xaf]))).toBe('x\udfffy\udfff\udfff'); // never valid; overlong
    expect(decodeUtf8(bytes([0xe2, 0x82], '\ufffd'))).toBe('\udfff\udfff\ufffd'); // truncated, then a real U+FFFD
    expect(decodeUtf8(bytes([0xf4, 0x90, 0x80, 0x80]))).toBe('\udfff'.repeat(4)); // beyond U+10FFFF
  });
});
