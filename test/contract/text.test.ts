import { describe, expect, it } from 'vitest';
import { isWellFormedText } from '../../src/contract/common.js';

describe('isWellFormedText', () => {
  it('refuses NUL and lone surrogates anywhere, high or low', () => {
    for (const bad of ['\0', 'a\0', '\ud800', 'x\ud800', '\ud800x', '\udc00', 'a\udfffb', '\ude00\ud83d']) expect(isWellFormedText(bad)).toBe(false);
  });
  it('accepts ordinary text, other control characters and surrogate pairs', () => {
    for (const good of ['', 'Ada', 'tab\there', 'Loïc', '\u{1F600}', 'a\u{10FFFF}b', '\ufffd']) expect(isWellFormedText(good)).toBe(true);
  });
});
