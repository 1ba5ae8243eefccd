import { describe, expect, it } from 'vitest';
import { newSecret } from '../../src/webhooks/secret.js';

describe('newSecret', () => {
  it('is whsec_ and 64 hex digits (32 random bytes), different every time', () => {
    const a = newSecret();
    expect(a).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(new Set(Array.from({ length: 20 }, newSecret)).size).toBe(20);
  });
});
