import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endConference, failRecording, finishRecording, startConference } from '../../src/admin/lifecycle.js';
import { verifyRecordingSignature } from '../../src/media/signing.js';
import { conferenceSetup, type ConferenceFixture } from './conferences-fixture.js';
import { atOnce } from '../at-once.js';

let f: ConferenceFixture;
let conf: number;
let rec: number;
beforeEach(() => {
  f = conferenceSetup();
  conf = f.conference().id;
  // A 90.5 s recording: its length rounds up to 91 s.
  rec = atOnce(startConference(f.store, f.tenant.id, conf, new Date('2026-03-01T10:00:00.000Z'))).recording.id;
  atOnce(endConference(f.store, f.tenant.id, conf, new Date('2026-03-01T10:01:30.500Z')));
});
afterEach(() => f.cleanup());

const finish = () => atOnce(finishRecording(f.store, f.tenant.id, rec, { mediaDir: f.mediaDir, now: new Date(f.clock.now) }));
const urlOf = (query = '', c = conf, r = rec) => f.call('GET', `/online_conferences/${c}/recordings/${r}/url${query}`);

describe('GET /online_conferences/{id}/recordings', () => {
  it('pages the conference’s recordings by id', async () => {
    const more = [2, 3].map(() => f.store.recordings.insert(conf, { status: 4 }));
    const res = await f.call('GET', `/online_conferences/${conf}/recordings?page_size=2`);
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.data).toEqual([f.store.recordings.get(f.tenant.id, rec), more[0]]);
    expect(body).toMatchObject({ total: 3, last_page: 2, per_page: 2, current_page: 1 });
  });

  it('answers 404 for an absent conference and 400 for a bad page size', async () => {
    expect((await f.call('GET', '/online_conferences/9999/recordings')).status).toBe(404);
    expect((await f.call('GET', `/online_conferences/${conf}/recordings?page_size=0`)).status).toBe(400);
  });
});

describe('GET …/recordings/{rid}/url', () => {
  it('answers 409 before the recording is Finished (Processing, Failed)', async () => {
    let res = await urlOf();
    expect([res.status, res.body]).toEqual([409, 'Online Conference Recording is not Finished.']);
    atOnce(failRecording(f.store, f.tenant.id, rec, { now: new Date(f.clock.now) }));
    res = await urlOf();
    expect(res.status).toBe(409);
  });

  it('signs a URL expiring after the recording’s length plus 600 s by default', async () => {
    const stored = finish();
    const length = Math.ceil((Date.parse(stored.stopped_at!) - Date.parse(stored.started_at!)) / 1000);
    expect(length).toBe(91);
    for (const query of ['', '?expiry=']) {
      const res = await urlOf(query);
      expect(res.status, res.body).toBe(200);
      const { message, data } = res.json();
      expect(message).toBe('Success.');
      expect(data.expires_at).toBe(new Date(f.clock.now + (length + 600) * 1000).toISOString());
      const url = new URL(data.url);
      expect(`${url.origin}${url.pathname}`).toBe(`http://localhost/media/recordings/${rec}/${stored.file_name}`);
      expect(url.searchParams.get('expires')).toBe(String(Date.parse(data.expires_at) / 1000));
      const valid = verifyRecordingSignature({
        recordingId: rec, fileName: stored.file_name!, expires: url.searchParams.get('expires'),
        signature: url.searchParams.get('signature'), secret: 'test-secret', now: new Date(f.clock.now),
      });
      expect(valid).toBe(true);
    }
  });

  it('takes expiry in seconds from now, 1 to 604800', async () => {
    finish();
    const res = await urlOf('?expiry=3600');
    expect(res.json().data.expires_at).toBe('2026-03-01T13:00:00.000Z');
    expect((await urlOf('?expiry=604800')).status).toBe(200);
    const cases: [string, string][] = [
      ['0', 'The expiry field must be between 1 and 604800.'],
      ['604801', 'The expiry field must be between 1 and 604800.'],
      ['abc', 'The expiry field must be an integer.'],
      ['1.5', 'The expiry field must be an integer.'],
    ];
    for (const [value, message] of cases) {
      const bad = await urlOf(`?expiry=${value}`);
      expect([bad.status, bad.json()]).toEqual([400, { message, errors: { expiry: [message] } }]);
    }
  });

  it('uses the Host of the request as the URL origin', async () => {
    finish();
    const res = await f.call('GET', `/online_conferences/${conf}/recordings/${rec}/url`, { headers: { host: '127.0.0.1:8080' } });
    expect(res.json().data.url.startsWith(`http://127.0.0.1:8080/media/recordings/${rec}/`)).toBe(true);
  });

  it('answers 404 for an absent recording or one of another conference', async () => {
    finish();
    const second = f.conference('second').id;
    expect((await urlOf('', conf, 9999)).status).toBe(404);
    expect((await urlOf('', second, rec)).status).toBe(404);
    expect((await urlOf('', 9999, rec)).status).toBe(404);
  });

  it('validates expiry (400) before existence (404)', async () => {
    expect((await urlOf('?expiry=0', 9999, 9999)).status).toBe(400);
  });
});
