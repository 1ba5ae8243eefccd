import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { closeGracefully } from '../../src/server/index.js';
import { conferenceSetup, type ConferenceFixture, listen } from './conferences-fixture.js';

/** The join page's access-log line: token masked, status and key-less request recorded. */
let f: ConferenceFixture;
let out = '';
let origin: string;
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (c) => (out += c));
  f = conferenceSetup({ log: 'json', logStream: stream });
  origin = await listen(f.app.server);
});
afterAll(async () => {
  await closeGracefully(f.app.server, 1000);
  f.cleanup();
});

it('logs /rooms requests with the token written as ***', async () => {
  const conf = f.conference('logged');
  const attendee = f.store.attendees.findByEmail(conf.id, 'ada@acme.test')!.id;
  const { token } = (await f.call('POST', `/online_conferences/${conf.id}/attendees/${attendee}/join_token`)).json().data;
  const page = await fetch(`${origin}/rooms/logged?token=${token}`);
  expect(page.status).toBe(200);
  await page.text();
  await fetch(`${origin}/rooms/logged?token=${token}x`).then((r) => r.text());
  // A line is written when the server side of the response closes, which may follow the client's read.
  const rooms = () => out.trim().split('\n').map((l) => JSON.parse(l)).filter((r) => r.path.startsWith('/rooms/'));
  await vi.waitFor(() => expect(rooms()).toHaveLength(2));
  const lines = rooms();
  expect(lines.map((r) => [r.method, r.path, r.status, r.key_id])).toEqual([
    ['GET', '/rooms/logged?token=***', 200, null],
    ['GET', '/rooms/logged?token=***', 403, null],
  ]);
  expect(out).not.toContain(token.split('.')[3]);
});
