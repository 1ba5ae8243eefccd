import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endConference, finishRecording, startConference } from '../../src/admin/lifecycle.js';
import { fillPath, OPERATION_META, type OperationId } from '../../src/contract/operations-meta.js';
import { closeGracefully } from '../../src/server/index.js';
import { conferenceSetup, type ConferenceFixture, listen } from './conferences-fixture.js';
import { NO_HOURS } from './fixtures.js';
import { atOnce } from '../at-once.js';

/**
 * Tenancy over every operation of the contract and the media route: a key of tenant A (`localhost`)
 * aimed at tenant B's (`other.test`) ids never reads or changes them (404), lists never show
 * them, creates never reach into them; B's state, read through B's own key, is unchanged.
 */
let f: ConferenceFixture;
let origin: string;
let b: { user: number; customer: number; conf: number; attendee: number; rec: number; calendar: number; event: number; account: number };
let aConf: number;
let bKey: ReturnType<ConferenceFixture['key']>;
const asB = () => ({ key: bKey, headers: { host: 'other.test' } });

beforeAll(async () => {
  f = conferenceSetup();
  origin = await listen(f.app.server);
  const customer = f.store.customers.insert(f.other.id, { first_name: 'Bea', last_name: 'Other', email: 'bea@other.test' });
  const conf = f.store.conferences.insert(f.other.id, { online_conference_account_id: f.otherAccount.id, public_id: 'b-conf', title: 'B only', is_public: false });
  const attendee = f.store.attendees.insert(conf.id, { email: 'otto@other.test', name: 'Otto', attendee_type: 'User', attendee_id: f.otherUser.id }).id;
  const rec = atOnce(startConference(f.store, f.other.id, conf.id, new Date('2026-03-01T10:00:00Z'))).recording.id;
  atOnce(endConference(f.store, f.other.id, conf.id, new Date('2026-03-01T10:00:01Z')));
  atOnce(finishRecording(f.store, f.other.id, rec, { mediaDir: f.mediaDir, now: new Date('2026-03-01T10:00:02Z') }));
  b = { user: f.otherUser.id, customer: customer.id, conf: conf.id, attendee, rec, calendar: f.otherCalendar.id, event: f.otherEvent.id, account: f.otherAccount.id };
  bKey = f.key(['*'], f.other.id);
  aConf = f.conference('a-conf').id;
});
afterAll(async () => {
  await closeGracefully(f.app.server, 1000);
  f.cleanup();
});

/** Everything of B that B's key can read. */
async function stateOfB(): Promise<unknown[]> {
  const reads = [
    '/users?with_trashed=true&page_size=100',
    '/customers?with_trashed=true&page_size=100',
    '/online_conferences?with_trashed=true&page_size=100',
    `/users/${b.user}`,
    `/customers/${b.customer}`,
    `/users/${b.user}/online_conference_accounts`,
    `/online_conferences/${b.conf}`,
    `/online_conferences/${b.conf}/attendees?page_size=100`,
    `/online_conferences/${b.conf}/recordings`,
    `/calendars/${b.calendar}/events/${b.event}`,
  ];
  return Promise.all(reads.map(async (path) => (await f.call('GET', path, asB())).json()));
}

/** Per operation: a body valid in shape (so only tenancy can refuse it) and what A's key must get. */
const CASES: Record<OperationId, { body?: unknown; expect: 'absent' | 'own-only' | 'invalid' | 'created-in-A' }> = {
  listUsers: { expect: 'own-only' },
  // B's user's e-mail is free in A: uniqueness is per tenant, and the user and its invitation land in A.
  createUser: {
    body: { department_id: null, first_name: 'Otto', last_name: 'Twin', email: 'otto@other.test', timezone: 'UTC', work_hours: NO_HOURS, role: 'Member' },
    expect: 'created-in-A',
  },
  getUser: { expect: 'absent' },
  updateUser: { body: { first_name: 'Hijacked' }, expect: 'absent' },
  listUserConferenceAccounts: { expect: 'absent' },
  listUserConnectedAccounts: { expect: 'absent' },
  listCustomers: { expect: 'own-only' },
  createCustomer: { body: { first_name: 'Bea', last_name: 'Twin', email: 'bea@other.test' }, expect: 'created-in-A' },
  getCustomer: { expect: 'absent' },
  updateCustomer: { body: { first_name: 'Hijacked' }, expect: 'absent' },
  listConferences: { expect: 'own-only' },
  createConference: { expect: 'invalid' },
  getConference: { expect: 'absent' },
  updateConference: { body: { title: 'Hijacked' }, expect: 'absent' },
  deleteConference: { expect: 'absent' },
  addConferenceAttendees: { body: [{ email: 'intruder@x.test', name: 'Intruder' }], expect: 'absent' },
  listConferenceAttendees: { expect: 'absent' },
  removeConferenceAttendee: { expect: 'absent' },
  listConferenceRecordings: { expect: 'absent' },
  getRecordingUrl: { expect: 'absent' },
  createAttendeeJoinToken: { body: { expiry: 600 }, expect: 'absent' },
  getCalendarEvent: { expect: 'absent' },
};

