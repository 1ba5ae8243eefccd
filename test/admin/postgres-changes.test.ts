import { afterEach, describe, expect, it } from 'vitest';
import { createEvent, deleteEvent, updateEvent } from '../../src/admin/events.js';
import { createMeetingLink, scheduleMeeting } from '../../src/admin/meeting-links.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { createMigratedDatabase, type TestDatabase } from '../pg/database.js';

/**
 * The admin changes that write webhook events, on PostgreSQL (`--database`): the rules and events
 * of the SQLite functions (test/admin/events.test.ts; meeting-links.test.ts and trigger.test.ts run on both),
 * each change and its outbox rows one transaction, and concurrent changes taking turns.
 */
let database: TestDatabase | undefined;
let store: PostgresStore;
afterEach(async () => {
  await store?.close();
  await database?.drop();
  database = undefined;
});

const START = '2026-12-01T09:00:00.000Z';
const END = '2026-12-01T09:30:00.000Z';

/** Two tenants, a calendar of tenant A, destinations of both (one of A's only for deletions). */
async function setup() {
  database = await createMigratedDatabase();
  store = await openPostgresStore(database.url);
  const tenantId = (await store.tenants.create('localhost')).id;
  const otherTenantId = (await store.tenants.create('other.example')).id;
  const owner = await store.users.insert(tenantId, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
  const calendar = await store.calendars.insert(tenantId, { owner_type: 'User', owner_id: owner.id, name: 'Work' });
  const all = await store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://a.example/', events: null, secret: 's1' });
  await new Promise((r) => setTimeout(r, 2));
  const some = await store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://b.example/', events: ['events.deleted'], secret: 's2' });
  await store.webhookDestinations.create({ tenant_id: otherTenantId, url: 'https://other.example/', events: null, secret: 's3' });
  return { tenantId, otherTenantId, owner, calendar, all, some };
}

const deliveries = async () => (await store.webhookOutbox.list({ limit: 100 })).reverse();

describe('calendar event changes on PostgreSQL', () => {
  it('writes one delivery per matching destination of the tenant, sharing one event id, with the §13 body', async () => {
    const { tenantId, calendar, all, some } = await setup();
    const { event, emitted } = await createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END });
    expect(emitted).toEqual(['events.created']);
    expect((await deliveries()).map((d) => [d.destination_id, d.type, JSON.parse(d.body), d.status])).toEqual([
      [all.id, 'events.created', { event: 'events.created', data: { id: event.id, calendar_id: calendar.id } }, 'pending'],
    ]);
    expect(await deleteEvent(store, tenantId, event.id)).toMatchObject({ emitted: ['events.deleted'], event: { id: event.id } });
    const deleted = (await deliveries()).filter((d) => d.type === 'events.deleted');
    expect(deleted.map((d) => d.destination_id)).toEqual([all.id, some.id]);
    expect(deleted[0].event_id).toBe(deleted[1].event_id);
    expect(await store.events.exists(tenantId, event.id)).toBe(false);
  });

  it('yields updated, rescheduled, both, or nothing, by what changed', async () => {
    const { tenantId, calendar } = await setup();
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
    const { tenantId, calendar } = await setup();
    const { event } = await createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END });
    const link = await createMeetingLink(store, tenantId, { calendar_id: calendar.id, name: 'Intro', duration_minutes: 15 });
    await store.pool.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
      CREATE TRIGGER refuse BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION refuse()`);
    await expect(createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Lost', start: START, end: END })).rejects.toThrow('disk full');
    await expect(updateEvent(store, tenantId, event.id, { title: 'Lost' })).rejects.toThrow('disk full');
    await expect(deleteEvent(store, tenantId, event.id)).rejects.toThrow('disk full');
    await expect(scheduleMeeting(store, tenantId, link.id, { name: 'Lost Booker', email: 'lost@example.com', contact_number: null }, START)).rejects.toThrow('disk full');
    expect((await store.events.get(tenantId, calendar.id, event.id))?.title).toBe('Sync');
    expect(await store.events.exists(tenantId, event.id + 1)).toBe(false);
    expect(await store.customers.findByEmail(tenantId, 'lost@example.com')).toBeUndefined();
    expect((await deliveries()).length).toBe(1);
  });

  it('refuses bad input, other tenants and an event backing a conference with typed errors, writing nothing', async () => {
    const { tenantId, otherTenantId, owner, calendar } = await setup();
    const { event } = await createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END });
    await expect(createEvent(store, tenantId, { calendar_id: calendar.id, title: 'x', start: END, end: START })).rejects.toThrow(/must be after the start/);
    await expect(createEvent(store, tenantId, { calendar_id: calendar.id, title: ' ', start: START, end: END })).rejects.toThrow('the title must not be empty');
    await expect(createEvent(store, otherTenantId, { calendar_id: calendar.id, title: 'x', start: START, end: END })).rejects.toMatchObject({
      kind: 'not_found',
      message: `no calendar ${calendar.id} in this tenant`,
    });
    await expect(updateEvent(store, otherTenantId, event.id, { title: 'x' })).rejects.toThrow(`no event ${event.id} in this tenant`);
    await expect(updateEvent(store, tenantId, event.id, { end: START })).rejects.toThrow(/must be after the start/);
    await expect(deleteEvent(store, otherTenantId, event.id)).rejects.toThrow(`no event ${event.id} in this tenant`);
    const account = await store.conferenceAccounts.insert(tenantId, { owner_type: 'User', owner_id: owner.id, name: 'Room' });
    const conference = await store.conferences.insert(tenantId, { online_conference_account_id: account.id, public_id: 'sync', title: 'Sync', is_public: false, backer_event_id: event.id });
    await expect(deleteEvent(store, tenantId, event.id)).rejects.toMatchObject({ kind: 'conflict', message: `event ${event.id} backs online conference ${conference.id}; delete the conference instead` });
    expect(await store.events.exists(tenantId, event.id)).toBe(true);
    expect((await deliveries()).length).toBe(1);
  });

  it('takes turns on the event: of concurrent identical changes one changes it, the others change nothing', async () => {
    const { tenantId, calendar } = await setup();
    const { event } = await createEvent(store, tenantId, { calendar_id: calendar.id, title: 'Sync', start: START, end: END });
    const results = await Promise.all(Array.from({ length: 8 }, () => updateEvent(store, tenantId, event.id, { title: 'Same', end: '2026-12-01T10:00:00.000Z' })));
    expect(results.map((r) => r.emitted).filter((e) => e.length)).toEqual([['events.updated', 'events.rescheduled']]);
    expect((await deliveries()).map((d) => d.type)).toEqual(['events.created', 'events.updated', 'events.rescheduled']);
  });
});
