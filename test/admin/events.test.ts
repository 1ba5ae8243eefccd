import { describe, expect, it, vi } from 'vitest';
import { createEvent, deleteEvent, updateEvent } from '../../src/admin/events.js';
import { importRecords } from '../../src/admin/import.js';
import { createMeetingLink, scheduleMeeting } from '../../src/admin/meeting-links.js';
import type { DataStore } from '../../src/store/port.js';
import type { PostgresStore } from '../../src/store/postgres/index.js';
import { type Backend, BACKENDS } from '../e2e/harness.js';
import { adminBackends } from './backends.js';

/**
 * The admin changes of calendar events (src/admin/events.ts) and what they write to the webhook
 * outbox, each case on SQLite and on PostgreSQL: each change and its outbox rows one transaction,
 * and concurrent changes taking turns.
 */
const setup = adminBackends();

const START = '2026-12-01T09:00:00.000Z';
const END = '2026-12-01T09:30:00.000Z';

/** Destinations of both tenants, one of the first tenant's only for deletions. */
async function withDestinations(backend: Backend) {
  const s = await setup(backend);
  const { store, tenantId, otherTenantId } = s;
  const all = await store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://a.example/', events: null, secret: 's1' });
  await new Promise((r) => setTimeout(r, 2));
  const some = await store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://b.example/', events: ['events.deleted'], secret: 's2' });
  await store.webhookDestinations.create({ tenant_id: otherTenantId, url: 'https://other.example/', events: null, secret: 's3' });
  const deliveries = async () => (await store.webhookOutbox.list({ limit: 100 })).reverse();
  return { ...s, all, some, deliveries };
}

