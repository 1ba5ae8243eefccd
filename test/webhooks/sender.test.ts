import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeOf, parseDelays } from '../../src/webhooks/schedule.js';
import { createSender, type PostResult } from '../../src/webhooks/sender.js';
import { verify } from '../../src/webhooks/signature.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';

let store: SqliteStore;
afterEach(() => store?.close());

/** A store with one tenant, one destination and one queued event; a clock the test moves. */
function setup() {
  store = openStore(':memory:');
  const tenant = store.tenants.create('localhost');
  const dest = store.webhookDestinations.create({ tenant_id: tenant.id, url: 'http://127.0.0.1:9/hook', events: null, secret: 'whsec_test' });
  store.webhookOutbox.enqueue(tenant.id, 'events.created', { id: 7, calendar_id: 1 });
  const clock = { t: Date.now() + 1000 };
  const now = () => new Date(clock.t);
  return { tenant, dest, clock, now };
}

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

function recorder(answers: PostResult[]) {
  const sent: Sent[] = [];
  const post = async (url: string, headers: Record<string, string>, body: string): Promise<PostResult> => {
    sent.push({ url, headers, body });
    return answers.shift() ?? { status: 200 };
  };
  return { sent, post };
}

describe('the retry schedule', () => {
  it('retries after 10 s, 30 s, 2 min and 10 min, then fails; any 2xx delivers', () => {
    const t = new Date('2026-01-01T00:00:00.000Z');
    expect([0, 1, 2, 3].map((n) => outcomeOf(false, n, t))).toEqual([
      { retryAt: '2026-01-01T00:00:10.000Z' },
      { retryAt: '2026-01-01T00:00:30.000Z' },
      { retryAt: '2026-01-01T00:02:00.000Z' },
      { retryAt: '2026-01-01T00:10:00.000Z' },
    ]);
    expect(outcomeOf(false, 4, t)).toEqual({ status: 'failed' });
    expect(outcomeOf(true, 4, t)).toEqual({ status: 'delivered' });
    expect(parseDelays('100, 200')).toEqual([100, 200]);
    expect(parseDelays('1s')).toBeUndefined();
  });
});

describe('the sender', () => {
  it('POSTs the body with headers signed for the attempt, and records it delivered', async () => {
    const { now, dest } = setup();
    const { sent, post } = recorder([{ status: 204 }]);
    expect(await createSender({ store, clock: { now }, signedAt: now, post }).drain()).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe(dest.url);
    expect(JSON.parse(sent[0].body)).toEqual({ event: 'events.created', data: { id: 7, calendar_id: 1 } });
    const verdict = verify(sent[0].headers, Buffer.from(sent[0].body), 'whsec_test', { maxAgeSeconds: 300, now: now() });
    expect(verdict.ok).toBe(true);
    expect(sent[0].headers['x-webhook-timestamp']).toBe(now().toISOString());
    const [d] = store.webhookOutbox.list({ limit: 10 });
    expect(d).toMatchObject({ status: 'delivered', attempt_count: 1, finished_at: now().toISOString() });
    expect(d.attempts).toEqual([{ at: now().toISOString(), status_code: 204, error: null }]);
    expect(await createSender({ store, clock: { now }, signedAt: now, post }).drain()).toBe(0);
  });

  it('retries on the schedule with the same id and a fresh signature, then marks the delivery failed', async () => {
    const { now, clock } = setup();
    const failures: PostResult[] = [{ status: 500 }, { error: 'ECONNREFUSED: connect ECONNREFUSED' }, { status: 302 }, { status: 404 }, { error: 'no answer within 10 s' }];
    const { sent, post } = recorder(failures);
    const sender = createSender({ store, clock: { now }, signedAt: now, post, retryDelaysMs: [1000, 2000, 3000, 4000] });
    expect(await sender.drain()).toBe(1);
    expect(await sender.drain()).toBe(0);
    for (const wait of [1000, 2000, 3000, 4000]) {
      clock.t += wait - 1;
      expect(await sender.drain()).toBe(0);
      clock.t += 1;
      expect(await sender.drain()).toBe(1);
    }
    expect(new Set(sent.map((s) => s.headers['x-webhook-id'])).size).toBe(1);
    expect(new Set(sent.map((s) => s.headers['x-webhook-signature'])).size).toBe(5);
    const [d] = store.webhookOutbox.list({ limit: 10, failed: true });
    expect(d.status).toBe('failed');
    expect(d.attempts.map((a) => a.status_code ?? a.error)).toEqual([500, 'ECONNREFUSED: connect ECONNREFUSED', 302, 404, 'no answer within 10 s']);
    clock.t += 3_600_000;
    expect(await sender.drain()).toBe(0);

    expect(store.webhookOutbox.redeliver(d.id)).toBe(true);
    expect(await sender.drain()).toBe(1);
    const again = store.webhookOutbox.get(d.id)!;
    expect(again).toMatchObject({ status: 'delivered', attempt_count: 1, event_id: d.event_id });
    expect(again.attempts).toHaveLength(6);
  });

  it('claims a delivery with a lease: a second claimer gets nothing until the lease runs out', () => {
    const { now } = setup();
    const t = now().toISOString();
    const later = new Date(now().getTime() + 40_000).toISOString();
    const first = store.webhookOutbox.claim(t, later);
    expect(first?.secret).toBe('whsec_test');
    expect(store.webhookOutbox.claim(t, later)).toBeUndefined();
    expect(store.webhookOutbox.claim(later, later)?.id).toBe(first?.id);
  });

  it('logs an attempt it could not record and tries it again once its lease runs out', async () => {
    const { now, clock } = setup();
    const lines: string[] = [];
    const { sent, post } = recorder([]);
    const settle = store.webhookOutbox.settle;
    store.webhookOutbox.settle = () => {
      throw new Error('database is locked');
    };
    const sender = createSender({ store, clock: { now }, signedAt: now, post, log: (l) => lines.push(l) });
    expect(await sender.drain()).toBe(1);
    store.webhookOutbox.settle = settle;
    expect(lines[0]).toMatch(/^webhook delivery 1 \(.*\) to http:\/\/127\.0\.0\.1:9\/hook: 200; not recorded \(database is locked\), tried again once its lease runs out$/);
    expect(await sender.drain()).toBe(0);
    clock.t += 40_000;
    expect(await sender.drain()).toBe(1);
    expect(sent).toHaveLength(2);
    expect(store.webhookOutbox.list({ limit: 1 })[0]).toMatchObject({ status: 'delivered', attempt_count: 1 });
  });

  it('sends nothing to a removed destination: its pending deliveries are canceled', async () => {
    const { now, dest } = setup();
    store.webhookDestinations.remove(dest.id);
    const { sent, post } = recorder([]);
    expect(await createSender({ store, clock: { now }, signedAt: now, post }).drain()).toBe(0);
    expect(sent).toEqual([]);
    expect(store.webhookOutbox.list({ limit: 10 })[0].status).toBe('canceled');
  });
});

