import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * A conference's life through the built bin: `serve --demo`, create with attendees, fill to the
 * maximum and past it, start and end it with `admin`, finish the recording with a file, and
 * download it through the signed URL. On PostgreSQL the admin commands reach the database
 * through CONFCTL_DATABASE_URL, and the recording file goes to the media directory that
 * `serve --database` reads (the sandbox data directory's media/).
 */
describe.each(BACKENDS)('e2e: the life of a conference (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  const media = randomBytes(256 * 1024 + 17);
  const mediaFile = join(box.root, 'talk.wav');
  let conferenceId: number;
  let recordingId: number;

  beforeAll(async () => {
    writeFileSync(mediaFile, media);
    await box.serve(['--demo', '--rate-limit', 'off']);
  });
  afterAll(() => box.dispose());

  it('creates a conference: the account owner attends, attendees match users, customers or nothing', async () => {
    const [account] = await box.json<any[]>(['users', 'accounts', '1']);
    const owner = await box.json(['users', 'get', '1']);
    const customer = (await box.json<any[]>(['customers', 'list', '--page-size', '1']))[0];
    const grace = (await box.json<any[]>(['users', 'list', '--filter', 'first_name=Grace']))[0];
    const conference = await box.json([
      'conferences', 'create', '--account', String(account.id), '--public-id', 'e2e-life', '--title', 'E2E life', '--private',
      '--attendee', `Grace <${grace.email.toUpperCase()}>`, '--attendee', `${customer.name} <${customer.email}>`, '--attendee', 'Stranger <stranger@example.com>',
    ]);
    expect(conference).toMatchObject({ public_id: 'e2e-life', title: 'E2E life', is_public: false, is_occurred: false, started_at: null, online_conference_account_id: account.id });
    conferenceId = conference.id;

    const attendees = await box.json<any[]>(['conferences', 'attendees', 'list', String(conferenceId)]);
    const byEmail = Object.fromEntries(attendees.map((a) => [a.email.toLowerCase(), a]));
    expect(attendees).toHaveLength(4);
    expect(byEmail[owner.email.toLowerCase()]).toMatchObject({ attendee_type: 'User', attendee_id: 1 });
    expect(byEmail[grace.email.toLowerCase()]).toMatchObject({ attendee_type: 'User', attendee_id: grace.id });
    expect(byEmail[customer.email.toLowerCase()]).toMatchObject({ attendee_type: 'Customer', attendee_id: customer.id });
    expect(byEmail['stranger@example.com']).toMatchObject({ attendee_type: null, attendee_id: null });
  });

  it('adds attendees up to the maximum (5 besides the owner) and refuses more with exit 5', async () => {
    const id = String(conferenceId);
    const added = await box.json<any[]>(['conferences', 'attendees', 'add', id, '--attendee', 'Four <four@example.com>', '--attendee', 'Five <five@example.com>']);
    expect(added.map((a) => a.email)).toEqual(['four@example.com', 'five@example.com']);

    const past = await box.run(['conferences', 'attendees', 'add', id, '--attendee', 'Six <six@example.com>']);
    expect(past.code).toBe(5);
    expect(past.stderr).toContain('Cannot exceed maximum attendee count.');

    const again = await box.json<any[]>(['conferences', 'attendees', 'add', id, '--attendee', 'Five again <FIVE@example.com>']);
    expect(again).toHaveLength(1);
    expect(again[0].email).toBe('five@example.com');
    expect(await box.json<any[]>(['conferences', 'attendees', 'list', id])).toHaveLength(6);
  });

  it('starts the conference with admin: updates become 409 and the running recording has no URL', async () => {
    const started = await box.json(['admin', 'conferences', 'start', String(conferenceId)]);
    expect(started.conference.started_at).toMatch(/^\d{4}-/);
    expect(started.recording).toMatchObject({ status: 1, online_conference_id: conferenceId });
    recordingId = started.recording.id;

    const update = await box.run(['conferences', 'update', String(conferenceId), '--title', 'Too late']);
    expect(update.code).toBe(5);
    expect(update.stderr).toContain('Cannot modify an online conference that has started.');
    expect((await box.json(['conferences', 'get', String(conferenceId)])).title).toBe('E2E life');

    const url = await box.run(['recordings', 'url', String(conferenceId), String(recordingId)]);
    expect(url.code).toBe(5);
    expect(url.stderr).toContain('Online Conference Recording is not Finished.');
  });

  it('ends it, finishes the recording with a file, and downloads the same bytes through the signed URL', async () => {
    const ended = await box.json(['admin', 'conferences', 'end', String(conferenceId)]);
    expect(ended.conference.ended_at).toMatch(/^\d{4}-/);
    const finished = await box.json(['admin', 'recordings', 'finish', String(recordingId), '--file', mediaFile]);
    expect(finished).toMatchObject({ id: recordingId, status: 3 });

    const [listed] = await box.json<any[]>(['recordings', 'list', String(conferenceId)]);
    expect(listed).toMatchObject({ id: recordingId, status: 3, file_name: finished.file_name });

    const target = join(box.root, 'downloaded.wav');
    const download = await box.run(['recordings', 'url', String(conferenceId), String(recordingId), '--download', target]);
    expect(download.code).toBe(0);
    expect(readFileSync(target).equals(media)).toBe(true);

    const link = await box.json(['recordings', 'url', String(conferenceId), String(recordingId), '--expiry', '60']);
    const ranged = await fetch(link.url, { headers: { Range: 'bytes=1000-1999' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(media.subarray(1000, 2000))).toBe(true);
    const altered = link.url.replace(/signature=([0-9a-f])/, (_m: string, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    expect((await fetch(altered)).status).toBe(403);
  });

  it('reads a demo calendar event with its attendees', async () => {
    const event = await box.json(['events', 'get', '1', '1']);
    expect(event).toMatchObject({ id: 1, calendar_id: 1 });
    expect(event.attendees.length).toBeGreaterThan(0);
    expect((await box.run(['events', 'get', '2', '1'])).code).toBe(4);
  });
});
