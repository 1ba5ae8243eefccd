import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, BIN, type Result, Sandbox } from './harness.js';

/**
 * `serve --clock manual` through the built bin, on both stores: `confctl admin clock` (another
 * process) and `POST /_confctl/clock` move the instance's clock; advancing past a webhook retry
 * time sends the delivery, past a link's expiry makes it 403; the clock never moves backwards;
 * a waiter sees a state dated by the moved clock at once. Nothing waits on wall time for the
 * clock: each step waits for what it expects (a delivery, a line), bounded only as a safeguard.
 */
describe.each(BACKENDS)('e2e: the manual clock (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  let baseUrl: string;
  let token: string;
  let origin: string;
  /** Answers 503 to the first delivery attempt and 204 to every later one; keeps each body. */
  let hook: Server;
  const hits: string[] = [];

  beforeAll(async () => {
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        hits.push(body);
        res.writeHead(hits.length === 1 ? 503 : 204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
    const served = await box.serve(['--demo', '--rate-limit', 'off', '--clock', 'manual', '--test-controls']);
    baseUrl = served.baseUrl;
    origin = new URL(baseUrl).origin;
    token = /X-Confctl-Control-Token: (\S+)/.exec(served.output())![1];
    expect(served.output()).toMatch(/Clock: manual, standing at \d{4}-\d\d-\d\dT/);
  });
  afterAll(async () => {
    await box.dispose();
    await new Promise((r) => hook.close(r));
  });

  const clock = async () => Date.parse((await box.json<{ clock: string }>(['admin', 'clock', 'show'])).clock);
  const control = (method: string, body?: unknown) =>
    fetch(`${origin}/_confctl/clock`, { method, headers: { 'X-Confctl-Control-Token': token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  /** Polls `ready` (every 50 ms, at most 20 s as a safeguard). */
  async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
    for (let i = 0; i < 400 && !(await ready()); i++) await new Promise((r) => setTimeout(r, 50));
  }

  it('sends a webhook retry once the clock is advanced past its time', async () => {
    await box.json(['admin', 'webhooks', 'add', `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`, '--secret', 'whsec_clock']);
    const at = await clock();
    await box.json(['admin', 'webhooks', 'trigger', 'events.created']);
    const deliveries = () => box.json<any[]>(['admin', 'webhooks', 'deliveries']);
    // The first attempt fails (503): the retry is due 10 s later on the instance's clock (decisions §13).
    await until(async () => (await deliveries())[0]?.attempts.length === 1);
    const [retrying] = await deliveries();
    expect(hits).toHaveLength(1);
    expect(retrying).toMatchObject({ status: 'pending', created_at: new Date(at).toISOString(), next_attempt_at: new Date(at + 10_000).toISOString() });
    expect(retrying.attempts).toEqual([{ at: new Date(at).toISOString(), status_code: 503, error: null }]);

    expect((await box.json(['admin', 'clock', 'advance', '10s'])).clock).toBe(new Date(at + 10_000).toISOString());
    await until(async () => (await deliveries())[0].status === 'delivered');
    const [delivered] = await deliveries();
    expect(delivered).toMatchObject({ id: retrying.id, status: 'delivered' });
    expect(delivered.attempts.map((a: { at: string; status_code: number }) => [a.at, a.status_code])).toEqual([
      [new Date(at).toISOString(), 503],
      [new Date(at + 10_000).toISOString(), 204],
    ]);
    expect(hits).toHaveLength(2);
    expect(hits[1]).toBe(hits[0]);
  });

  it('makes a recording link answer 403 once the clock passes its expiry', async () => {
    const link = await box.json<{ url: string; expires_at: string }>(['recordings', 'url', '4', '1', '--expiry', '60']);
    const left = Date.parse(link.expires_at) - (await clock());
    expect(left).toBeGreaterThanOrEqual(60_000);
    expect(left).toBeLessThan(61_000);
    expect((await fetch(link.url)).status).toBe(200);
    await box.json(['admin', 'clock', 'advance', '59s']);
    expect((await fetch(link.url)).status).toBe(200);
    const moved = await control('POST', { advance: '2s' });
    expect(moved.status).toBe(200);
    const res = await fetch(link.url);
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('Invalid signature.');
  });

  it('never moves backwards: admin clock set earlier is exit 2 and the control route 400, nothing changed', async () => {
    const at = await clock();
    const earlier = new Date(at - 1).toISOString();
    const refused = await box.run(['admin', 'clock', 'set', earlier]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`the clock never moves backwards: it stands at ${new Date(at).toISOString()}, and ${earlier} is earlier`);
    const res = await control('POST', { set: earlier });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: expect.stringContaining('the clock never moves backwards'), errors: { set: [expect.stringContaining(earlier)] } });
    expect((await control('POST', { advance: 'soon' })).status).toBe(400);
    expect(await clock()).toBe(at);
    const shown = await control('GET');
    expect(await shown.json()).toEqual({ message: 'Success.', data: { clock: new Date(at).toISOString() } });
    const later = new Date(at + 86_400_000).toISOString();
    expect(await (await control('POST', { set: later })).json()).toEqual({ message: 'Success.', data: { clock: later, moved_from: new Date(at).toISOString() } });
  });

  it('lets a waiter see at once what happens after an advance, dated by the moved clock', async () => {
    const [account] = await box.json<any[]>(['users', 'accounts', '1']);
    const conference = await box.json(['conferences', 'create', '--account', String(account.id), '--public-id', `clock-${backend}`, '--title', 'Clocked', '--private']);
    const child = spawn(process.execPath, [BIN, 'wait', 'conference', String(conference.id), '--for', 'started', '--interval', '100ms', '--max-wait', '2m', '-o', 'ndjson'], { env: box.env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const done = new Promise<Result>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr: '' })));
    await until(() => stdout.includes('\n'));
    const { clock: advanced } = await box.json<{ clock: string }>(['admin', 'clock', 'advance', '2h']);
    await box.json(['admin', 'conferences', 'start', String(conference.id)]);
    const r = await done;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ met: true, resource: { id: conference.id, started_at: advanced } });
    // Once met, a wait returns on its first check.
    const again = await box.run(['wait', 'conference', String(conference.id), '--for', 'started', '-o', 'ndjson']);
    expect(again.code).toBe(0);
    expect(again.stdout.trim().split('\n')).toHaveLength(1);
  });
});