describe('claiming across connections', () => {
  it('gives a delivery to one of two stores on the same database file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confctl-claim-'));
    try {
      store = openStore(join(dir, 'db.sqlite'));
      const other = openStore(join(dir, 'db.sqlite'));
      const tenant = store.tenants.create('localhost');
      store.webhookDestinations.create({ tenant_id: tenant.id, url: 'https://a.example/', events: null, secret: 's' });
      store.webhookOutbox.enqueue(tenant.id, 'events.created', { id: 1, calendar_id: 1 });
      const t = new Date(Date.now() + 1000).toISOString();
      const until = new Date(Date.now() + 60_000).toISOString();
      const claims = [other.webhookOutbox.claim(t, until), store.webhookOutbox.claim(t, until)];
      expect(claims.filter(Boolean)).toHaveLength(1);
      other.close();
    } finally {
      store.close();
      store = undefined as unknown as SqliteStore;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('pruning', () => {
  it('deletes deliveries finished more than 30 days ago, keeps pending and recent ones', async () => {
    const { now, clock, tenant } = setup();
    const { post } = recorder([]);
    const sender = createSender({ store, clock: { now }, signedAt: now, post });
    await sender.drain();
    store.webhookOutbox.enqueue(tenant.id, 'events.deleted', { id: 7, calendar_id: 1 });
    clock.t += 31 * 24 * 3600 * 1000;
    expect(store.webhookOutbox.prune(new Date(clock.t - 30 * 24 * 3600 * 1000).toISOString())).toBe(1);
    expect(store.webhookOutbox.list({ limit: 10 }).map((d) => d.status)).toEqual(['pending']);
  });
});

describe('the polling loop', () => {
  it('delivers what is queued while it runs, and logs a failed prune (other than a busy database) instead of stopping', async () => {
    const { now } = setup();
    const lines: string[] = [];
    const { sent, post } = recorder([]);
    const prune = store.webhookOutbox.prune;
    store.webhookOutbox.prune = () => {
      throw new Error('disk I/O error');
    };
    const sender = createSender({ store, clock: { now }, signedAt: now, post, pollMs: 5, log: (l) => lines.push(l) });
    sender.start();
    for (let i = 0; i < 400 && sent.length < 1; i++) await new Promise((r) => setTimeout(r, 5));
    store.webhookOutbox.enqueue(1, 'events.deleted', { id: 7, calendar_id: 1 });
    for (let i = 0; i < 400 && sent.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    await sender.stop();
    store.webhookOutbox.prune = prune;
    expect(sent.map((s) => (JSON.parse(s.body) as { event: string }).event)).toEqual(['events.created', 'events.deleted']);
    expect(lines[0]).toBe('webhook sender: pruning failed: disk I/O error');
    expect(lines.some((l) => l.includes('whsec_'))).toBe(false);
  });
});

describe('a move of the manual clock', () => {
  it('sends a retry it makes due when the sender is woken, without waiting for the next poll', async () => {
    const { now, clock } = setup();
    const { sent, post } = recorder([{ status: 503 }]);
    // A poll an hour away: only a wake can make the second attempt happen within the test.
    const sender = createSender({ store, clock: { now }, signedAt: now, post, retryDelaysMs: [1000], pollMs: 3_600_000 });
    sender.start();
    for (let i = 0; i < 400 && store.webhookOutbox.list({ limit: 1 })[0].attempts.length < 1; i++) await new Promise((r) => setTimeout(r, 5));
    expect(store.webhookOutbox.list({ limit: 1 })[0]).toMatchObject({ status: 'pending', next_attempt_at: new Date(clock.t + 1000).toISOString() });
    clock.t += 1000;
    sender.wake();
    sender.wake();
    for (let i = 0; i < 400 && store.webhookOutbox.list({ limit: 1 })[0].status !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 5));
    await sender.stop();
    expect(sent).toHaveLength(2);
    expect(store.webhookOutbox.list({ limit: 1 })[0]).toMatchObject({ status: 'delivered', finished_at: new Date(clock.t).toISOString() });
  });
});
