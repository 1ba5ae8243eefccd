import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/harness.js';
import { adminDatabaseFixture, type BackendAdmin } from './admin-database-fixture.js';

/** `admin events` and `admin meeting-links`, each case on a data directory and on a database. */
const { adminOn } = adminDatabaseFixture();

async function withCalendar(f: BackendAdmin): Promise<number> {
  await f.json(['admin', 'init', '--no-profile']);
  await f.json(['admin', 'webhooks', 'add', 'http://127.0.0.1:9/']);
  return f.store(async (store) => {
    const owner = await store.users.insert(1, { first_name: 'Ada', last_name: 'L', email: 'ada@x.test' });
    return (await store.calendars.insert(1, { owner_type: 'User', owner_id: owner.id, name: 'Work' })).id;
  });
}

const types = (f: BackendAdmin) => f.store(async (store) => (await store.webhookOutbox.list({ limit: 50 })).map((d) => d.type).reverse());

describe.each(BACKENDS)('admin events create / update / reschedule / delete (%s)', (backend) => {
  it('changes events and queues the webhook events each change yields', async () => {
    const f = await adminOn(backend);
    const calendar = await withCalendar(f);
    const created = await f.json(['admin', 'events', 'create', '--calendar', String(calendar), '--title', 'Sync', '--start', '2026-12-01T09:00:00Z', '--end', '2026-12-01T09:30:00+00:00']);
    expect(created).toMatchObject({ calendar_id: calendar, title: 'Sync', start: '2026-12-01T09:00:00.000Z', end: '2026-12-01T09:30:00.000Z', webhook_events: ['events.created'] });
    const id = String(created.id);
    expect((await f.json(['admin', 'events', 'update', id, '--title', 'Weekly'])).webhook_events).toEqual(['events.updated']);
    expect((await f.json(['admin', 'events', 'reschedule', id, '--end', '2026-12-01T10:00:00Z'])).webhook_events).toEqual(['events.rescheduled']);
    expect(await f.json(['admin', 'events', 'delete', id])).toMatchObject({ id: created.id, deleted: true, webhook_events: ['events.deleted'] });
    expect(await types(f)).toEqual(['events.created', 'events.updated', 'events.rescheduled', 'events.deleted']);
  });

  it('maps bad input to exit codes and changes nothing; --dry-run plans', async () => {
    const f = await adminOn(backend);
    const calendar = String(await withCalendar(f));
    const create = ['admin', 'events', 'create', '--calendar', calendar, '--title', 'Sync'];
    expect(await f.run([...create, '--start', 'tomorrow', '--end', '2026-12-01T09:30:00Z'])).toBe(6);
    expect(f.stderr()).toContain("--start must be an ISO 8601 date-time such as 2026-12-01T09:00:00Z, not 'tomorrow'");
    expect(await f.run([...create, '--start', '2026-12-01T10:00:00Z', '--end', '2026-12-01T09:30:00Z'])).toBe(6);
    expect(await f.run(['admin', 'events', 'create', '--calendar', '999', '--title', 'x', '--start', '2026-12-01T09:00:00Z', '--end', '2026-12-01T10:00:00Z'])).toBe(4);
    expect(await f.run(['admin', 'events', 'update', '999', '--title', 'x'])).toBe(4);
    expect(await f.run(['admin', 'events', 'update', '1'])).toBe(2);
    expect(await f.run(['admin', 'events', 'reschedule', '1'])).toBe(2);
    expect(await f.run(['admin', 'events', 'delete', '999'])).toBe(4);
    expect(await f.run([...create, '--start', '2026-12-01T09:00:00Z', '--end', '2026-12-01T10:00:00Z', '--dry-run'])).toBe(0);
    expect(f.stdout()).toContain(`would create event 'Sync' in calendar ${calendar} of tenant localhost`);
    expect(await types(f)).toEqual([]);
  });
});

describe.each(BACKENDS)('admin meeting-links create / list / schedule (%s)', (backend) => {
  it('creates a link, books through it (a customer matched or made) and queues both event types', async () => {
    const f = await adminOn(backend);
    const calendar = await withCalendar(f);
    const link = await f.json(['admin', 'meeting-links', 'create', '--calendar', String(calendar), '--name', 'Intro', '--duration', '20']);
    expect(link).toMatchObject({ calendar_id: calendar, name: 'Intro', duration_minutes: 20 });
    expect(await f.json(['admin', 'meeting-links', 'list', '--fields', 'id,name'])).toEqual([{ id: link.id, name: 'Intro' }]);
    const booked = await f.json(['admin', 'meeting-links', 'schedule', String(link.id), '--name', 'Grace Hopper', '--email', 'grace@example.com', '--start', '2026-12-01T15:00:00Z']);
    expect(booked).toMatchObject({ meeting_link_id: link.id, calendar_id: calendar, customer_created: true, webhook_events: ['events.created', 'meeting_links.scheduled'] });
    const again = await f.json(['admin', 'meeting-links', 'schedule', String(link.id), '--name', 'Grace Hopper', '--email', 'grace@example.com', '--start', '2026-12-02T15:00:00Z']);
    expect(again).toMatchObject({ customer_id: booked.customer_id, customer_created: false });
    expect(await types(f)).toEqual(['events.created', 'meeting_links.scheduled', 'events.created', 'meeting_links.scheduled']);
    expect(await f.run(['admin', 'meeting-links', 'schedule', '999', '--name', 'X', '--email', 'x@example.com', '--start', '2026-12-01T15:00:00Z'])).toBe(4);
    expect(await f.run(['admin', 'meeting-links', 'create', '--calendar', String(calendar), '--name', 'X', '--duration', '0'])).toBe(6);
    expect(await types(f)).toHaveLength(4);
  });
});
