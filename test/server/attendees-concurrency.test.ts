import { afterEach, beforeEach, expect, it } from 'vitest';
import { closeGracefully } from '../../src/server/index.js';
import { conferenceSetup, listen, type ConferenceFixture } from './conferences-fixture.js';

let f: ConferenceFixture;
let origin: string;
beforeEach(async () => {
  f = conferenceSetup();
  origin = await listen(f.app.server);
});
afterEach(async () => {
  await closeGracefully(f.app.server, 1000);
  f.cleanup();
});

it('never passes the maximum under 20 concurrent add requests over a real server', async () => {
  const conf = f.conference().id;
  const send = (i: number) =>
    fetch(`${origin}/api/public/v2.0/online_conferences/${conf}/attendees`, {
      method: 'POST',
      headers: { ...f.admin, 'content-type': 'application/json' },
      body: JSON.stringify([{ email: `c${i}@x.test`, name: `C${i}` }]),
    }).then(async (res) => ({ status: res.status, body: await res.text() }));
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i)));
  const ok = results.filter((r) => r.status === 200);
  const refused = results.filter((r) => r.status === 409);
  expect(ok).toHaveLength(5);
  expect(refused).toHaveLength(15);
  expect(new Set(refused.map((r) => r.body))).toEqual(new Set(['Cannot exceed maximum attendee count.']));
  expect(f.store.attendees.count(conf)).toBe(6);
  const stored = f.store.attendees.listByConference(conf, { page_size: 100, page_number: 1 }).rows.map((a) => a.email);
  expect(stored.slice(1).sort()).toEqual(ok.map((r) => JSON.parse(r.body).data[0].email).sort());
});
