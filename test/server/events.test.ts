import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conferenceSetup, type ConferenceFixture } from './conferences-fixture.js';

let f: ConferenceFixture;
beforeEach(() => (f = conferenceSetup()));
afterEach(() => f.cleanup());

const get = (calendar: number, event: number) => f.call('GET', `/calendars/${calendar}/events/${event}`);

describe('GET /calendars/{cid}/events/{eid}', () => {
  it('answers the event with its attendees and a null conference when none is backed', async () => {
    const res = await get(f.calendar.id, f.event.id);
    expect(res.status).toBe(200);
    const { data } = res.json();
    expect(data).toEqual(f.store.events.get(f.tenant.id, f.calendar.id, f.event.id));
    expect(data).toMatchObject({ title: 'Kick-off', online_conference: null, start: '2026-03-02T09:00:00.000Z' });
    expect(data.attendees).toEqual([{ email: 'cleo@client.test', name: 'Cleo', status: 1, is_organizer: false, customer_id: f.cleo.id, calendar_id: null }]);
  });

  it('includes the conference the event backs, created over the API', async () => {
    const created = await f.call('POST', '/online_conferences', {
      body: { online_conference_account_id: f.account.id, public_id: 'backed', title: 'Backed', is_public: false, backer_event_id: f.event.id },
    });
    expect(created.status).toBe(200);
    const { data } = (await get(f.calendar.id, f.event.id)).json();
    expect(data.online_conference).toEqual(created.json().data);
  });

  it('answers 404 unless the event belongs to that calendar of the tenant', async () => {
    const second = f.store.calendars.insert(f.tenant.id, { owner_type: 'User', owner_id: f.bob.id, name: 'Bob' });
    for (const [c, e] of [[second.id, f.event.id], [f.calendar.id, 9999], [9999, f.event.id], [f.otherCalendar.id, f.otherEvent.id]]) {
      const res = await get(c, e);
      expect([res.status, res.body]).toEqual([404, 'Resource object does not exist.']);
    }
  });
});
