import { describe, expect, it } from 'vitest';
import { createMeetingLink, scheduleMeeting } from '../../src/admin/meeting-links.js';
import { type Backend, BACKENDS } from '../e2e/harness.js';
import { adminBackends } from './backends.js';

/** Meeting links (src/admin/meeting-links.ts): creating one and booking through it, each case on SQLite and on PostgreSQL. */
const setup = adminBackends();

const START = '2026-12-01T09:00:00.000Z';

/** A link of the first tenant's calendar; destinations of both tenants (one of the first tenant's only for deletions). */
async function withLink(backend: Backend) {
  const s = await setup(backend);
  const { store, tenantId, otherTenantId, calendar } = s;
  await store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://a.example/', events: null, secret: 's1' });
  await store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://b.example/', events: ['events.deleted'], secret: 's2' });
  await store.webhookDestinations.create({ tenant_id: otherTenantId, url: 'https://other.example/', events: null, secret: 's3' });
  const link = await createMeetingLink(store, tenantId, { calendar_id: calendar.id, name: 'Intro', duration_minutes: 15 });
  const deliveries = async () => (await store.webhookOutbox.list({ limit: 100 })).reverse();
  const bodies = async () => (await deliveries()).map((d) => JSON.parse(d.body) as { event: string; data: Record<string, unknown> });
  return { ...s, link, deliveries, bodies };
}

describe.each(BACKENDS)('meeting links (%s)', (backend) => {
  it('books an event for a new customer and queues events.created and meeting_links.scheduled with the §13 data', async () => {
    const { store, tenantId, calendar, link, bodies } = await withLink(backend);
    expect(await store.meetingLinks.list(tenantId)).toEqual([link]);
    const r = await scheduleMeeting(store, tenantId, link.id, { name: 'Grace Brewster Hopper', email: 'grace@example.com', contact_number: '+1 555' }, '2026-12-01T15:00:00.000Z');
    expect(r.customer_created).toBe(true);
    expect(await store.customers.get(tenantId, r.customer_id)).toMatchObject({ first_name: 'Grace', last_name: 'Brewster Hopper', email: 'grace@example.com', contact_number: '+1 555' });
    const event = (await store.events.get(tenantId, calendar.id, r.event_id))!;
    expect(event).toMatchObject({ title: 'Intro: Grace Brewster Hopper', start: '2026-12-01T15:00:00.000Z', end: '2026-12-01T15:15:00.000Z', customer_id: r.customer_id, meeting_link_id: link.id });
    expect(event.attendees).toEqual([{ email: 'grace@example.com', name: 'Grace Brewster Hopper', status: 1, is_organizer: false, customer_id: r.customer_id, calendar_id: null }]);
    expect(await bodies()).toEqual([
      { event: 'events.created', data: { id: r.event_id, calendar_id: calendar.id } },
      { event: 'meeting_links.scheduled', data: { id: link.id, event_id: r.event_id, calendar_id: calendar.id, name: 'Grace Brewster Hopper', email: 'grace@example.com', contact_number: '+1 555' } },
    ]);
  });

  it('matches a booker to a customer by e-mail, made once however many book at once; refuses unknown links and bad input, writing nothing', async () => {
    const { store, tenantId, otherTenantId, calendar, link, deliveries } = await withLink(backend);
    const ada = await store.customers.insert(tenantId, { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' });
    expect(await scheduleMeeting(store, tenantId, link.id, { name: 'Ada', email: 'ada@example.com', contact_number: null }, '2026-12-01T15:00:00.000Z')).toMatchObject({ customer_id: ada.id, customer_created: false });
    expect(await scheduleMeeting(store, tenantId, link.id, { name: 'Ada', email: 'ADA@example.com', contact_number: null }, START)).toMatchObject({ customer_id: ada.id, customer_created: false });
    const many = await Promise.all(Array.from({ length: 6 }, async () => scheduleMeeting(store, tenantId, link.id, { name: 'Lin', email: 'lin@example.com', contact_number: null }, START)));
    expect(many.filter((r) => r.customer_created)).toHaveLength(1);
    expect(new Set(many.map((r) => r.customer_id)).size).toBe(1);
    const before = (await deliveries()).length;
    // Async wrappers: on SQLite the refusals throw at once, on PostgreSQL they reject.
    await expect((async () => scheduleMeeting(store, otherTenantId, link.id, { name: 'X', email: 'x@example.com', contact_number: null }, START))()).rejects.toThrow(`no meeting link ${link.id} in this tenant`);
    await expect((async () => scheduleMeeting(store, tenantId, link.id, { name: 'X', email: 'nope', contact_number: null }, START))()).rejects.toThrow("'nope' is not an e-mail address");
    await expect((async () => createMeetingLink(store, otherTenantId, { calendar_id: calendar.id, name: 'X', duration_minutes: 15 }))()).rejects.toThrow(`no calendar ${calendar.id} in this tenant`);
    await expect((async () => createMeetingLink(store, tenantId, { calendar_id: calendar.id, name: 'X', duration_minutes: 0 }))()).rejects.toThrow(/at least 1/);
    expect((await deliveries()).length).toBe(before);
    expect(await store.customers.findByEmail(tenantId, 'x@example.com')).toBeUndefined();
  });
});
