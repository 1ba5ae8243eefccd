import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPacer, type Pacer } from '../../src/client/pacing.js';
import { RateLimiter } from '../../src/server/rate-limit.js';

/**
 * The pacer against the server's own rate limiter, on a fake clock: requests take `latency` ms
 * of fake time, the limiter answers with the real `RateLimit-*` values, and the test counts 429s.
 */
function world(limits = { client: 5, tenant: 100 }, latency = 10) {
  const limiter = new RateLimiter(limits, Date.now);
  const log: { at: number; allowed: boolean }[] = [];
  const pacer = createPacer({ sleep: (ms) => new Promise((r) => setTimeout(r, ms)), now: Date.now });
  async function request(p: Pacer = pacer, client = 'ak_1') {
    await p.beforeRequest();
    await new Promise((r) => setTimeout(r, latency / 2));
    const d = limiter.hit(1, client);
    log.push({ at: Date.now(), allowed: d.allowed });
    await new Promise((r) => setTimeout(r, latency / 2));
    p.observe({ 'ratelimit-limit': String(d.limit), 'ratelimit-remaining': String(d.remaining), 'ratelimit-reset': String(d.reset) });
  }
  return { limiter, log, pacer, request, refused: () => log.filter((e) => !e.allowed).length };
}

async function settle<T>(work: Promise<T>): Promise<T> {
  await vi.runAllTimersAsync();
  return work;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-31T09:30:00.300Z'));
});
afterEach(() => vi.useRealTimers());

describe('pacer', () => {
  it('sequential requests never hit 429 and run at about the limit per second', async () => {
    const w = world();
    const started = Date.now();
    await settle((async () => {
      for (let i = 0; i < 23; i++) await w.request();
    })());
    expect(w.log).toHaveLength(23);
    expect(w.refused()).toBe(0);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(4000);
    expect(elapsed).toBeLessThan(6500);
  });

  it('without pacing the same run is refused (the check can fail)', async () => {
    const w = world();
    const none: Pacer = { beforeRequest: async () => {}, observe: () => {} };
    await settle((async () => {
      for (let i = 0; i < 23; i++) await w.request(none);
    })());
    expect(w.refused()).toBeGreaterThan(0);
  });

  it('concurrent requests share the budget: 40 at once, none refused, at most 5 per window', async () => {
    const w = world();
    await settle(Promise.all(Array.from({ length: 40 }, () => w.request())));
    expect(w.refused()).toBe(0);
    const perWindow = new Map<number, number>();
    for (const e of w.log) perWindow.set(Math.floor(e.at / 1000), (perWindow.get(Math.floor(e.at / 1000)) ?? 0) + 1);
    expect(Math.max(...perWindow.values())).toBe(5);
    expect(perWindow.size).toBeLessThanOrEqual(10);
  });

  it('before the first answer only one request is in flight', async () => {
    const p = createPacer({ sleep: async () => {} });
    await p.beforeRequest();
    let second = false;
    const next = p.beforeRequest().then(() => (second = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(second).toBe(false);
    p.observe({});
    await next;
    expect(second).toBe(true);
  });

  it('answers without RateLimit headers switch pacing off', async () => {
    const sleeps: number[] = [];
    const p = createPacer({ sleep: async (ms) => void sleeps.push(ms) });
    await p.beforeRequest();
    p.observe({ 'content-type': 'application/json' });
    await Promise.all(Array.from({ length: 100 }, () => p.beforeRequest()));
    expect(sleeps).toEqual([]);
  });

  it('a budget used by others (remaining below the limit) waits for the reset', async () => {
    let t = 1_000;
    const sleeps: number[] = [];
    const p = createPacer({ now: () => t, sleep: async (ms) => void (sleeps.push(ms), (t += ms)) });
    await p.beforeRequest();
    p.observe({ 'ratelimit-limit': '10', 'ratelimit-remaining': '1', 'ratelimit-reset': '1' });
    await p.beforeRequest();
    expect(sleeps).toEqual([]);
    p.observe({ 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' });
    t += 200;
    await p.beforeRequest();
    expect(sleeps).toEqual([800]);
  });

  it('remaining counts the requests still in flight', async () => {
    let t = 0;
    const sleeps: number[] = [];
    const p = createPacer({ now: () => t, sleep: async (ms) => void (sleeps.push(ms), (t += ms)) });
    await p.beforeRequest();
    p.observe({ 'ratelimit-limit': '5', 'ratelimit-remaining': '3', 'ratelimit-reset': '1' });
    await p.beforeRequest();
    await p.beforeRequest();
    await p.beforeRequest();
    expect(sleeps).toEqual([]);
    // Two still in flight when this answer says 2 remain: nothing left for a fourth.
    p.observe({ 'ratelimit-limit': '5', 'ratelimit-remaining': '2', 'ratelimit-reset': '1' });
    await p.beforeRequest();
    expect(sleeps).toEqual([1000]);
  });

  it('an abort ends a wait with the abort reason', async () => {
    const t = 0;
    const p = createPacer({ now: () => t, sleep: () => new Promise(() => {}) });
    await p.beforeRequest();
    p.observe({ 'ratelimit-limit': '5', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' });
    const ac = new AbortController();
    const waiting = p.beforeRequest(ac.signal);
    ac.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});
