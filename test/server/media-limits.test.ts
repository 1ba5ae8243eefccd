import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { endConference, finishRecording, startConference } from '../../src/admin/lifecycle.js';
import { closeGracefully } from '../../src/server/index.js';
import { conferenceSetup, listen, type ConferenceFixture } from './conferences-fixture.js';
import { atOnce } from '../at-once.js';

let f: ConferenceFixture;
afterEach(async () => {
  await closeGracefully(f.app.server, 1000);
  f.cleanup();
});

it('media links are not rate limited, and do not spend the API budget (limits on, one frozen window)', async () => {
  f = conferenceSetup({ rateLimit: { client: 5, tenant: 10 } });
  const conf = f.conference().id;
  const rec = atOnce(startConference(f.store, f.tenant.id, conf, new Date('2026-03-01T10:00:00.000Z'))).recording.id;
  atOnce(endConference(f.store, f.tenant.id, conf, new Date('2026-03-01T10:00:02.000Z')));
  const source = path.join(f.dir, 'talk.wav');
  writeFileSync(source, Buffer.alloc(1000, 7));
  atOnce(finishRecording(f.store, f.tenant.id, rec, { mediaDir: f.mediaDir, file: source, now: new Date(f.clock.now) }));
  const origin = await listen(f.app.server);
  const api = `${origin}/api/public/v2.0/online_conferences/${conf}/recordings/${rec}/url?expiry=60`;
  const first = await fetch(api, { headers: f.admin });
  expect([first.status, first.headers.get('ratelimit-remaining')]).toEqual([200, '4']);
  const link = ((await first.json()) as { data: { url: string } }).data.url;
  for (let i = 0; i < 30; i++) {
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
    expect((await res.arrayBuffer()).byteLength).toBe(1000);
  }
  // Thirty downloads later the key has spent only the one API request of this window.
  const second = await fetch(api, { headers: f.admin });
  expect([second.status, second.headers.get('ratelimit-remaining')]).toEqual([200, '3']);
});
