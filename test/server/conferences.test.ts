import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startConference } from '../../src/admin/lifecycle.js';
import { conferenceSetup, type ConferenceFixture } from './conferences-fixture.js';
import { atOnce } from '../at-once.js';

let f: ConferenceFixture;
beforeEach(() => (f = conferenceSetup()));
afterEach(() => f.cleanup());

const attendeesOf = (id: number) => f.store.attendees.listByConference(id, { page_size: 100, page_number: 1 }).rows;
const create = (body: unknown) => f.call('POST', '/online_conferences', { body });
const base = () => ({ online_conference_account_id: f.account.id, public_id: 'kick-off', title: 'Kick-off', is_public: true });

describe('POST /online_conferences', () => {
  it('creates the conference and adds the account owner as an attendee', async () => {
    const res = await create({ ...base(), backer_event_id: f.event.id });
    expect(res.status, res.body).toBe(200);
    const { data } = res.json();
    expect(data).toEqual(f.store.conferences.get(f.tenant.id, data.id));
    expect(data).toMatchObject({ public_id: 'kick-off', title: 'Kick-off', is_public: true, backer_event_id: f.event.id, is_occurred: false, started_at: null });
    expect(attendeesOf(data.id)).toMatchObject([{ email: 'ada@acme.test', name: 'Ada Lovelace', attendee_type: 'User', attendee_id: f.ada.id }]);
  });

  it('adds a customer owner with the customer type', async () => {
    const account = f.store.conferenceAccounts.insert(f.tenant.id, { owner_type: 'Customer', owner_id: f.cleo.id, name: 'Cleo room' });
    const res = await create({ ...base(), online_conference_account_id: account.id });
    expect(res.status, res.body).toBe(200);
    expect(attendeesOf(res.json().data.id)).toMatchObject([{ email: 'cleo@client.test', name: 'Cleo Client', attendee_type: 'Customer', attendee_id: f.cleo.id }]);
  });

  it('matches listed attendees to a user, then a customer, else nothing; owner and repeats once', async () => {
    const online_conference_attendees = [
      { email: 'ADA@acme.test', name: 'Ada again' },
      { email: 'Bob@Acme.test', name: 'Bobby' },
      { email: 'cleo@client.test', name: 'Cleo' },
      { email: 'gone@acme.test', name: 'Deleted user' },
      { email: 'BOB@acme.test', name: 'Bob twice' },
    ];
    const res = await create({ ...base(), online_conference_attendees });
    expect(res.status, res.body).toBe(200);
    const rows = attendeesOf(res.json().data.id);
    expect(rows.map((a) => [a.email, a.name, a.attendee_type, a.attendee_id])).toEqual([
      ['ada@acme.test', 'Ada Lovelace', 'User', f.ada.id],
      ['Bob@Acme.test', 'Bobby', 'User', f.bob.id],
      ['cleo@client.test', 'Cleo', 'Customer', f.cleo.id],
      ['gone@acme.test', 'Deleted user', null, null],
    ]);
  });

  it('prefers a user over a customer with the same email', async () => {
    f.store.customers.insert(f.tenant.id, { first_name: 'Bob', last_name: 'Customer', email: 'bob@acme.test' });
    const res = await create({ ...base(), online_conference_attendees: [{ email: 'bob@acme.test', name: 'Bob' }] });
    expect(attendeesOf(res.json().data.id)[1]).toMatchObject({ attendee_type: 'User', attendee_id: f.bob.id });
  });

  it('rejects a sixth listed attendee (400) and stores nothing', async () => {
    const six = Array.from({ length: 6 }, (_, i) => ({ email: `p${i}@x.test`, name: `P${i}` }));
    const res = await create({ ...base(), online_conference_attendees: six });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      message: 'The online_conference_attendees field must not have more than 5 items.',
      errors: { online_conference_attendees: ['The online_conference_attendees field must not have more than 5 items.'] },
    });
    expect(f.store.conferences.publicIdTaken(f.tenant.id, 'kick-off')).toBe(false);
  });

  it('refuses more listed attendees than the configured maximum (409) and stores nothing', async () => {
    f.cleanup();
    f = conferenceSetup({ maxAttendees: 2 });
    const three = Array.from({ length: 3 }, (_, i) => ({ email: `p${i}@x.test`, name: `P${i}` }));
    const res = await create({ ...base(), online_conference_attendees: three });
    expect([res.status, res.body]).toEqual([409, 'Cannot exceed maximum attendee count.']);
    expect(f.store.conferences.publicIdTaken(f.tenant.id, 'kick-off')).toBe(false);
    expect((await create({ ...base(), online_conference_attendees: three.slice(0, 2) })).status).toBe(200);
  });

  it('checks references and uniqueness against the tenant’s data, in body order', async () => {
    f.conference('taken', { backer_event_id: f.event.id });
    const res = await create({ online_conference_account_id: f.otherAccount.id, public_id: 'taken', title: 'T', is_public: false, backer_event_id: f.event.id });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      message: 'The selected online_conference_account_id is invalid. (and 2 more errors)',
      errors: {
        online_conference_account_id: ['The selected online_conference_account_id is invalid.'],
        public_id: ['The public_id has already been taken.'],
        backer_event_id: ['The backer_event_id has already been taken.'],
      },
    });
    const foreign = await create({ ...base(), backer_event_id: f.otherEvent.id });
    expect(foreign.json().errors).toEqual({ backer_event_id: ['The selected backer_event_id is invalid.'] });
    const absent = await create({ ...base(), online_conference_account_id: 9999, backer_event_id: 9999 });
    expect(Object.keys(absent.json().errors)).toEqual(['online_conference_account_id', 'backer_event_id']);
  });

  it('reports schema and stored-data failures together', async () => {
    f.conference('taken');
    const res = await create({ public_id: 'taken', title: '', is_public: 'yes' });
    expect(res.json().errors).toEqual({
      online_conference_account_id: ['The online_conference_account_id field is required.'],
      public_id: ['The public_id has already been taken.'],
      title: ['The title field is required.'],
      is_public: ['The is_public field must be true or false.'],
    });
  });
});

