import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endConference, finishRecording, startConference } from '../../src/admin/lifecycle.js';
import { conferenceSetup, type ConferenceFixture } from './conferences-fixture.js';
import { atOnce } from '../at-once.js';

let f: ConferenceFixture;
let conf: number;
let rec: number;
beforeEach(() => {
  f = conferenceSetup();
  conf = f.conference().id;
  rec = atOnce(startConference(f.store, f.tenant.id, conf, new Date('2026-03-01T10:00:00.000Z'))).recording.id;
  atOnce(endConference(f.store, f.tenant.id, conf, new Date('2026-03-01T10:01:00.000Z')));
  atOnce(finishRecording(f.store, f.tenant.id, rec, { mediaDir: f.mediaDir, now: new Date(f.clock.now) }));
});
afterEach(() => f.cleanup());

const urlOf = (query: string) => f.call('GET', `/online_conferences/${conf}/recordings/${rec}/url${query}`);

describe('recording URL expiry (decisions §7, §10 message family)', () => {
  it('calls a whole number outside 1..604800 out of range, not "not an integer"', async () => {
    const between = 'The expiry field must be between 1 and 604800.';
    for (const value of ['-5', '-0']) {
      const res = await urlOf(`?expiry=${value}`);
      expect([res.status, res.json()], value).toEqual([400, { message: between, errors: { expiry: [between] } }]);
    }
    for (const value of ['-', '+5', '1e3', '99999999999999999999']) {
      const res = await urlOf(`?expiry=${encodeURIComponent(value)}`);
      expect([res.status, res.json().errors], value).toEqual([400, { expiry: ['The expiry field must be an integer.'] }]);
    }
  });

  it('still takes an empty value as the default (length + 600 s)', async () => {
    const res = await urlOf('?expiry=');
    expect([res.status, res.json().data.expires_at]).toEqual([200, '2026-03-01T12:11:00.000Z']);
  });
});
