import { afterEach, describe, expect, it } from 'vitest';
import { createMeetingLink, scheduleMeeting } from '../../src/admin/meeting-links.js';
import { setup } from './fixture.js';
import { atOnce } from '../at-once.js';

let f: ReturnType<typeof setup>;
afterEach(() => f.store.close());

function withLink() {
  f = setup();
  const { store, tenantId, owner } = f;
  const calendar = store.calendars.insert(tenantId, { owner_type: 'User', owner_id: owner.id, name: 'Work' });
  store.webhookDestinations.create({ tenant_id: tenantId, url: 'https://a.example/', events: null, secret: 's' });
  const link = atOnce(createMeetingLink(store, tenantId, { calendar_id: calendar.id, name: 'Intro', duration_minutes: 15 }));
  return { calendar, link };
}

const queued = () => f.store.webhookOutbox.list({ limit: 50 }).reverse().map((d) => JSON.parse(d.body) as { event: string; data: Record<string, unknown> });

describe('meeting links', () => {
  it('books an event for a new customer and queues events.created and meeting_links.scheduled with the §13 data', () => {
    const { calendar, link } = withLink();
    const r = atOnce(scheduleMeeting(f.store, f.tenantId, link.id, { name: 'Grace Brewster Hopper', email: 'grace@example.com', contact_number: '+1 555' }, '2026-12-01T15:00:00.000Z'));
    expect(r.customer_created).toBe(true);
    expect(f.store.customers.get(f.tenantId, r.customer_id)).toMatchObject({ first_name: 'Grace', last_name: 'Brewster Hopper', email: 'grace@example.com', contact_number: '+1 555' });
    const event = f.store.events.get(f.tenantId, calendar.id, r.event_id)!;
    expect(event).toMatchObject({ title: 'Intro: Grace Brewster Hopper', start: '2026-12-01T15:00:00.000Z', end: '2026-12-01T15:15:00.000Z', customer_id: r.customer_id, meeting_link_id: link.id });
    expect(queued()).toEqual([
      { event: 'events.created', data: { id: r.event_id, calendar_id: calendar.id } },
      { event: 'meeting_links.scheduled', data: { id: link.id, event_id: r.event_id, calendar_id: calendar.id, name: 'Grace Brewster Hopper', email: 'grace@example.com', contact_number: '+1 555' } },
    ]);
  });

  it('matches a booker to an existing customer by e-mail; refuses unknown links and bad input, writing nothing', () => {
    const { link, calendar } = withLink();
    const ada = f.store.customers.insert(f.tenantId, { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' });
    const r = atOnce(scheduleMeeting(f.store, f.tenantId, link.id, { name: 'Ada', email: 'ada@example.com', contact_number: null }, '2026-12-01T15:00:00.000Z'));
    expect(r).toMatchObject({ customer_id: ada.id, customer_created: false });
    const before = queued().length;
    expect(() => atOnce(scheduleMeeting(f.store, f.otherTenantId, link.id, { name: 'X', email: 'x@example.com', contact_number: null }, '2026-12-01T15:00:00.000Z'))).toThrow(`no meeting link ${link.id} in this tenant`);
    expect(() => atOnce(scheduleMeeting(f.store, f.tenantId, link.id, { name: 'X', email: 'nope', contact_number: null }, '2026-12-01T15:00:00.000Z'))).toThrow("'nope' is not an e-mail address");
    expect(() => atOnce(createMeetingLink(f.store, f.otherTenantId, { calendar_id: calendar.id, name: 'X', duration_minutes: 15 }))).toThrow(`no calendar ${calendar.id} in this tenant`);
    expect(() => atOnce(createMeetingLink(f.store, f.tenantId, { calendar_id: calendar.id, name: 'X', duration_minutes: 0 }))).toThrow(/at least 1/);
    expect(queued().length).toBe(before);
    expect(f.store.customers.findByEmail(f.tenantId, 'x@example.com')).toBeUndefined();
  });
});
