import { describe, expect, it } from 'vitest';
import type { DataStore } from '../../../src/store/port.js';
import type { ClaimedDelivery } from '../../../src/store/types.js';
import { eachStore, type StoreFactory } from './fixtures.js';

/** Times after anything the store stamps now (`nowIso`), so every queued delivery is due. */
const T = '2999-01-01T00:00:00.000Z';
const plus = (ms: number) => new Date(Date.parse(T) + ms).toISOString();

/**
 * Webhook destinations, the outbox and meeting links (decisions §13): what `admin webhooks` and
 * the sender of `serve` read and write, the same on every store. The lease is checked across two
 * stores on one database (two processes, two instances): no delivery is claimed twice.
 */
export function webhookContract(factory: StoreFactory) {
  describe(`${factory.name}: webhook destinations and outbox`, () => {
    let store: DataStore;
    let a: number;
    let b: number;
    eachStore(factory, async (s) => {
      store = s;
      a = (await store.tenants.create('a.example')).id;
      b = (await store.tenants.create('b.example')).id;
    });

    const destination = (tenant_id: number, url: string, events: string[] | null = null, secret = 'whsec_s') => store.webhookDestinations.create({ tenant_id, url, events, secret });
    /** Destinations made one after another, a millisecond apart at least, so oldest-first is one order on every store. */
    async function destinations(...specs: [number, string, (string[] | null)?][]) {
      const made = [];
      for (const [tenant, url, events] of specs) {
        made.push(await destination(tenant, url, events ?? null));
        await new Promise((r) => setTimeout(r, 2));
      }
      return made;
    }

    it('keeps destinations per tenant, oldest first, and never lists removed ones', async () => {
      const [one, two, other] = await destinations([a, 'https://one.example/'], [a, 'https://two.example/', ['events.deleted']], [b, 'https://b.example/']);
      expect(one.id).toMatch(/^wh_[0-9A-Za-z]{24}$/);
      expect(one).toMatchObject({ tenant_id: a, url: 'https://one.example/', events: null, secret: 'whsec_s', secret_rotated_at: null });
      expect(two.events).toEqual(['events.deleted']);
      expect(await store.webhookDestinations.get(one.id)).toEqual(one);
      expect((await store.webhookDestinations.list()).map((d) => d.id)).toEqual([one.id, two.id, other.id]);
      expect((await store.webhookDestinations.list(a)).map((d) => d.id)).toEqual([one.id, two.id]);
      expect(await store.webhookDestinations.rotateSecret(one.id, 'whsec_new')).toBe(true);
      expect(await store.webhookDestinations.get(one.id)).toMatchObject({ secret: 'whsec_new', secret_rotated_at: expect.stringMatching(/Z$/) });
      expect(await store.webhookDestinations.rotateSecret('wh_nope', 'x')).toBe(false);
      expect(await store.webhookDestinations.remove(two.id)).toBe(true);
      expect(await store.webhookDestinations.remove(two.id)).toBe(false);
      expect(await store.webhookDestinations.rotateSecret(two.id, 'x')).toBe(false);
      expect(await store.webhookDestinations.get(two.id)).toBeUndefined();
      expect((await store.webhookDestinations.list(a)).map((d) => d.id)).toEqual([one.id]);
    });

    it("queues one delivery per destination of the tenant that wants the type, sharing the event's id and body", async () => {
      const [all, deletes] = await destinations([a, 'https://all.example/'], [a, 'https://deletes.example/', ['events.deleted']], [b, 'https://b.example/']);
      expect(await store.webhookOutbox.enqueue(a, 'events.created', { id: 1, calendar_id: 2 })).toBe(1);
      expect(await store.webhookOutbox.enqueue(a, 'events.deleted', { id: 1, calendar_id: 2 })).toBe(2);
      expect(await store.webhookOutbox.enqueue(b + 100, 'events.deleted', { id: 1, calendar_id: 2 })).toBe(0);
      const listed = (await store.webhookOutbox.list({ limit: 10 })).reverse();
      expect(listed.map((d) => [d.tenant_id, d.destination_id, d.url, d.type, d.body, d.status, d.attempt_count, d.finished_at, d.attempts])).toEqual([
        [a, all.id, all.url, 'events.created', '{"event":"events.created","data":{"id":1,"calendar_id":2}}', 'pending', 0, null, []],
        [a, all.id, all.url, 'events.deleted', '{"event":"events.deleted","data":{"id":1,"calendar_id":2}}', 'pending', 0, null, []],
        [a, deletes.id, deletes.url, 'events.deleted', '{"event":"events.deleted","data":{"id":1,"calendar_id":2}}', 'pending', 0, null, []],
      ]);
      expect(listed[1].event_id).toBe(listed[2].event_id);
      expect(listed[0].event_id).not.toBe(listed[1].event_id);
      expect(listed[0].event_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(listed[0].next_attempt_at).toBe(listed[0].created_at);
      expect(listed[0].id).toBeLessThan(listed[1].id);
      expect(await store.webhookOutbox.get(listed[0].id)).toEqual(listed[0]);
      expect(await store.webhookOutbox.get(999_999)).toBeUndefined();
    });

    it('leases the oldest due delivery to one claimer until the lease runs out; settling records the attempt', async () => {
      await destination(a, 'https://a.example/hook', null, 'whsec_a');
      await store.webhookOutbox.enqueue(a, 'events.created', { id: 1, calendar_id: 1 });
      await store.webhookOutbox.enqueue(a, 'events.updated', { id: 1, calendar_id: 1 });
      const [newer, older] = await store.webhookOutbox.list({ limit: 10 });
      expect(await store.webhookOutbox.claim('2000-01-01T00:00:00.000Z', T)).toBeUndefined();
      const first = (await store.webhookOutbox.claim(T, plus(40_000)))!;
      expect(first).toEqual({ id: older.id, event_id: older.event_id, url: 'https://a.example/hook', secret: 'whsec_a', body: older.body, attempt_count: 0 });
      expect((await store.webhookOutbox.claim(T, plus(40_000)))?.id).toBe(newer.id);
      expect(await store.webhookOutbox.claim(plus(39_999), plus(80_000))).toBeUndefined();
      // A lease that ran out (its claimer died mid-attempt) is claimed again.
      expect((await store.webhookOutbox.claim(plus(40_000), plus(80_000)))?.id).toBe(older.id);

      await store.webhookOutbox.settle(older.id, { at: plus(1), status_code: 500, error: null }, { retryAt: plus(10_000) });
      expect(await store.webhookOutbox.nextDue()).toBe(newer.next_attempt_at);
      await store.webhookOutbox.settle(newer.id, { at: plus(2), status_code: 204, error: null }, { status: 'delivered' });
      expect(await store.webhookOutbox.nextDue()).toBe(plus(10_000));
      expect(await store.webhookOutbox.claim(plus(9_999), plus(50_000))).toBeUndefined();
      expect(await store.webhookOutbox.claim(plus(10_000), plus(50_000))).toMatchObject({ id: older.id, attempt_count: 1 });
      await store.webhookOutbox.settle(older.id, { at: plus(10_001), status_code: null, error: 'ECONNREFUSED' }, { status: 'failed' });
      expect(await store.webhookOutbox.nextDue()).toBeUndefined();
      expect(await store.webhookOutbox.get(older.id)).toMatchObject({
        status: 'failed',
        attempt_count: 2,
        finished_at: plus(10_001),
        attempts: [
          { at: plus(1), status_code: 500, error: null },
          { at: plus(10_001), status_code: null, error: 'ECONNREFUSED' },
        ],
      });
      expect(await store.webhookOutbox.get(newer.id)).toMatchObject({ status: 'delivered', attempt_count: 1, finished_at: plus(2) });
      expect(await store.webhookOutbox.claim(plus(3_600_000), plus(3_700_000))).toBeUndefined();
    });

    it('lists newest first by tenant, failed only, up to a limit; redelivers; prunes what finished long ago', async () => {
      await destination(a, 'https://a.example/');
      await destination(b, 'https://b.example/');
      for (const tenant of [a, b, a, b]) await store.webhookOutbox.enqueue(tenant, 'events.created', { id: tenant, calendar_id: 1 });
      const ids = (await store.webhookOutbox.list({ limit: 10 })).map((d) => d.id);
      expect(ids).toHaveLength(4);
      expect([...ids].sort((x, y) => y - x)).toEqual(ids);
      expect((await store.webhookOutbox.list({ limit: 2 })).map((d) => d.id)).toEqual(ids.slice(0, 2));
      expect((await store.webhookOutbox.list({ tenantId: a, limit: 10 })).map((d) => d.tenant_id)).toEqual([a, a]);
      const [failed, delivered] = (await store.webhookOutbox.list({ tenantId: a, limit: 10 })).map((d) => d.id);
      await store.webhookOutbox.settle(failed, { at: plus(0), status_code: 410, error: null }, { status: 'failed' });
      await store.webhookOutbox.settle(delivered, { at: '2000-01-01T00:00:00.000Z', status_code: 200, error: null }, { status: 'delivered' });
      expect((await store.webhookOutbox.list({ failed: true, limit: 10 })).map((d) => d.id)).toEqual([failed]);
      expect((await store.webhookOutbox.list({ tenantId: b, failed: true, limit: 10 })).map((d) => d.id)).toEqual([]);

      expect(await store.webhookOutbox.redeliver(failed)).toBe(true);
      expect(await store.webhookOutbox.redeliver(999_999)).toBe(false);
      const again = (await store.webhookOutbox.get(failed))!;
      expect(again).toMatchObject({ status: 'pending', attempt_count: 0, finished_at: null, attempts: [{ at: plus(0), status_code: 410, error: null }] });
      // Due first: b's older delivery (the redelivered one is due from now on, after the others).
      const bIds = (await store.webhookOutbox.list({ tenantId: b, limit: 10 })).map((d) => d.id);
      expect((await store.webhookOutbox.claim(T, plus(1)))?.id).toBe(Math.min(...bIds));

      // Only finished deliveries older than the bound go, with their attempts.
      expect(await store.webhookOutbox.prune('2001-01-01T00:00:00.000Z')).toBe(1);
      expect(await store.webhookOutbox.get(delivered)).toBeUndefined();
      expect((await store.webhookOutbox.list({ limit: 10 })).map((d) => d.id)).toEqual(ids.filter((id) => id !== delivered));
      expect(await store.webhookOutbox.prune(plus(0))).toBe(0);
    });

    it("removing a destination cancels its pending deliveries, also one under lease; others' stay", async () => {
      const [gone, kept] = await destinations([a, 'https://gone.example/'], [a, 'https://kept.example/']);
      await store.webhookOutbox.enqueue(a, 'events.created', { id: 1, calendar_id: 1 });
      const leased = (await store.webhookOutbox.claim(T, plus(40_000)))!;
      expect(leased.url).toBe(gone.url);
      await store.webhookOutbox.enqueue(a, 'events.updated', { id: 1, calendar_id: 1 });
      expect(await store.webhookDestinations.remove(gone.id)).toBe(true);
      const byUrl = (await store.webhookOutbox.list({ limit: 10 })).map((d) => [d.type, d.url, d.status, d.finished_at === null]);
      expect(byUrl).toEqual([
        ['events.updated', kept.url, 'pending', true],
        ['events.updated', gone.url, 'canceled', false],
        ['events.created', kept.url, 'pending', true],
        ['events.created', gone.url, 'canceled', false],
      ]);
      const claimed: string[] = [];
      for (let c = await store.webhookOutbox.claim(plus(50_000), plus(90_000)); c; c = await store.webhookOutbox.claim(plus(50_000), plus(90_000))) claimed.push(c.url);
      expect(claimed).toEqual([kept.url, kept.url]);
      expect(await store.webhookOutbox.enqueue(a, 'events.deleted', { id: 1, calendar_id: 1 })).toBe(1);
    });

    it('keeps meeting links per tenant, oldest first', async () => {
      const calendar = await store.calendars.insert(a, { owner_type: 'Customer', owner_id: 1, name: 'Bookings' });
      const intro = await store.meetingLinks.insert(a, { calendar_id: calendar.id, name: 'Intro', duration_minutes: 30 });
      const demo = await store.meetingLinks.insert(a, { calendar_id: calendar.id, name: 'Demo', duration_minutes: 45 });
      expect(intro).toEqual({ id: intro.id, tenant_id: a, calendar_id: calendar.id, name: 'Intro', duration_minutes: 30, created_at: expect.stringMatching(/Z$/) });
      expect(await store.meetingLinks.get(a, demo.id)).toEqual(demo);
      expect(await store.meetingLinks.get(b, demo.id)).toBeUndefined();
      expect(await store.meetingLinks.list(a)).toEqual([intro, demo]);
      expect(await store.meetingLinks.list(b)).toEqual([]);
    });

    it.runIf(factory.attach)('gives each due delivery to one claimer among claimers on two stores of one database', async () => {
      const other = await factory.attach!(store);
      try {
        await destination(a, 'https://a.example/');
        await destination(a, 'https://b.example/');
        for (let i = 0; i < 15; i++) await store.webhookOutbox.enqueue(a, 'events.created', { id: i, calendar_id: 1 });
        // 40 claims at once, half on each store, for 30 deliveries: each delivery once, ten claimers empty-handed.
        const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? other : store).webhookOutbox.claim(T, plus(40_000))));
        const got = claims.filter((c): c is ClaimedDelivery => c !== undefined).map((c) => c.id);
        expect(got).toHaveLength(30);
        expect(new Set(got).size).toBe(30);
        expect(await other.webhookOutbox.claim(T, plus(40_000))).toBeUndefined();
      } finally {
        await other.close();
      }
    });
  });
}
