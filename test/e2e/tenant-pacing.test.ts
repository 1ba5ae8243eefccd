import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { Sandbox } from './harness.js';

/**
 * `plan` and `apply` against `serve --demo --rate-limit 5` (5 requests a second per client): a
 * plan of the whole demo tenant reads more pages than one second allows, one that renames every
 * demo customer is more writes than that, and `apply` sends them 4 at a time. Both finish with exit 0 and no rate-limit error reaches the user; the
 * server's access log (json) is the witness of what the client sent. On SQLite only: the
 * server's rate limiter counts in memory whatever the store, so the store changes nothing here.
 */
describe('e2e: tenant as code paced by the RateLimit headers (serve --demo --rate-limit 5)', () => {
  const box = new Sandbox();
  const dir = join(box.root, 'tenant');
  let server: Awaited<ReturnType<Sandbox['serve']>>;

  beforeAll(async () => {
    await box.json(['admin', 'init']);
    server = await box.serve(['--demo', '--rate-limit', '5', '--log', 'json']);
  }, 60_000);
  afterAll(() => box.dispose());

  /** The access log's entries so far: status and method of every API request. */
  const accessLog = () => server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { time: string; duration_ms: number; method: string; path: string; status: number })
    .filter((e) => e.path.startsWith('/api/public/v2.0/'));

  /**
   * Waits for the server's next one-second window (aligned to the clock it shares with this test).
   * Each command paces only its own requests: one started in the second the last ended in may meet
   * a 429 on its first request, as a command typed right after another would, and retry it.
   */
  const nextWindow = () => new Promise((done) => setTimeout(done, 1000 - (Date.now() % 1000) + 20));

  it('plan (more reads) and apply (more writes) than the limit allows a second: exit 0, no 429 met, every change applied', async () => {
    expect((await box.run(['export', dir])).code).toBe(0);
    const file = join(dir, 'customers.yaml');
    const customers = parse(readFileSync(file, 'utf8')) as Array<{ last_name: string }>;
    expect(customers.length).toBeGreaterThan(10);
    for (const c of customers) c.last_name = `${c.last_name}-paced`;
    writeFileSync(file, stringify(customers));

    const planFile = join(box.root, 'plan.json');
    const before = accessLog().length;
    await nextWindow();
    const planned = await box.run(['plan', '-f', dir, '--out', planFile, '--detailed-exitcode']);
    expect(planned.stderr).not.toMatch(/429|rate.?limit|too many/i);
    expect(planned.code).toBe(2);
    expect(JSON.parse(readFileSync(planFile, 'utf8')).changes).toHaveLength(customers.length);
    expect(accessLog().length - before).toBeGreaterThan(5);

    await nextWindow();
    const applied = await box.run(['apply', planFile]);
    expect(applied.stderr).not.toMatch(/429|rate.?limit|too many/i);
    expect(applied.stderr).toContain(`applied ${customers.length}, failed 0, skipped 0`);
    expect(applied.code).toBe(0);
    // What export, plan and apply sent; the check below is a command of its own.
    const sent = accessLog();

    const stored = await box.json<Array<{ last_name: string }>>(['customers', 'list', '--all']);
    expect(stored.filter((c) => c.last_name.endsWith('-paced'))).toHaveLength(customers.length);
    const writes = sent.filter((e) => e.method === 'PUT' || e.method === 'PATCH');
    expect(writes.filter((e) => e.status < 300)).toHaveLength(customers.length);
    expect(sent.filter((e) => e.status === 429)).toEqual([]);
    // Paced, not lucky: no one-second window of the server's log (a request's window is when it
    // arrived, its logged end less its duration) got more than 5, so the requests spread out.
    const perSecond = new Map<number, number>();
    for (const e of sent) {
      const second = Math.floor((Date.parse(e.time) - e.duration_ms) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(5);
    expect(perSecond.size).toBeGreaterThanOrEqual(Math.ceil(customers.length / 5));
  }, 60_000);
});
