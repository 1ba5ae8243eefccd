import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataStore } from '../../src/store/port.js';
import { Sandbox, type ServeProcess } from './harness.js';
import { type Listener, listen } from './webhooks-helpers.js';

/**
 * Webhooks on PostgreSQL end to end: `admin … --database` commands (here through
 * CONFCTL_DATABASE_URL, which the postgres Sandbox exports) queue events in the database, TWO
 * `serve` processes on that database deliver them, and each event arrives once, not once per
 * instance: every delivery is leased to one instance and attempted once. The retry schedule is
 * scaled down through CONFCTL_WEBHOOK_RETRY_DELAYS, so no test waits out the real one.
 */
const SECRET = 'whsec_e2e_postgres';
const box = new Sandbox('postgres');
let listener: Listener;
let port: string;
let store: DataStore;
const servers: { child: ServeProcess; output: () => string }[] = [];

/** `serve` on the sandbox's database with the scaled-down schedule, kept in `servers`; answers once it listens. */
async function serve(): Promise<{ child: ServeProcess; output: () => string }> {
  const server = await box.serve(['--no-profile'], { env: { CONFCTL_WEBHOOK_RETRY_DELAYS: '300,600,1200,2400' } });
  servers.push(server);
  return server;
}

const stopped = (child: ServeProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });

/** What the listener printed and accepted (NDJSON, one object per delivery). */
const received = () =>
  listener
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; event: string; data: { id: number; event_id?: number; email?: string }; status: number });

/** Waits (up to 20 s) until `count()` reaches `n`. */
async function until(n: number, count: () => number, why: () => string): Promise<void> {
  for (let i = 0; i < 200 && count() < n; i++) await new Promise((r) => setTimeout(r, 100));
  expect(count(), why()).toBe(n);
}

/** The delivery ids each instance logged attempting (`webhook delivery ID (…) to URL: …`). */
const attemptedBy = (server: { output: () => string }, url: string) =>
  [...server.output().matchAll(/^webhook delivery (\d+) \(\S+\) to (\S+): /gm)].filter((m) => m[2] === url).map((m) => Number(m[1]));

beforeAll(async () => {
  await box.useDatabase();
  // Two instances on the empty database: the first creates the tenant, the second finds it.
  await serve();
  await serve();
  store = await box.openStore();
  listener = await listen(box, ['--secret', SECRET, '-o', 'ndjson']);
  port = new URL(listener.url).port;
  const added = await box.json(['admin', 'webhooks', 'add', listener.url, '--secret', SECRET]);
  expect(added).toMatchObject({ tenant: 'localhost', url: listener.url });
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => stopped(s.child)));
  await listener?.stop();
  await store?.close();
  await box.dispose();
});

