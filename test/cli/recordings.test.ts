import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseExpiry } from '../../src/cli/commands/recordings/index.js';
import { runCli } from '../../src/cli/main.js';
import { progressLine } from '../../src/cli/progress/bar.js';
import { type Fake, fake, JSON_HEADERS, ORIGIN, page, TEXT_HEADERS, withProfile } from './helpers.js';
import { tempDir } from '../tmp.js';

let f: Fake;
let dir: string;
// The download goes to the temporary URL's origin: the file's scripted server (helpers.ts).
beforeEach(() => {
  dir = tempDir('confctl-rec-');
});
afterEach(() => f?.agent.assertNoPendingInterceptors());
const api = () => f.agent.get(ORIGIN);
const P = '/api/public/v2.0';
const MEDIA = '/media/recordings/5/talk.wav?expires=1769855400&signature=abc123';
const TEMP = { url: `${ORIGIN}${MEDIA}`, expires_at: '2026-01-31T10:30:00.000Z' };
const RECORDING = { id: 5, online_conference_id: 3, status: 3, file_name: 'talk.wav', started_at: '2026-01-30T09:00:00.000Z', stopped_at: '2026-01-30T09:30:00.000Z' };

async function setup(opts: Parameters<typeof fake>[0] = {}) {
  f = await withProfile(opts);
  api().intercept({ path: `${P}/online_conferences/3/recordings/5/url`, method: 'GET' }).reply(200, { message: 'OK', data: TEMP }, JSON_HEADERS);
}
/** Bytes of every value, non-UTF-8 sequences included. */
const AUDIO = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
const serveMedia = (status = 200, body: Buffer | string = AUDIO) =>
  api().intercept({ path: MEDIA, method: 'GET' }).reply(status, body, { headers: { 'content-length': String(Buffer.byteLength(body)), 'content-type': 'audio/wav' } });

describe('recordings list and url', () => {
  it('list prints the recordings of a conference', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/online_conferences/3/recordings?page_size=5`, method: 'GET' }).reply(200, page([RECORDING]), JSON_HEADERS);
    expect(await f.run(['recordings', 'list', '3', '--page-size', '5'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual([RECORDING]);
  });

  it('url prints {url, expires_at} as JSON, passing --expiry', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/online_conferences/3/recordings/5/url?expiry=3600`, method: 'GET' }).reply(200, { message: 'OK', data: TEMP }, JSON_HEADERS);
    expect(await f.run(['recordings', 'url', '3', '5', '--expiry', '3600'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual(TEMP);
  });

  it('url of a recording that is not finished → exit 5', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/online_conferences/3/recordings/5/url`, method: 'GET' }).reply(409, 'Online Conference Recording is not Finished.', TEXT_HEADERS);
    expect(await f.run(['recordings', 'url', '3', '5'])).toBe(5);
    expect(f.stderr()).toContain('Online Conference Recording is not Finished.');
  });

  it('checks --expiry before any request', () => {
    expect(parseExpiry('60')).toBe(60);
    for (const bad of ['0', '-1', '1.5', 'x', '604801', '']) expect(() => parseExpiry(bad)).toThrow(/--expiry must be whole seconds/);
  });
});

describe('recordings url --download', () => {
  it('writes exactly the served bytes, no progress off a terminal, one summary line', async () => {
    await setup();
    serveMedia();
    const file = join(dir, 'talk.wav');
    expect(await f.run(['recordings', 'url', '3', '5', '--download', file])).toBe(0);
    expect(readFileSync(file).equals(AUDIO)).toBe(true);
    expect(f.stdout()).toBe('');
    expect(f.stderr()).toBe(`Downloaded 70000 bytes (68.4 KiB) to ${file} in 0.0 s\n`);
  });

  it('- writes the bytes to stdout', async () => {
    await setup();
    serveMedia(200, 'RIFF....WAVEfmt ');
    expect(await f.run(['recordings', 'url', '3', '5', '--download', '-'])).toBe(0);
    expect(f.stdout()).toBe('RIFF....WAVEfmt ');
    expect(f.stderr()).toContain('to stdout');
  });

  it('shows a progress bar when stderr is a terminal', async () => {
    await setup();
    serveMedia();
    let err = '';
    const ctx = { ...f.ctx, streams: { ...f.ctx.streams, stderr: { write: (s: string) => (err += s), isTTY: true } } };
    expect(await runCli(['recordings', 'url', '3', '5', '--download', join(dir, 'a.wav')], ctx)).toBe(0);
    expect(err).toContain('\r[########################################] 100%  68.4 KiB / 68.4 KiB');
    expect(err).toMatch(/Downloaded 70000 bytes/);
  });

  it.each([
    [403, 'Invalid signature.', 3, 'error: recording link refused (403): Invalid signature.'],
    [404, 'Resource object does not exist.', 4, 'error: recording file not found (404): Resource object does not exist.'],
  ])('media %i → exit %i, nothing written', async (status, body, code, line) => {
    await setup();
    serveMedia(status, body);
    const file = join(dir, 'x.wav');
    expect(await f.run(['recordings', 'url', '3', '5', '--download', file])).toBe(code);
    expect(f.stderr().split('\n')[0]).toBe(line);
    expect(existsSync(file)).toBe(false);
  });

  it('a network error → exit 8, the signature kept out of the message', async () => {
    await setup();
    api().intercept({ path: MEDIA, method: 'GET' }).replyWithError(new Error('socket hang up'));
    const file = join(dir, 'x.wav');
    expect(await f.run(['recordings', 'url', '3', '5', '--download', file])).toBe(8);
    expect(f.stderr()).toContain(`error: GET ${ORIGIN}/media/recordings/5/talk.wav: `);
    expect(f.stderr()).not.toContain('signature');
    expect(existsSync(file)).toBe(false);
  });

  it('refuses to write a recording to a terminal', async () => {
    await setup({ tty: true });
    expect(await f.run(['recordings', 'url', '3', '5', '--download', '-'])).toBe(2);
    expect(f.stderr()).toContain('refusing to write a recording to a terminal');
  });
});

describe('progress line and help', () => {
  it('renders bytes, total and percentage', () => {
    expect(progressLine(512, 1024, 80)).toBe(`[${'#'.repeat(20)}${'-'.repeat(20)}]  50%  512 B / 1.0 KiB`);
    expect(progressLine(2048, undefined, 80)).toBe('2.0 KiB received');
  });

  it.each([
    [['list'], 'confctl recordings list 3'],
    [['url'], 'confctl recordings url 3 5 --expiry 3600 --download talk.wav'],
  ])('recordings %j --help shows an example', async (sub, example) => {
    f = fake();
    expect(await f.run(['recordings', ...sub, '--help'])).toBe(0);
    expect(f.stdout()).toContain(`Example:\n  $ ${example}`);
  });
});

