import { describe, expect, it } from 'vitest';
import { TRIGGER_TYPES, trigger } from '../../src/admin/trigger.js';
import { BACKENDS } from '../e2e/harness.js';
import { adminBackends } from './backends.js';

/** `admin webhooks trigger`'s changes (src/admin/trigger.ts), each case on SQLite and on PostgreSQL. */
const setup = adminBackends();

describe.each(BACKENDS)('webhooks trigger (%s)', (backend) => {
  it('makes a real change of each type on new data, queuing its events, and leaves existing data alone', async () => {
    const { store, tenantId, calendar } = await setup(backend);
    const existing = await store.events.insert(tenantId, { calendar_id: calendar.id, title: 'Mine', start: '2026-01-01T09:00:00.000Z', end: '2026-01-01T10:00:00.000Z' });
    await store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://a.example/', events: null, secret: 's' });
    const now = new Date('2026-06-01T00:00:00.000Z');
    const made = [];
    for (const type of TRIGGER_TYPES) made.push(await trigger(store, tenantId, type, now));
    expect(made.map((r) => r.emitted)).toEqual([
      ['events.created'],
      ['events.created', 'events.updated'],
      ['events.created', 'events.rescheduled'],
      ['events.created', 'events.deleted'],
      ['events.created', 'meeting_links.scheduled'],
    ]);
    const queued = (await store.webhookOutbox.list({ limit: 50 })).reverse();
    expect(queued.map((d) => d.type)).toEqual(made.flatMap((r) => r.emitted));
    expect(queued.every((d) => d.url === 'https://a.example/')).toBe(true);
    expect(queued.filter((d) => d.type.startsWith('events.')).every((d) => (JSON.parse(d.body) as { data: { id: number } }).data.id !== existing.id)).toBe(true);
    expect(new Set(made.map((r) => r.customer_id)).size).toBe(5);
    expect((await store.events.get(tenantId, made[4].calendar_id, made[4].event_id))?.customer_id).toBe(made[4].customer_id);
    expect((await store.customers.get(tenantId, made[0].customer_id))?.email).toMatch(/^webhooks-trigger-[0-9a-f]{8}@example\.invalid$/);
    expect(await store.events.get(tenantId, calendar.id, existing.id)).toEqual(existing);
    expect(await store.events.exists(tenantId, made[3].event_id)).toBe(false);
    expect((await store.events.get(tenantId, made[2].calendar_id, made[2].event_id))?.start).toBe('2026-06-02T01:00:00.000Z');
  });

  it('refuses a type it cannot produce, creating nothing', async () => {
    const { store, tenantId } = await setup(backend);
    const attempt = async () => trigger(store, tenantId, 'events.nope', new Date('2026-06-01T00:00:00.000Z'));
    await expect(attempt()).rejects.toThrow("cannot trigger 'events.nope'; the types are events.created");
    expect(await store.customers.get(tenantId, 1)).toBeUndefined();
  });
});
