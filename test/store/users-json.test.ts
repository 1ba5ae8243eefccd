import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

/** Text that JSON.stringify must escape or may pass through: quotes, backslashes, control characters, U+2028, astral unicode. */
const TRICKY = 'Zoë "Q" \\ back\\slash\t\n\r\b\f\u0000\u001f\u007f\u2028\u2029 €😀 <tag>&\'';

describe('json_quote, which writes users as JSON text in SQL', () => {
  it('escapes every code point exactly as JSON.stringify does', () => {
    const db = new Database(':memory:');
    const quote = db.prepare('SELECT json_quote(?)').pluck();
    const differing: number[] = [];
    for (let c = 0; c < 0x110000; c += c < 0x10000 ? 1 : 0x3f) {
      if (c >= 0xd800 && c < 0xe000) continue; // lone surrogates cannot be stored (UTF-8)
      const text = `a${String.fromCodePoint(c)}b`;
      if (quote.get(text) !== JSON.stringify(text)) differing.push(c);
    }
    expect(differing).toEqual([]);
    expect(quote.get(TRICKY)).toBe(JSON.stringify(TRICKY));
    // Integers as INTEGER columns hold them (better-sqlite3 binds a JS number as a REAL).
    const quoteInt = db.prepare('SELECT json_quote(CAST(? AS INTEGER))').pluck();
    for (const v of [null, 0, 42, Number.MAX_SAFE_INTEGER, -7]) expect(quoteInt.get(v)).toBe(JSON.stringify(v));
    db.close();
  });
});
