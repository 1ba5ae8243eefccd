import { afterAll, beforeAll, expect, it } from 'vitest';
import { endConference, finishRecording, startConference } from '../../src/admin/lifecycle.js';
import { closeGracefully } from '../../src/server/index.js';
import { conferenceSetup, type ConferenceFixture, listen } from './conferences-fixture.js';
import { API } from './fixtures.js';
import { atOnce } from '../at-once.js';

/**
 * The promise of docs/local-server.md "media links are not rate limited", tried with limits on: 1 request per
 * window per client and per tenant, on the fixture's frozen clock (one window for the whole test).
 */
let f: ConferenceFixture;
let origin: string;
let link: string;
beforeAll(async () => {
  f = conferenceSetup({ rateLimit: { client: 1, tenant: 1 } });
  origin = await listen(f.app.server);
  const conf = f.conference('limited').id;
  const rec = atOnce(startConference(f.store, f.tenant.id, conf, new Date('2026-03-01T10:00:00.000Z'))).recording.id;
  atOnce(endConference(f.store, f.tenant.id, conf, new Date('2026-03-01T10:00:01.000Z')));
  atOnce(finishRecording(f.store, f.tenant.id, rec, { mediaDir: f.mediaDir, now: new Date(f.clock.now) }));
  const res = await fetch(`${origin}${API}/online_conferences/${conf}/recordings/${rec}/url`, { headers: f.admin });
  expect(res.status).toBe(200);
  link = ((await res.json()) as { data: { url: string } }).data.url;
});
afterAll(async () => {
  await closeGracefully(f.app.server, 1000);
  f.cleanup();
});

it('a used-up window refuses the API (429) but still serves the recording link, again and again', async () => {
  const api = await fetch(`${origin}${API}/users`, { headers: f.admin });
  expect([api.status, await api.text()]).toEqual([429, 'Too many requests.']);
  for (let i = 0; i < 5; i++) {
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(res.headers.get('retry-after')).toBeNull();
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(44);
  }
});
