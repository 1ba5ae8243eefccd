import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conferenceSetup, type ConferenceFixture } from './conferences-fixture.js';

let f: ConferenceFixture;
let conf: number;
beforeEach(() => {
  f = conferenceSetup();
  conf = f.conference().id;
});
afterEach(() => f.cleanup());

const emails = () => f.store.attendees.listByConference(conf, { page_size: 100, page_number: 1 }).rows.map((a) => a.email);
const add = (body: unknown, id = conf) => f.call('POST', `/online_conferences/${id}/attendees`, { body });
const people = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ email: `p${from + i}@x.test`, name: `P${from + i}` }));

describe('POST /online_conferences/{id}/attendees', () => {
  it('adds matched attendees and answers them in body order', async () => {
    const res = await add([
      { email: 'x@nobody.test', name: 'Nobody' },
      { email: 'CLEO@client.test', name: 'Cleo' },
      { email: 'bob@acme.test', name: 'Bob' },
    ]);
    expect(res.status, res.body).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Success.');
    expect(data.map((a: any) => [a.email, a.attendee_type, a.attendee_id])).toEqual([
      ['x@nobody.test', null, null],
      ['CLEO@client.test', 'Customer', f.cleo.id],
      ['bob@acme.test', 'User', f.bob.id],
    ]);
    const stored = f.store.attendees.listByConference(conf, { page_size: 100, page_number: 1 }).rows;
    expect(stored.slice(1)).toEqual(data);
  });

  it('answers existing attendees for repeated emails and adds each email once', async () => {
    const res = await add([
      { email: 'p1@x.test', name: 'P1' },
      { email: 'Ada@Acme.test', name: 'Owner' },
      { email: 'P1@X.test', name: 'P1 again' },
    ]);
    expect(res.status, res.body).toBe(200);
    const data = res.json().data;
    expect(data.map((a: any) => [a.email, a.name])).toEqual([['p1@x.test', 'P1'], ['ada@acme.test', 'Ada Lovelace']]);
    expect(emails()).toEqual(['ada@acme.test', 'p1@x.test']);
  });

  it('adds up to the maximum besides the owner, then refuses (409) and adds nothing', async () => {
    expect((await add(people(3))).status).toBe(200);
    expect((await add(people(2, 3))).status).toBe(200);
    expect(emails()).toHaveLength(6);
    const res = await add([{ email: 'p0@x.test', name: 'P0' }, ...people(1, 10)]);
    expect([res.status, res.body]).toEqual([409, 'Cannot exceed maximum attendee count.']);
    expect(emails()).toHaveLength(6);
    expect(emails()).not.toContain('p10@x.test');
  });

  it('refuses a body that alone passes the maximum, storing nothing', async () => {
    const res = await add(people(6));
    expect(res.status).toBe(409);
    expect(emails()).toEqual(['ada@acme.test']);
  });

  it('answers an email already attending at the maximum (200) without adding', async () => {
    await add(people(5));
    const before = f.store.attendees.findByEmail(conf, 'p2@x.test');
    const res = await add([{ email: 'P2@x.test', name: 'Other name' }, { email: 'ada@acme.test', name: 'A' }]);
    expect(res.status, res.body).toBe(200);
    expect(res.json().data[0]).toEqual(before);
    expect(emails()).toHaveLength(6);
  });

  it('honours serve --max-attendees', async () => {
    f.cleanup();
    f = conferenceSetup({ maxAttendees: 1 });
    conf = f.conference().id;
    expect((await add(people(2))).status).toBe(409);
    expect((await add(people(1))).status).toBe(200);
    expect(emails()).toEqual(['ada@acme.test', 'p0@x.test']);
  });

  it('answers an empty array with an empty list', async () => {
    const res = await add([]);
    expect([res.status, res.json().data]).toEqual([200, []]);
  });

  it('rejects a body that is not an array or has bad items (400)', async () => {
    for (const body of [{}, { email: 'a@b.test', name: 'A' }, '']) {
      const res = await add(body);
      expect(res.status).toBe(400);
      expect(res.json().errors).toEqual({ body: ['The body field must be an array.'] });
    }
    const res = await add([{ email: 'nope', name: 'N' }, { name: 'M' }]);
    expect(res.json().errors).toEqual({
      '0.email': ['The 0.email field must be a valid email address.'],
      '1.email': ['The 1.email field is required.'],
    });
    expect(emails()).toEqual(['ada@acme.test']);
  });

  it('validates (400) before the conference exists (404)', async () => {
    expect((await add({}, 9999)).status).toBe(400);
    expect((await add([], 9999)).status).toBe(404);
  });
});

describe('GET /online_conferences/{id}/attendees', () => {
  it('pages attendees by id', async () => {
    await add(people(4));
    const res = await f.call('GET', `/online_conferences/${conf}/attendees?page_size=2&page_number=2&filter_attribute=email`);
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.data.map((a: any) => a.email)).toEqual(['p1@x.test', 'p2@x.test']);
    expect(body).toMatchObject({ total: 5, current_page: 2, last_page: 3, from: 3, to: 4, per_page: 2 });
    expect(body.next_page_url).toBe(`http://localhost/api/public/v2.0/online_conferences/${conf}/attendees?filter_attribute=email&page_number=3&page_size=2`);
  });

  it('answers 404 for an absent conference', async () => {
    expect((await f.call('GET', '/online_conferences/9999/attendees')).status).toBe(404);
  });
});
