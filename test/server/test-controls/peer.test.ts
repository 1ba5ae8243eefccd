import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../../src/server/test-controls/peer.js';
import { newControlToken, tokenMatches, TOKEN_SHAPE } from '../../../src/server/test-controls/token.js';

describe('isLoopback', () => {
  it('accepts 127.0.0.0/8 and ::1, also IPv4-mapped', () => {
    for (const a of ['127.0.0.1', '127.255.255.254', '127.0.0.0', '::1', '::ffff:127.0.0.1', '::FFFF:127.1.2.3', '0:0:0:0:0:0:0:1']) expect([a, isLoopback(a)]).toEqual([a, true]);
  });

  it('refuses every other address, and none', () => {
    for (const a of ['10.0.0.1', '192.0.2.2', '128.0.0.1', '1.127.0.0', '::', '::2', '::ffff:10.0.0.1', '::ffff:127.0.0', 'fe80::1', '127.0.0.1.example', 'localhost', '', undefined]) {
      expect([a, isLoopback(a)]).toEqual([a, false]);
    }
  });
});

describe('control tokens', () => {
  it('match only the same text', () => {
    const t = newControlToken();
    expect(TOKEN_SHAPE.test(t)).toBe(true);
    expect(tokenMatches(t, t)).toBe(true);
    for (const other of [undefined, '', t.slice(0, -1), `${t}x`, t.toUpperCase() === t ? t.toLowerCase() : t.toUpperCase()]) expect(tokenMatches(t, other)).toBe(false);
    expect(newControlToken()).not.toBe(t);
  });
});
