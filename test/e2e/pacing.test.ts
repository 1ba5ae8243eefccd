import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * Rate-limit pacing through the built bin against `serve --rate-limit 5` (5 requests a second per
 * client): 50 pages of one row each. The client reads `RateLimit-Remaining`/`RateLimit-Reset` and
 * waits for the next window instead of meeting 429. The server's access log (json) is the witness.
 * Without pacing the same run meets 429s (and waits out `Retry-After`). Takes about 10 s by nature,
 * mostly waiting, so the two stores run at the same time (each `serve` has its own limiter).
 */
describe.concurrent.each(BACKENDS)('e2e: pacing by the RateLimit headers (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  let server: Awaited<ReturnType<Sandbox['serve']>>;

  beforeAll(async () => {
    await box.json(['admin', 'init']);
    await box.json(['admin', 'seed', '--users', '50']);
    server = await box.serve(['--rate-limit', '5', '--log', 'json']);
  });
  afterAll(() => box.dispose());

  it('users list --all --page-size 1 over 50 users: 50 requests, no 429, about 5 a second', async () => {
    const r = await box.run(['users', 'list', '--all', '--with-trashed', '--page-size', '1', '-o', 'ndjson']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id)).toHaveLength(50);

    const log = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { time: string; duration_ms: number; path: string; status: number })
      .filter((e) => e.path.startsWith('/api/public/v2.0/users?'));
    expect(log).toHaveLength(50);
    expect(log.filter((e) => e.status === 429)).toEqual([]);
    // From the server's own log, not the test's stopwatch (a busy machine only spreads requests
    // out): no one-second window got more than 5, so the 50 requests spread over at least 10. A
    // request's window is when it arrived: its logged end less its duration.
    const perSecond = new Map<number, number>();
    for (const e of log) {
      const second = Math.floor((Date.parse(e.time) - e.duration_ms) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(5);
    expect(perSecond.size).toBeGreaterThanOrEqual(10);
  }, 40_000);
});
