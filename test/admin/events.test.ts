import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEvent, deleteEvent, updateEvent } from '../../src/admin/events.js';
import { importRecords } from '../../src/admin/import.js';
import { setup } from './fixture.js';
import { atOnce } from '../at-once.js';

let f: ReturnType<typeof setup>;
afterEach(() => f.store.close());

const START = '2026-12-01T09:00:00.000Z';
const END = '2026-12-01T09:30:00.000Z';

function withDestinations() {
  f = setup();
  const { store, tenantId, otherTenantId, owner } = f;
  const calendar = store.calendars.insert(tenantId, { owner_type: 'User', owner_id: owner.id, name: 'Work' });
  const all = store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://a.example/', events: null, secret: 's1' });
  const some = store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://b.example/', events: ['events.deleted'], secret: 's2' });
  store.webhookDestinations.create({ tenant_id: otherTenantId, url: 'https://other.example/', events: null, secret: 's3' });
  return { calendar, all, some };
}

const deliveries = () => f.store.webhookOutbox.list({ limit: 100 }).reverse();

describe('calendar event changes and their outbox', () => {
  it('writes one delivery per matching destination of the tenant, sharing one event id, with the §13 body', () => {
    const { calendar, all, some } = withDestinations();
    const { event, emitted } = atOnce(createEvent(f.store, f.tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END }));
    expect(emitted).toEqual(['events.created']);
    expect(deliveries().map((d) => [d.destination_id, d.type, JSON.parse(d.body), d.status])).toEqual([
      [all.id, 'events.created', { event: 'events.created', data: { id: event.id, calendar_id: calendar.id } }, 'pending'],
    ]);
    atOnce(deleteEvent(f.store, f.tenantId, event.id));
    const deleted = deliveries().filter((d) => d.type === 'events.deleted');
    expect(deleted.map((d) => d.destination_id)).toEqual([all.id, some.id]);
    expect(deleted[0].event_id).toBe(deleted[1].event_id);
    expect(deleted[0].event_id).not.toBe(deliveries()[0].event_id);
    expect(f.store.events.exists(f.tenantId, event.id)).toBe(false);
  });

  it('yields updated, rescheduled, both, or nothing, by what changed', () => {
    const { calendar } = withDestinations();
    const { event } = atOnce(createEvent(f.store, f.tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END }));
    expect(atOnce(updateEvent(f.store, f.tenantId, event.id, { title: 'Sync 2' })).emitted).toEqual(['events.updated']);
    expect(atOnce(updateEvent(f.store, f.tenantId, event.id, { end: '2026-12-01T10:00:00.000Z' })).emitted).toEqual(['events.rescheduled']);
    const both = atOnce(updateEvent(f.store, f.tenantId, event.id, { location: 'Room 1', start: '2026-12-01T08:00:00.000Z' }));
    expect(both.emitted).toEqual(['events.updated', 'events.rescheduled']);
    expect(both.event).toMatchObject({ title: 'Sync 2', location: 'Room 1', start: '2026-12-01T08:00:00.000Z', end: '2026-12-01T10:00:00.000Z' });
    expect(atOnce(updateEvent(f.store, f.tenantId, event.id, { title: 'Sync 2' })).emitted).toEqual([]);
    expect(deliveries().map((d) => d.type)).toEqual(['events.created', 'events.updated', 'events.rescheduled', 'events.updated', 'events.rescheduled']);
  });

  it('writes nothing when the outbox write fails: the change and its deliveries share one transaction', () => {
    const { calendar } = withDestinations();
    const { event } = atOnce(createEvent(f.store, f.tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END }));
    vi.spyOn(f.store.webhookOutbox, 'enqueue').mockImplementation(() => {
      throw new Error('disk full');
    });
    expect(() => atOnce(createEvent(f.store, f.tenantId, { calendar_id: calendar.id, title: 'Lost', start: START, end: END }))).toThrow('disk full');
    expect(() => atOnce(updateEvent(f.store, f.tenantId, event.id, { title: 'Lost' }))).toThrow('disk full');
    expect(() => atOnce(deleteEvent(f.store, f.tenantId, event.id))).toThrow('disk full');
    expect(f.store.events.get(f.tenantId, calendar.id, event.id)?.title).toBe('Sync');
    expect(f.store.events.exists(f.tenantId, event.id + 1)).toBe(false);
    expect(deliveries().length).toBe(1);
  });

  it('refuses bad input and other tenants with typed errors, writing nothing', () => {
    const { calendar } = withDestinations();
    const { event } = atOnce(createEvent(f.store, f.tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END }));
    expect(() => atOnce(createEvent(f.store, f.tenantId, { calendar_id: calendar.id, title: 'x', start: END, end: START }))).toThrow(/must be after the start/);
    expect(() => atOnce(createEvent(f.store, f.otherTenantId, { calendar_id: calendar.id, title: 'x', start: START, end: END }))).toThrow(`no calendar ${calendar.id} in this tenant`);
    expect(() => atOnce(updateEvent(f.store, f.otherTenantId, event.id, { title: 'x' }))).toThrow(`no event ${event.id} in this tenant`);
    expect(() => atOnce(updateEvent(f.store, f.tenantId, event.id, { end: START }))).toThrow(/must be after the start/);
    expect(() => atOnce(deleteEvent(f.store, f.otherTenantId, event.id))).toThrow(`no event ${event.id} in this tenant`);
    expect(deliveries().length).toBe(1);
  });
});

describe('imports of events', () => {
  it('write events.created for each imported event, in the import transaction', () => {
    const { calendar, all } = withDestinations();
    const lines = [1, 2].map((n) => JSON.stringify({ calendar_id: calendar.id, title: `E${n}`, start: START, end: END })).join('\n');
    atOnce(importRecords(f.store, f.tenantId, 'events', lines, { fileName: 'events.ndjson' }));
    const created = deliveries();
    expect(created.map((d) => [d.destination_id, d.type])).toEqual([[all.id, 'events.created'], [all.id, 'events.created']]);
    expect(new Set(created.map((d) => (JSON.parse(d.body) as { data: { id: number } }).data.id)).size).toBe(2);
    expect(new Set(created.map((d) => d.event_id)).size).toBe(2);
  });
});
