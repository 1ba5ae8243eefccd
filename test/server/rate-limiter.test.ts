import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/server/rate-limit.js';

/** The limiter alone, on a hand-moved clock (ms since the epoch). */
function limiter(client = 2, tenant = 3) {
  const clock = { ms: 1_000_000_250 };
  return { clock, l: new RateLimiter({ client, tenant }, () => clock.ms) };
}

describe('RateLimiter', () => {
  it('peek reports the window as it stands without counting, allowed, tenant included', () => {
    const { l } = limiter(5, 3);
    l.hit(1, 'a');
    l.hit(1, 'b');
    expect(l.peek(1, 'c')).toEqual({ allowed: true, limit: 3, remaining: 1, reset: 1 });
    expect(l.peek(1, 'a')).toEqual({ allowed: true, limit: 3, remaining: 1, reset: 1 });
    expect(l.peek(2, 'a')).toEqual({ allowed: true, limit: 3, remaining: 3, reset: 1 });
    expect(l.hit(1, 'c')).toMatchObject({ allowed: true, remaining: 0 });
    expect(l.peek(1, 'c')).toEqual({ allowed: true, limit: 3, remaining: 0, reset: 1 });
  });

  it('a request refused by its client limit is not charged to the tenant', () => {
    const { l } = limiter(2, 3);
    expect([1, 2, 3, 4].map(() => l.hit(1, 'noisy').allowed)).toEqual([true, true, false, false]);
    expect(l.hit(1, 'quiet')).toEqual({ allowed: true, limit: 3, remaining: 0, reset: 1 });
    expect(l.hit(1, 'quiet').allowed).toBe(false);
  });

  it('client ids longer than 64 characters share the bucket of their first 64', () => {
    const { l } = limiter(2, 100);
    const base = 'k'.repeat(64);
    expect(l.hit(1, `${base}1`).remaining).toBe(1);
    expect(l.hit(1, `${base}2`).remaining).toBe(0);
    expect(l.hit(1, base).allowed).toBe(false);
    expect(l.hit(1, 'k'.repeat(63)).remaining).toBe(1);
  });

  it('a new one-second window starts every count afresh', () => {
    const { clock, l } = limiter(1, 1);
    expect(l.hit(1, 'a').allowed).toBe(true);
    expect(l.hit(1, 'a').allowed).toBe(false);
    clock.ms += 750;
    expect(l.hit(1, 'a')).toEqual({ allowed: true, limit: 1, remaining: 0, reset: 1 });
  });
});
