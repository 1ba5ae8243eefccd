import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endConference, finishRecording, startConference } from '../../src/admin/lifecycle.js';
import { closeGracefully } from '../../src/server/index.js';
import { conferenceSetup, listen, type ConferenceFixture } from './conferences-fixture.js';
import { atOnce } from '../at-once.js';

let f: ConferenceFixture;
let conf: number;
beforeEach(() => {
  f = conferenceSetup({ maxAttendees: 2 });
  conf = f.conference().id;
});
afterEach(() => f.cleanup());

const del = (id: number | string = conf, key?: NonNullable<Parameters<ConferenceFixture['call']>[2]>['key']) =>
  f.call('DELETE', `/online_conferences/${id}`, { key });
const remove = (attendee: number | string, id: number | string = conf, key?: NonNullable<Parameters<ConferenceFixture['call']>[2]>['key']) =>
  f.call('DELETE', `/online_conferences/${id}/attendees/${attendee}`, { key });
const add = (body: unknown, id = conf) => f.call('POST', `/online_conferences/${id}/attendees`, { body });
const attendees = (id = conf) => f.call('GET', `/online_conferences/${id}/attendees`).then((r) => r.json().data.map((a: any) => [a.id, a.email]));
const at = (iso: string) => new Date(iso);

describe('DELETE /online_conferences/{id}', () => {
  it('soft-deletes a conference that has not started and answers it with deleted_at', async () => {
    const res = await del();
    expect(res.status, res.body).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Success.');
    expect(data).toMatchObject({ id: conf, public_id: 'weekly', started_at: null });
    expect(data.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(f.store.conferences.get(f.tenant.id, conf)).toBeUndefined();
    const listed = (await f.call('GET', '/online_conferences?with_trashed=true')).json().data;
    expect(listed.map((c: any) => [c.id, c.deleted_at])).toEqual([[conf, data.deleted_at]]);
    expect((await f.call('GET', '/online_conferences')).json().data).toEqual([]);
  });

  it('deletes an ended conference, refuses a running one with 409 and leaves it untouched', async () => {
    atOnce(startConference(f.store, f.tenant.id, conf, at('2026-03-01T10:00:00Z')));
    const running = await del();
    expect([running.status, running.body]).toEqual([409, 'Cannot delete an online conference that is in progress.']);
    expect(f.store.conferences.get(f.tenant.id, conf)?.deleted_at).toBeNull();
    atOnce(endConference(f.store, f.tenant.id, conf, at('2026-03-01T11:00:00Z')));
    const ended = await del();
    expect(ended.status, ended.body).toBe(200);
    expect(ended.json().data.ended_at).toBe('2026-03-01T11:00:00.000Z');
  });

  it('answers 404 for an absent, deleted (twice) or malformed id', async () => {
    for (const id of [999, 'abc', '0']) expect([(await del(id)).status, (await del(id)).body]).toEqual([404, 'Resource object does not exist.']);
    expect((await del()).status).toBe(200);
    expect([(await del()).status, (await del()).body]).toEqual([404, 'Resource object does not exist.']);
  });

  it('checks the key before the permission, and the permission before existence', async () => {
    expect([(await del(999, null)).status, (await del(999, null)).body]).toEqual([401, 'Invalid or missing access key.']);
    const updateOnly = f.key(['online_conferences.update.*', 'online_conferences.read.*']);
    expect([(await del(999, updateOnly)).status, (await del(999, updateOnly)).body]).toEqual([401, 'Access denied.']);
    const deleter = f.key(['online_conferences.delete.*']);
    expect((await del(999, deleter)).status).toBe(404);
    expect((await del(conf, deleter)).status).toBe(200);
  });

  it('makes the conference, its attendees and its recordings answer 404 on every route', async () => {
    const owner = f.store.attendees.listByConference(conf, { page_size: 10, page_number: 1 }).rows[0].id;
    const rec = f.store.recordings.insert(conf, { status: 3, file_name: 'a.wav', path: 'a.wav' }).id;
    expect((await del()).status).toBe(200);
    const routes: [string, string, unknown?][] = [
      ['GET', `/online_conferences/${conf}`],
      ['PATCH', `/online_conferences/${conf}`, { title: 'x' }],
      ['DELETE', `/online_conferences/${conf}`],
      ['GET', `/online_conferences/${conf}/attendees`],
      ['POST', `/online_conferences/${conf}/attendees`, [{ email: 'z@x.test', name: 'Z' }]],
      ['DELETE', `/online_conferences/${conf}/attendees/${owner}`],
      ['GET', `/online_conferences/${conf}/recordings`],
      ['GET', `/online_conferences/${conf}/recordings/${rec}/url`],
    ];
    for (const [method, route, body] of routes) {
      const res = await f.call(method, route, { body });
      expect([method, route, res.status, res.body]).toEqual([method, route, 404, 'Resource object does not exist.']);
    }
  });

  it('keeps the public_id and the backing event taken and never reuses the id', async () => {
    const backed = f.conference('backed', { backer_event_id: f.event.id }).id;
    expect((await del(backed)).status).toBe(200);
    const body = { online_conference_account_id: f.account.id, public_id: 'backed', title: 'Again', is_public: true, backer_event_id: f.event.id };
    const again = await f.call('POST', '/online_conferences', { body });
    expect(again.status).toBe(400);
    expect(again.json().errors).toEqual({ public_id: ['The public_id has already been taken.'], backer_event_id: ['The backer_event_id has already been taken.'] });
    const fresh = await f.call('POST', '/online_conferences', { body: { ...body, public_id: 'fresh', backer_event_id: undefined } });
    expect(fresh.status, fresh.body).toBe(200);
    expect(fresh.json().data.id).toBeGreaterThan(backed);
  });
});

describe('DELETE /online_conferences/{id} and recording links', () => {
  it('turns a link issued before the delete into 403 on a real socket', async () => {
    const other = f.conference('other').id;
    atOnce(startConference(f.store, f.tenant.id, conf, at('2026-03-01T10:00:00Z')));
    const { recording } = atOnce(startConference(f.store, f.tenant.id, other, at('2026-03-01T10:00:00Z')));
    atOnce(endConference(f.store, f.tenant.id, conf, at('2026-03-01T10:00:02Z')));
    atOnce(endConference(f.store, f.tenant.id, other, at('2026-03-01T10:00:02Z')));
    const recs = [f.store.recordings.byStatus(conf, 2)[0].id, recording.id];
    const source = path.join(f.dir, 'talk.wav');
    writeFileSync(source, Buffer.alloc(100, 7));
    for (const rec of recs) atOnce(finishRecording(f.store, f.tenant.id, rec, { mediaDir: f.mediaDir, file: source, now: new Date(f.clock.now) }));
    const origin = await listen(f.app.server);
    try {
      const links = [];
      for (const [c, rec] of [[conf, recs[0]], [other, recs[1]]]) {
        const res = await fetch(`${origin}/api/public/v2.0/online_conferences/${c}/recordings/${rec}/url?expiry=600`, { headers: f.admin });
        links.push(((await res.json()) as { data: { url: string } }).data.url);
      }
      expect((await fetch(links[0])).status).toBe(200);
      // A DELETE's body is ignored: it is not read as JSON, so malformed JSON is no 400.
      const res = await fetch(`${origin}/api/public/v2.0/online_conferences/${conf}`, { method: 'DELETE', headers: f.admin, body: '{not json' });
      expect(res.status).toBe(200);
      const revoked = await fetch(links[0]);
      expect([revoked.status, await revoked.text()]).toEqual([403, 'Invalid signature.']);
      expect((await fetch(links[1])).status).toBe(200);
    } finally {
      await closeGracefully(f.app.server, 1000);
    }
  });
});

describe('DELETE /online_conferences/{id}/attendees/{attendee_id}', () => {
  it('soft-deletes the attendee, drops it from the list and answers it with deleted_at', async () => {
    const [bob] = (await add([{ email: 'bob@acme.test', name: 'Bob' }])).json().data;
    const res = await remove(bob.id);
    expect(res.status, res.body).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Success.');
    expect(data).toMatchObject({ id: bob.id, online_conference_id: conf, email: 'bob@acme.test', attendee_type: 'User', attendee_id: f.bob.id });
    expect(data.deleted_at).toMatch(/Z$/);
    expect(await attendees()).toEqual([[expect.any(Number), 'ada@acme.test']]);
    expect(f.store.attendees.count(conf)).toBe(1);
  });

  it('frees a place: a full conference accepts one more, and a removed email comes back as a new attendee', async () => {
    const full = (await add([{ email: 'bob@acme.test', name: 'Bob' }, { email: 'x@x.test', name: 'X' }])).json().data;
    const over = await add([{ email: 'y@y.test', name: 'Y' }]);
    expect([over.status, over.body]).toEqual([409, 'Cannot exceed maximum attendee count.']);
    expect((await remove(full[0].id)).status).toBe(200);
    const back = await add([{ email: 'BOB@acme.test', name: 'Bob again' }]);
    expect(back.status, back.body).toBe(200);
    const [again] = back.json().data;
    expect(again.id).not.toBe(full[0].id);
    expect(again).toMatchObject({ email: 'BOB@acme.test', name: 'Bob again', deleted_at: null });
    expect((await attendees()).map(([, email]: [number, string]) => email)).toEqual(['ada@acme.test', 'x@x.test', 'BOB@acme.test']);
  });

  it('refuses the owner with 409 and leaves it attending', async () => {
    const [[owner]] = await attendees();
    const res = await remove(owner);
    expect([res.status, res.body]).toEqual([409, 'Cannot remove the owner of the online conference.']);
    expect(f.store.attendees.get(conf, owner)?.deleted_at).toBeNull();
  });

  it('allows a running conference and refuses an ended one with 409', async () => {
    const [bob, x] = (await add([{ email: 'bob@acme.test', name: 'Bob' }, { email: 'x@x.test', name: 'X' }])).json().data;
    atOnce(startConference(f.store, f.tenant.id, conf, at('2026-03-01T10:00:00Z')));
    expect((await remove(bob.id)).status).toBe(200);
    atOnce(endConference(f.store, f.tenant.id, conf, at('2026-03-01T11:00:00Z')));
    const ended = await remove(x.id);
    expect([ended.status, ended.body]).toEqual([409, 'Cannot modify an online conference that has ended.']);
    expect(f.store.attendees.get(conf, x.id)?.deleted_at).toBeNull();
    // Existence comes before the state: an unknown attendee of an ended conference is 404.
    expect((await remove(999)).status).toBe(404);
  });

  it('answers 404 for an absent or removed attendee, one of another conference, or an absent conference', async () => {
    const second = f.conference('second').id;
    const [[theirs]] = await attendees(second);
    const [bob] = (await add([{ email: 'bob@acme.test', name: 'Bob' }])).json().data;
    expect((await remove(bob.id)).status).toBe(200);
    for (const [attendee, id] of [[999, conf], [bob.id, conf], [theirs, conf], [bob.id, 999], ['x', conf]] as const) {
      const res = await remove(attendee, id);
      expect([attendee, id, res.status, res.body]).toEqual([attendee, id, 404, 'Resource object does not exist.']);
    }
  });

  it('needs online_conferences.update.*, checked before existence', async () => {
    const [bob] = (await add([{ email: 'bob@acme.test', name: 'Bob' }])).json().data;
    const deleter = f.key(['online_conferences.delete.*', 'online_conferences.read.*']);
    expect([(await remove(999, conf, deleter)).status, (await remove(999, conf, deleter)).body]).toEqual([401, 'Access denied.']);
    expect((await remove(bob.id, conf, null)).status).toBe(401);
    expect((await remove(bob.id, conf, f.key(['online_conferences.update.*']))).status).toBe(200);
  });
});