/** Every outbox write fails from now on: PostgreSQL's by a trigger on its table, SQLite's by its repository (the units run on the store itself). */
async function refuseOutbox(store: DataStore): Promise<void> {
  if (store.backend === 'postgres') {
    await (store as PostgresStore).pool.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
      CREATE TRIGGER refuse BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION refuse()`);
  } else {
    vi.spyOn(store.webhookOutbox, 'enqueue').mockImplementation(() => {
      throw new Error('disk full');
    });
  }
}

/** A refusal as a rejection on either store (SQLite's throws at once). */
const attempt = async <T>(work: () => T | Promise<T>): Promise<T> => work();

describe.each(BACKENDS)('calendar event changes and their outbox (%s)', (backend) => {
  it('writes one delivery per matching destination of the tenant, sharing one event id, with the §13 body', async () => {
    const { store, tenantId, calendar, all, some, deliveries } = await withDestinations(backend);
    const { event, emitted } = await createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END });
    expect(emitted).toEqual(['events.created']);
    expect((await deliveries()).map((d) => [d.destination_id, d.type, JSON.parse(d.body), d.status])).toEqual([
      [all.id, 'events.created', { event: 'events.created', data: { id: event.id, calendar_id: calendar.id } }, 'pending'],
    ]);
    expect(await deleteEvent(store, tenantId, event.id)).toMatchObject({ emitted: ['events.deleted'], event: { id: event.id } });
    const deleted = (await deliveries()).filter((d) => d.type === 'events.deleted');
    expect(deleted.map((d) => d.destination_id)).toEqual([all.id, some.id]);
    expect(deleted[0].event_id).toBe(deleted[1].event_id);
    expect(deleted[0].event_id).not.toBe((await deliveries())[0].event_id);
    expect(await store.events.exists(tenantId, event.id)).toBe(false);
  });

  it('yields updated, rescheduled, both, or nothing, by what changed', async () => {
    const { store, tenantId, calendar, deliveries } = await withDestinations(backend);
    const { event } = await createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END });
    expect((await updateEvent(store, tenantId, event.id, { title: 'Sync 2' })).emitted).toEqual(['events.updated']);
    expect((await updateEvent(store, tenantId, event.id, { end: '2026-12-01T10:00:00.000Z' })).emitted).toEqual(['events.rescheduled']);
    const both = await updateEvent(store, tenantId, event.id, { location: 'Room 1', start: '2026-12-01T08:00:00.000Z' });
    expect(both.emitted).toEqual(['events.updated', 'events.rescheduled']);
    expect(both.event).toMatchObject({ title: 'Sync 2', location: 'Room 1', start: '2026-12-01T08:00:00.000Z', end: '2026-12-01T10:00:00.000Z' });
    expect(await store.events.get(tenantId, calendar.id, event.id)).toEqual(both.event);
    expect((await updateEvent(store, tenantId, event.id, { title: 'Sync 2' })).emitted).toEqual([]);
    expect((await deliveries()).map((d) => d.type)).toEqual(['events.created', 'events.updated', 'events.rescheduled', 'events.updated', 'events.rescheduled']);
  });

  it('writes nothing when the outbox write fails: the change and its deliveries share one transaction', async () => {
    const { store, tenantId, calendar, deliveries } = await withDestinations(backend);
    const { event } = await createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END });
    const link = await createMeetingLink(store, tenantId, { calendar_id: calendar.id, name: 'Intro', duration_minutes: 15 });
    await refuseOutbox(store);
    await expect(attempt(() => createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Lost', start: START, end: END }))).rejects.toThrow('disk full');
    await expect(attempt(() => updateEvent(store, tenantId, event.id, { title: 'Lost' }))).rejects.toThrow('disk full');
    await expect(attempt(() => deleteEvent(store, tenantId, event.id))).rejects.toThrow('disk full');
    await expect(attempt(() => scheduleMeeting(store, tenantId, link.id, { name: 'Lost Booker', email: 'lost@example.com', contact_number: null }, START))).rejects.toThrow('disk full');
    expect((await store.events.get(tenantId, calendar.id, event.id))?.title).toBe('Sync');
    expect(await store.events.exists(tenantId, event.id + 1)).toBe(false);
    expect(await store.customers.findByEmail(tenantId, 'lost@example.com')).toBeUndefined();
    expect((await deliveries()).length).toBe(1);
  });

  it('refuses bad input, other tenants and an event backing a conference with typed errors, writing nothing', async () => {
    const { store, tenantId, otherTenantId, owner, calendar, deliveries } = await withDestinations(backend);
    const { event } = await createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END });
    await expect(attempt(() => createEvent(store, tenantId, { calendar_id: calendar.id, title: 'x', start: END, end: START }))).rejects.toThrow(/must be after the start/);
    await expect(attempt(() => createEvent(store, tenantId, { calendar_id: calendar.id, title: ' ', start: START, end: END }))).rejects.toThrow('the title must not be empty');
    await expect(attempt(() => createEvent(store, otherTenantId, { calendar_id: calendar.id, title: 'x', start: START, end: END }))).rejects.toMatchObject({
      kind: 'not_found',
      message: `no calendar ${calendar.id} in this tenant`,
    });
    await expect(attempt(() => updateEvent(store, otherTenantId, event.id, { title: 'x' }))).rejects.toThrow(`no event ${event.id} in this tenant`);
    await expect(attempt(() => updateEvent(store, tenantId, event.id, { end: START }))).rejects.toThrow(/must be after the start/);
    await expect(attempt(() => deleteEvent(store, otherTenantId, event.id))).rejects.toThrow(`no event ${event.id} in this tenant`);
    const account = await store.conferenceAccounts.insert(tenantId, { owner_type: 'User', owner_id: owner.id, name: 'Room' });
    const conference = await store.conferences.insert(tenantId, { online_conference_account_id: account.id, public_id: 'sync', title: 'Sync', is_public: false, backer_event_id: event.id });
    await expect(attempt(() => deleteEvent(store, tenantId, event.id))).rejects.toMatchObject({ kind: 'conflict', message: `event ${event.id} backs online conference ${conference.id}; delete the conference instead` });
    expect(await store.events.exists(tenantId, event.id)).toBe(true);
    expect((await deliveries()).length).toBe(1);
  });

  it('takes turns on the event: of concurrent identical changes one changes it, the others change nothing', async () => {
    const { store, tenantId, calendar, deliveries } = await withDestinations(backend);
    const { event } = await createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END });
    const results = await Promise.all(Array.from({ length: 8 }, async () => updateEvent(store, tenantId, event.id, { title: 'Same', end: '2026-12-01T10:00:00.000Z' })));
    expect(results.map((r) => r.emitted).filter((e) => e.length)).toEqual([['events.updated', 'events.rescheduled']]);
    expect((await deliveries()).map((d) => d.type)).toEqual(['events.created', 'events.updated', 'events.rescheduled']);
  });
});

describe.each(BACKENDS)('imports of events (%s)', (backend) => {
  it('write events.created for each imported event, in the import transaction', async () => {
    const { store, tenantId, calendar, all, deliveries } = await withDestinations(backend);
    const lines = [1, 2].map((n) => JSON.stringify({ calendar_id: calendar.id, title: `E${n}`, start: START, end: END })).join('\n');
    await importRecords(store, tenantId, 'events', lines, { fileName: 'events.ndjson' });
    const created = await deliveries();
    expect(created.map((d) => [d.destination_id, d.type])).toEqual([[all.id, 'events.created'], [all.id, 'events.created']]);
    expect(new Set(created.map((d) => (JSON.parse(d.body) as { data: { id: number } }).data.id)).size).toBe(2);
    expect(new Set(created.map((d) => d.event_id)).size).toBe(2);
  });
});