describe('GET /online_conferences/{id}', () => {
  it('answers the conference', async () => {
    const c = f.conference();
    const res = await f.call('GET', `/online_conferences/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ message: 'Success.', data: c });
  });

  it('answers 404 for an absent or another tenant’s conference', async () => {
    const foreign = f.store.conferences.insert(f.other.id, { online_conference_account_id: f.otherAccount.id, public_id: 'x', title: 'X', is_public: true });
    for (const id of [9999, foreign.id]) {
      expect([(await f.call('GET', `/online_conferences/${id}`)).status]).toEqual([404]);
    }
  });
});

describe('PATCH /online_conferences/{id}', () => {
  const patch = (id: number, body: unknown) => f.call('PATCH', `/online_conferences/${id}`, { body });

  it('changes title and is_public only; {} is a no-op', async () => {
    const c = f.conference();
    const res = await patch(c.id, { title: 'Renamed', is_public: true, public_id: 'ignored' });
    expect(res.status, res.body).toBe(200);
    const stored = f.store.conferences.get(f.tenant.id, c.id)!;
    expect(res.json().data).toEqual(stored);
    expect(stored).toMatchObject({ title: 'Renamed', is_public: true, public_id: 'weekly' });
    expect((await patch(c.id, {})).json().data).toEqual(stored);
  });

  it('refuses any patch of a started conference (409), leaving the row unchanged', async () => {
    const c = f.conference();
    atOnce(startConference(f.store, f.tenant.id, c.id, new Date('2026-03-01T11:00:00.000Z')));
    const before = f.store.conferences.get(f.tenant.id, c.id);
    for (const body of [{ title: 'Too late' }, {}, { is_public: true }]) {
      const res = await patch(c.id, body);
      expect([res.status, res.body]).toEqual([409, 'Cannot modify an online conference that has started.']);
    }
    expect(f.store.conferences.get(f.tenant.id, c.id)).toEqual(before);
  });

  it('checks validation (400) before existence (404) before the started rule (409)', async () => {
    const c = f.conference();
    atOnce(startConference(f.store, f.tenant.id, c.id, new Date('2026-03-01T11:00:00.000Z')));
    expect((await patch(9999, { title: 5 })).status).toBe(400);
    expect((await patch(c.id, { title: 'x'.repeat(256) })).json().errors).toEqual({ title: ['The title field must not be greater than 255 characters.'] });
    expect((await patch(9999, { title: 'ok' })).status).toBe(404);
    expect((await patch(c.id, { title: 'ok' })).status).toBe(409);
  });
});
