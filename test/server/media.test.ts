import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endConference, finishRecording, startConference } from '../../src/admin/lifecycle.js';
import { closeGracefully } from '../../src/server/index.js';
import { conferenceSetup, listen, type ConferenceFixture } from './conferences-fixture.js';
import { atOnce } from '../at-once.js';

let f: ConferenceFixture;
let origin: string;
let log: string;
let file: Buffer;
let link: string;
let rec: number;

beforeEach(async () => {
  const stream = new PassThrough();
  log = '';
  stream.on('data', (chunk) => (log += chunk));
  f = conferenceSetup({ log: 'json', logStream: stream });
  const conf = f.conference().id;
  rec = atOnce(startConference(f.store, f.tenant.id, conf, new Date('2026-03-01T10:00:00.000Z'))).recording.id;
  atOnce(endConference(f.store, f.tenant.id, conf, new Date('2026-03-01T10:00:02.000Z')));
  const source = path.join(f.dir, 'talk.wav');
  writeFileSync(source, Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256)));
  const stored = atOnce(finishRecording(f.store, f.tenant.id, rec, { mediaDir: f.mediaDir, file: source, now: new Date(f.clock.now) }));
  file = readFileSync(path.join(f.mediaDir, stored.path!));
  origin = await listen(f.app.server);
  // The link is asked for over the API, so its origin is the listening server.
  const res = await fetch(`${origin}/api/public/v2.0/online_conferences/${conf}/recordings/${rec}/url?expiry=60`, { headers: f.admin });
  expect(res.status).toBe(200);
  link = ((await res.json()) as { data: { url: string } }).data.url;
});
afterEach(async () => {
  await closeGracefully(f.app.server, 1000);
  f.cleanup();
});

/** A GET with a chosen Host header (fetch does not let one set it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    }).on('error', reject);
  });
}

describe('recording links over the real server', () => {
  it('downloads the stored file byte for byte, with ids and a masked access log', async () => {
    expect(link.startsWith(`${origin}/media/recordings/${rec}/rec-${rec}.wav?expires=`)).toBe(true);
    const res = await fetch(link, { headers: { 'x-request-id': 'media-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('content-length')).toBe(String(file.length));
    expect(res.headers.get('x-request-id')).toBe('media-1');
    expect(res.headers.get('x-process-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(file)).toBe(true);
    // The record is written when the response closes, which may follow the client's last byte.
    const find = () => log.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)).find((r) => r.request_id === 'media-1');
    for (let i = 0; i < 50 && !find(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const entry = find();
    const signature = new URL(link).searchParams.get('signature')!;
    expect(entry).toMatchObject({ method: 'GET', status: 200, key_id: null });
    expect(entry.path).toBe(`/media/recordings/${rec}/rec-${rec}.wav?expires=${new URL(link).searchParams.get('expires')}&signature=***`);
    expect(log).not.toContain(signature);
  });

  it('answers a Range with exactly the asked bytes (206)', async () => {
    const res = await fetch(link, { headers: { range: 'bytes=100-199' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-199/${file.length}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(file.subarray(100, 200))).toBe(true);
    const tail = await fetch(link, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(file.subarray(file.length - 10))).toBe(true);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await fetch(link, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(file.length));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('x-process-id')).toBeTruthy();
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers an unsatisfiable Range with 416 and the size', async () => {
    const res = await fetch(link, { headers: { range: `bytes=${file.length}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${file.length}`);
  });

  it('answers 403 for an altered or expired link', async () => {
    const url = new URL(link);
    const sig = url.searchParams.get('signature')!;
    url.searchParams.set('signature', (sig[0] === '0' ? '1' : '0') + sig.slice(1));
    let res = await fetch(url);
    expect([res.status, await res.text()]).toEqual([403, 'Invalid signature.']);
    const longer = new URL(link);
    longer.searchParams.set('expires', String(Number(longer.searchParams.get('expires')) + 3600));
    expect((await fetch(longer)).status).toBe(403);
    f.clock.now += 60_000;
    res = await fetch(link);
    expect([res.status, await res.text()]).toEqual([403, 'Invalid signature.']);
  });

  it('resolves the tenant by Host: unknown is 404, another tenant has no such recording', async () => {
    const unknown = await getWithHost(link, 'nobody.test');
    expect([unknown.status, unknown.body]).toEqual([404, 'Unknown tenant.']);
    expect(unknown.headers['x-process-id']).toBeTruthy();
    const other = await getWithHost(link, 'other.test');
    expect([other.status, other.body]).toEqual([404, 'Resource object does not exist.']);
    expect((await getWithHost(link, 'LOCALHOST')).status).toBe(200);
  });

  it('answers 405 for another method', async () => {
    const res = await fetch(link, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('maskPath', () => {
  it('masks signature values however the name is encoded, keeping the rest as sent', async () => {
    const { maskPath } = await import('../../src/server/access-log.js');
    expect(maskPath('/media/recordings/1/a.wav?expires=9&signature=abc&x=1')).toBe('/media/recordings/1/a.wav?expires=9&signature=***&x=1');
    expect(maskPath('/m?%73ignature=abc&SIGNATURE=def')).toBe('/m?%73ignature=***&SIGNATURE=***');
    expect(maskPath('/users?page_size=5')).toBe('/users?page_size=5');
    expect(maskPath('/users')).toBe('/users');
  });
});
