import { afterEach, describe, expect, it } from 'vitest';
import { TRIGGER_TYPES, trigger } from '../../src/admin/trigger.js';
import { setup } from './fixture.js';
import { atOnce } from '../at-once.js';

let f: ReturnType<typeof setup>;
afterEach(() => f.store.close());

describe('webhooks trigger', () => {
  it('makes a real change of each type on new data, queuing its events, and leaves existing data alone', () => {
    f = setup();
    const { store, tenantId, owner } = f;
    const calendar = store.calendars.insert(tenantId, { owner_type: 'User', owner_id: owner.id, name: 'Work' });
    const existing = store.events.insert(tenantId, { calendar_id: calendar.id, title: 'Mine', start: '2026-01-01T09:00:00.000Z', end: '2026-01-01T10:00:00.000Z' });
    store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://a.example/', events: null, secret: 's' });
    const now = new Date('2026-06-01T00:00:00.000Z');
    const emitted = TRIGGER_TYPES.map((type) => atOnce(trigger(store, tenantId, type, now)));
    expect(emitted.map((r) => r.emitted)).toEqual([
      ['events.created'],
      ['events.created', 'events.updated'],
      ['events.created', 'events.rescheduled'],
      ['events.created', 'events.deleted'],
      ['events.created', 'meeting_links.scheduled'],
    ]);
    const queued = store.webhookOutbox.list({ limit: 50 }).reverse();
    expect(queued.map((d) => d.type)).toEqual(emitted.flatMap((r) => r.emitted));
    expect(queued.filter((d) => d.type.startsWith('events.')).every((d) => (JSON.parse(d.body) as { data: { id: number } }).data.id !== existing.id)).toBe(true);
    expect(new Set(emitted.map((r) => r.customer_id)).size).toBe(5);
    expect(store.events.get(tenantId, emitted[4].calendar_id, emitted[4].event_id)?.customer_id).toBe(emitted[4].customer_id);
    expect(store.customers.get(tenantId, emitted[0].customer_id)?.email).toMatch(/^webhooks-trigger-[0-9a-f]{8}@example\.invalid$/);
    expect(store.events.get(tenantId, calendar.id, existing.id)).toEqual(existing);
    expect(store.events.exists(tenantId, emitted[3].event_id)).toBe(false);
    expect(store.events.get(tenantId, emitted[2].calendar_id, emitted[2].event_id)?.start).toBe('2026-06-02T01:00:00.000Z');
  });

  it('refuses a type it cannot produce, creating nothing', () => {
    f = setup();
    expect(() => atOnce(trigger(f.store, f.tenantId, 'events.nope', new Date()))).toThrow("cannot trigger 'events.nope'; the types are events.created");
    expect(f.store.customers.get(f.tenantId, 1)).toBeUndefined();
  });
});
