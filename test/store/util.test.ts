import { describe, expect, it } from 'vitest';
import { randomBase62, sha256Hex } from '../../src/store/util.js';
import { Prng } from '../../src/admin/seed/prng.js';

describe('store utilities', () => {
  it('randomBase62 gives the requested length from the 62-character alphabet, roughly uniformly', () => {
    const text = Array.from({ length: 200 }, () => randomBase62(50)).join('');
    expect(text).toMatch(/^[0-9A-Za-z]{10000}$/);
    const counts = new Map<string, number>();
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected ~161 each; a modulo-biased generator over bytes would favour the first 8 symbols by ~25%.
    for (const n of counts.values()) expect(n).toBeGreaterThan(90);
    expect(randomBase62(48)).not.toBe(randomBase62(48));
  });

  it('sha256Hex is the hex digest', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('Prng is deterministic per seed', () => {
    const a = new Prng(42);
    const b = new Prng(42);
    const xs = Array.from({ length: 5 }, () => a.int(1, 100));
    expect(Array.from({ length: 5 }, () => b.int(1, 100))).toEqual(xs);
    expect(new Prng(43).int(1, 1_000_000)).not.toBe(new Prng(42).int(1, 1_000_000));
  });
});