describe('two serve --database instances deliver each webhook event once between them', () => {
  it('delivers what admin webhooks trigger makes, each type once, verified, every delivery attempted once', async () => {
    const made: { event_id: number; webhook_events: string[]; destinations: number }[] = [];
    for (const type of ['events.created', 'events.updated', 'events.rescheduled', 'events.deleted', 'meeting_links.scheduled']) {
      made.push(await box.json(['admin', 'webhooks', 'trigger', type]));
    }
    expect(made.every((m) => m.destinations === 1)).toBe(true);
    // meeting_links.scheduled carries the link's id and the event's as event_id.
    const expected = made.flatMap((m) => m.webhook_events.map((type) => [type, type === 'meeting_links.scheduled' ? undefined : m.event_id, 200]));
    expect(expected).toHaveLength(9);
    await until(9, () => received().length, () => listener.stderr());
    // Leave room for a duplicate to show up, were one sent.
    await new Promise((r) => setTimeout(r, 1500));
    const got = received();
    expect(got).toHaveLength(9);
    const sorted = (rows: unknown[][]) => [...rows].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    expect(sorted(got.map((r) => [r.event, r.event === 'meeting_links.scheduled' ? undefined : r.data.id, r.status]))).toEqual(sorted(expected));
    expect(new Set(got.map((r) => r.id)).size).toBe(9);
    expect(got.find((r) => r.event === 'meeting_links.scheduled')!.data).toMatchObject({ event_id: made[4].event_id, email: expect.stringMatching(/^webhooks-trigger-/) });
    expect(listener.stderr()).not.toContain('Rejected');

    const deliveries = await box.json<{ id: number; status: string; attempts: unknown[]; event_id: string }[]>(['admin', 'webhooks', 'deliveries']);
    expect(deliveries).toHaveLength(9);
    for (const d of deliveries) expect([d.status, d.attempts.length]).toEqual(['delivered', 1]);
    expect(new Set(deliveries.map((d) => d.event_id))).toEqual(new Set(got.map((r) => r.id)));
    // Between them the instances attempted each delivery once.
    const attempts = servers.flatMap((s) => attemptedBy(s, listener.url));
    expect(attempts.sort((x, y) => x - y)).toEqual(deliveries.map((d) => d.id).sort((x, y) => x - y));
  }, 60_000);

  it('under load both instances send, and none sends a delivery the other claimed', async () => {
    // A receiver that answers slowly, so each instance's four attempts in flight are busy and the
    // other instance claims meanwhile; it checks each signature itself (node:crypto).
    const seen: { id: string; ok: boolean }[] = [];
    const slow = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const h: IncomingHttpHeaders = req.headers;
        const id = String(h['x-webhook-id']);
        const body = Buffer.concat(chunks);
        const expected = createHmac('sha256', 'whsec_slow').update(`${id}.${String(h['x-webhook-timestamp'])}.`).update(body).digest('hex');
        seen.push({ id, ok: expected === h['x-webhook-signature'] });
        setTimeout(() => res.writeHead(204).end(), 150);
      });
    });
    await new Promise<void>((done) => slow.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
    try {
      const { id: destination } = await box.json(['admin', 'webhooks', 'add', url, '--secret', 'whsec_slow', '--events', 'events.deleted']);
      const tenant = (await store.tenants.list())[0];
      for (let i = 0; i < 40; i++) await store.webhookOutbox.enqueue(tenant.id, 'events.deleted', { id: 10_000 + i, calendar_id: 1 });
      await until(40, () => seen.length, () => servers.map((s) => s.output()).join('\n'));
      await new Promise((r) => setTimeout(r, 1500));
      expect(seen).toHaveLength(40);
      expect(new Set(seen.map((s) => s.id)).size).toBe(40);
      expect(seen.every((s) => s.ok)).toBe(true);
      const [one, two] = servers.map((s) => attemptedBy(s, url));
      expect(one.length).toBeGreaterThan(0);
      expect(two.length).toBeGreaterThan(0);
      expect(one.length + two.length).toBe(40);
      expect(new Set([...one, ...two]).size).toBe(40);
      const mine = (await store.webhookOutbox.list({ limit: 200 })).filter((d) => d.destination_id === destination);
      expect(mine).toHaveLength(40);
      for (const d of mine) expect([d.status, d.attempts.length]).toEqual(['delivered', 1]);
      await box.json(['admin', 'webhooks', 'remove', destination]);
    } finally {
      await new Promise<void>((done) => slow.close(() => done()));
    }
  }, 60_000);

  it('retries a delivery the listener missed while down, on the schedule, and it arrives once the listener is back', async () => {
    await listener.stop();
    const before = received().length;
    const made = await box.json(['admin', 'webhooks', 'trigger', 'events.created']);
    for (let i = 0; i < 200; i++) {
      const [latest] = await store.webhookOutbox.list({ limit: 1 });
      if (latest?.attempts.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const [missed] = await store.webhookOutbox.list({ limit: 1 });
    expect(missed.attempts[0].status_code).toBeNull();
    const out = listener.stdout();
    listener = await listen(box, ['--secret', SECRET, '-o', 'ndjson', '--port', port]);
    await until(1, () => received().length, () => listener.stderr());
    expect(received()[0]).toMatchObject({ event: 'events.created', data: { id: made.event_id }, status: 200 });
    expect(out.split('\n').filter(Boolean)).toHaveLength(before);
    // The listener prints the event as it answers, before the sender has recorded that answer:
    // wait (up to 20 s) for the record rather than read it in between.
    let settled = (await store.webhookOutbox.get(missed.id))!;
    for (let i = 0; i < 200 && settled.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      settled = (await store.webhookOutbox.get(missed.id))!;
    }
    expect(settled.status).toBe('delivered');
    expect(settled.attempts.map((a) => a.status_code)).toEqual([...settled.attempts.slice(0, -1).map(() => null), 200]);
  }, 60_000);
});
