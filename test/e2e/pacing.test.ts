import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

/**
 * Rate-limit pacing through the built bin against `serve --rate-limit 5` (5 requests a second per
 * client): 50 pages of one row each. The client reads `RateLimit-Remaining`/`RateLimit-Reset` and
 * waits for the next window instead of meeting 429. The server's access log (json) is the witness.
 * Without pacing the same run meets 429s (and waits out `Retry-After`). Takes about 10 s by nature.
 */
describe('e2e: pacing by the RateLimit headers', () => {
  const box = new Sandbox();
  let server: Awaited<ReturnType<Sandbox['serve']>>;

  beforeAll(async () => {
    await box.json(['admin', 'init']);
    await box.json(['admin', 'seed', '--users', '50']);
    server = await box.serve(['--rate-limit', '5', '--log', 'json']);
  });
  afterAll(() => box.dispose());

  it('users list --all --page-size 1 over 50 users: 50 requests, no 429, about 5 a second', async () => {
    const started = Date.now();
    const r = await box.run(['users', 'list', '--all', '--with-trashed', '--page-size', '1', '-o', 'ndjson']);
    const seconds = (Date.now() - started) / 1000;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id)).toHaveLength(50);

    const log = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { path: string; status: number })
      .filter((e) => e.path.startsWith('/api/public/v2.0/users?'));
    expect(log).toHaveLength(50);
    expect(log.filter((e) => e.status === 429)).toEqual([]);
    // 50 requests at 5 per one-second window need at least 9 window changes.
    expect(seconds).toBeGreaterThan(8.5);
    expect(seconds).toBeLessThan(20);
  }, 40_000);
});
