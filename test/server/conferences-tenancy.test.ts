import { afterEach, beforeEach, expect, it } from 'vitest';
import { endConference, finishRecording, startConference } from '../../src/admin/lifecycle.js';
import { conferenceSetup, type ConferenceFixture } from './conferences-fixture.js';
import { atOnce } from '../at-once.js';

let f: ConferenceFixture;
beforeEach(() => (f = conferenceSetup()));
afterEach(() => f.cleanup());

/** Every route of this part, with the ids it needs. */
function routes(ids: { conf: number; rec: number; user: number; calendar: number; event: number }): [string, string, unknown?][] {
  return [
    ['GET', `/online_conferences/${ids.conf}`],
    ['PATCH', `/online_conferences/${ids.conf}`, { title: 'Hijacked' }],
    ['POST', `/online_conferences/${ids.conf}/attendees`, [{ email: 'intruder@x.test', name: 'I' }]],
    ['GET', `/online_conferences/${ids.conf}/attendees`],
    ['GET', `/online_conferences/${ids.conf}/recordings`],
    ['GET', `/online_conferences/${ids.conf}/recordings/${ids.rec}/url`],
    ['GET', `/users/${ids.user}/online_conference_accounts`],
    ['GET', `/users/${ids.user}/connected_accounts`],
    ['GET', `/calendars/${ids.calendar}/events/${ids.event}`],
  ];
}

/** A finished conference world in a tenant. */
function world(tenantId: number, account: number, user: number, calendar: number, event: number) {
  const conf = f.store.conferences.insert(tenantId, { online_conference_account_id: account, public_id: `w${tenantId}`, title: 'Own', is_public: false });
  const rec = atOnce(startConference(f.store, tenantId, conf.id, new Date('2026-03-01T10:00:00Z'))).recording.id;
  atOnce(endConference(f.store, tenantId, conf.id, new Date('2026-03-01T10:00:01Z')));
  atOnce(finishRecording(f.store, tenantId, rec, { mediaDir: f.mediaDir, now: new Date('2026-03-01T10:00:02Z') }));
  return { conf: conf.id, rec, user, calendar, event };
}

it('answers 404 for another tenant’s ids on every route, changing nothing', async () => {
  const mine = world(f.tenant.id, f.account.id, f.ada.id, f.calendar.id, f.event.id);
  const theirs = world(f.other.id, f.otherAccount.id, f.otherUser.id, f.otherCalendar.id, f.otherEvent.id);
  const otherKey = f.key(['*'], f.other.id);
  const table = [
    { ids: theirs, init: {} },
    { ids: mine, init: { key: otherKey, headers: { host: 'other.test' } } },
  ];
  for (const { ids, init } of table) {
    for (const [method, path, body] of routes(ids)) {
      const res = await f.call(method, path, { ...init, body });
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, 'Resource object does not exist.']);
    }
  }
  for (const [tenantId, ids] of [[f.tenant.id, mine], [f.other.id, theirs]] as const) {
    expect(f.store.conferences.get(tenantId, ids.conf)!.title).toBe('Own');
    expect(f.store.attendees.findByEmail(ids.conf, 'intruder@x.test')).toBeUndefined();
  }
  // The same routes answer in their own tenant (PATCH is 409: the conference has started).
  const own = await Promise.all(routes(theirs).map(([method, path, body]) => f.call(method, path, { key: otherKey, headers: { host: 'other.test' }, body })));
  expect(own.map((r) => r.status)).toEqual([200, 409, 200, 200, 200, 200, 200, 200, 200]);
});

it('does not accept another tenant’s account or event on create', async () => {
  const res = await f.call('POST', '/online_conferences', {
    body: { online_conference_account_id: f.otherAccount.id, public_id: 'x', title: 'X', is_public: true, backer_event_id: f.otherEvent.id },
  });
  expect(res.json().errors).toEqual({
    online_conference_account_id: ['The selected online_conference_account_id is invalid.'],
    backer_event_id: ['The selected backer_event_id is invalid.'],
  });
});
