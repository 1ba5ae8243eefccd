import { beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { createSender, type PostResult } from '../../src/webhooks/sender.js';
import { verify } from '../../src/webhooks/signature.js';
import { createMigratedDatabase, type TestDatabase } from '../pg/database.js';

/**
 * The sender over the PostgreSQL outbox (promises where SQLite answers at once), on the run's
 * PostgreSQL: signing, the retry schedule on a clock the test moves, and two senders on two stores
 * of one database (two instances) attempting each delivery once between them.
 */
let database: TestDatabase;
let store: PostgresStore;
let tenantId: number;
beforeEach(async () => {
  database = await createMigratedDatabase();
  store = await openPostgresStore(database.url);
  tenantId = (await store.tenants.create('localhost')).id;
  await store.webhookDestinations.create({ tenant_id: tenantId, url: 'http://127.0.0.1:9/hook', events: null, secret: 'whsec_pg' });
  return async () => {
    await store.close();
    await database.drop();
  };
});

const clockFrom = (t: number) => {
  const clock = { t };
  return { clock, now: () => new Date(clock.t) };
};

describe('the sender on PostgreSQL', () => {
  it('signs each attempt afresh, retries on the schedule with the same id, then marks the delivery failed', async () => {
    await store.webhookOutbox.enqueue(tenantId, 'events.created', { id: 7, calendar_id: 1 });
    const { clock, now } = clockFrom(Date.now() + 1000);
    const sent: { headers: Record<string, string>; body: string }[] = [];
    const answers: PostResult[] = [{ status: 500 }, { error: 'ECONNREFUSED' }, { status: 500 }];
    const post = async (_url: string, headers: Record<string, string>, body: string): Promise<PostResult> => {
      sent.push({ headers, body });
      return answers.shift() ?? { status: 200 };
    };
    const sender = createSender({ store, clock: { now }, signedAt: now, post, retryDelaysMs: [1000, 2000] });
    expect(await sender.drain()).toBe(1);
    expect(verify(sent[0].headers, Buffer.from(sent[0].body), 'whsec_pg', { maxAgeSeconds: 300, now: now() }).ok).toBe(true);
    clock.t += 999;
    expect(await sender.drain()).toBe(0);
    clock.t += 1;
    expect(await sender.drain()).toBe(1);
    clock.t += 2000;
    expect(await sender.drain()).toBe(1);
    expect(await sender.drain()).toBe(0);
    expect(new Set(sent.map((s) => s.headers['x-webhook-id'])).size).toBe(1);
    expect(new Set(sent.map((s) => s.headers['x-webhook-signature'])).size).toBe(3);
    const [d] = await store.webhookOutbox.list({ limit: 1 });
    expect(d).toMatchObject({ status: 'failed', attempt_count: 3 });
    expect(d.attempts.map((a) => a.status_code ?? a.error)).toEqual([500, 'ECONNREFUSED', 500]);
  });

  it('two senders on two stores of one database attempt each delivery once between them', async () => {
    const other = await openPostgresStore(database.url);
    try {
      for (let i = 0; i < 24; i++) await store.webhookOutbox.enqueue(tenantId, 'events.created', { id: i, calendar_id: 1 });
      const { now } = clockFrom(Date.now() + 1000);
      const attempted: number[] = [];
      // Slow answers keep every sender's four attempts in flight while the other claims.
      const post = async (_url: string, _headers: Record<string, string>, body: string): Promise<PostResult> => {
        attempted.push((JSON.parse(body) as { data: { id: number } }).data.id);
        await new Promise((r) => setTimeout(r, 20));
        return { status: 204 };
      };
      const counts = await Promise.all([createSender({ store, clock: { now }, signedAt: now, post }).drain(), createSender({ store: other, clock: { now }, signedAt: now, post }).drain()]);
      expect(counts[0] + counts[1]).toBe(24);
      expect(counts[0]).toBeGreaterThan(0);
      expect(counts[1]).toBeGreaterThan(0);
      expect([...attempted].sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, i) => i));
      const deliveries = await store.webhookOutbox.list({ limit: 100 });
      expect(deliveries.every((d) => d.status === 'delivered' && d.attempts.length === 1)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('polls the database: a delivery queued by another store while it runs is sent', async () => {
    const other = await openPostgresStore(database.url);
    const sent: string[] = [];
    const post = async (_url: string, _headers: Record<string, string>, body: string): Promise<PostResult> => {
      sent.push((JSON.parse(body) as { event: string }).event);
      return { status: 200 };
    };
    const sender = createSender({ store, post, pollMs: 10 });
    try {
      sender.start();
      await other.webhookOutbox.enqueue(tenantId, 'events.deleted', { id: 1, calendar_id: 1 });
      for (let i = 0; i < 400 && sent.length < 1; i++) await new Promise((r) => setTimeout(r, 10));
      expect(sent).toEqual(['events.deleted']);
    } finally {
      await sender.stop();
      await other.close();
    }
  });
});