describe('a key of tenant A against tenant B', () => {
  it('every operation of the contract: 404 for B’s ids, lists of A only, nothing of B changed', async () => {
    expect(Object.keys(CASES).sort()).toEqual(OPERATION_META.map((op) => op.id).sort());
    const before = await stateOfB();
    const params = { user_id: b.user, customer_id: b.customer, online_conference_id: b.conf, online_conference_attendee_id: b.attendee, online_conference_recording_id: b.rec, calendar_id: b.calendar, event_id: b.event };
    for (const op of OPERATION_META) {
      const c = CASES[op.id];
      const body = op.id === 'createConference' ? { online_conference_account_id: b.account, public_id: 'stolen', title: 'Stolen', is_public: true, backer_event_id: b.event } : c.body;
      const res = await f.call(op.method, fillPath(op.path, params), { body });
      const seen = [op.id, res.status];
      if (c.expect === 'absent') {
        expect([...seen, res.body]).toEqual([op.id, 404, 'Resource object does not exist.']);
      } else if (c.expect === 'own-only') {
        expect(seen).toEqual([op.id, 200]);
        const rows = res.json().data as { email?: string; public_id?: string }[];
        expect(rows.length, op.id).toBeGreaterThan(0);
        expect(rows.filter((r) => r.email?.endsWith('@other.test') || r.public_id === 'b-conf'), op.id).toEqual([]);
      } else if (c.expect === 'invalid') {
        expect(seen).toEqual([op.id, 400]);
        expect(res.json().errors).toEqual({
          online_conference_account_id: ['The selected online_conference_account_id is invalid.'],
          backer_event_id: ['The selected backer_event_id is invalid.'],
        });
      } else {
        expect(seen).toEqual([op.id, 200]);
        const repo = op.id === 'createUser' ? f.store.users : f.store.customers;
        expect(repo.get(f.tenant.id, res.json().data.id), op.id).toMatchObject({ email: (c.body as { email: string }).email });
      }
    }
    // B's attendee under A's own conference id is not A's either.
    const mixed = await f.call('DELETE', `/online_conferences/${aConf}/attendees/${b.attendee}`);
    expect([mixed.status, mixed.body]).toEqual([404, 'Resource object does not exist.']);
    expect(await stateOfB()).toEqual(before);
    expect(f.store.invitations.list(f.other.id)).toEqual([]);
    expect(f.store.invitations.list(f.tenant.id).map((i) => i.email)).toEqual(['otto@other.test']);
    expect(f.store.conferences.get(f.other.id, b.conf)?.deleted_at).toBeNull();
    expect(f.store.attendees.get(b.conf, b.attendee)?.deleted_at).toBeNull();
    // B's key still reaches all of it (the ids were right, only the tenant was wrong).
    expect((await f.call('GET', `/online_conferences/${b.conf}/recordings/${b.rec}/url`, asB())).status).toBe(200);
  });

  it('the media route: B’s signed recording link is not served on A’s host', async () => {
    const link = new URL((await f.call('GET', `/online_conferences/${b.conf}/recordings/${b.rec}/url`, asB())).json().data.url);
    const get = (host: string) =>
      new Promise<{ status: number; body: string }>((done, fail) => {
        const req = httpRequest(`${origin}${link.pathname}${link.search}`, { headers: { host } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1') }));
        });
        req.on('error', fail);
        req.end();
      });
    expect(await get('127.0.0.1')).toEqual({ status: 404, body: 'Resource object does not exist.' });
    const own = await get('other.test');
    expect(own.status).toBe(200);
    expect(own.body.startsWith('RIFF')).toBe(true);
  });
});
