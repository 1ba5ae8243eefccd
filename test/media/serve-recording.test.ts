import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync, symlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveRecording } from '../../src/media/serve-recording.js';
import { signRecordingUrl } from '../../src/media/signing.js';

const secret = 'serve-secret';
const now = new Date('2026-02-01T12:00:00.000Z');
const later = new Date('2026-02-01T13:00:00.000Z');

let root: string;
let mediaDir: string;
let server: Server;
let origin: string;
const content = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7) % 256));
/** recording id → path relative to mediaDir, as the server's store lookup would answer. */
const files = new Map<number, string>();
/** Recordings whose links were revoked (their conference was deleted). */
const revoked = new Set<number>([6]);

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'confctl-media-'));
  mediaDir = path.join(root, 'media');
  mkdirSync(mediaDir);
  writeFileSync(path.join(mediaDir, 'rec-1.wav'), content);
  writeFileSync(path.join(mediaDir, 'rec-2.bin'), Buffer.alloc(0));
  writeFileSync(path.join(root, 'secret.txt'), 'outside the media directory');
  symlinkSync(path.join(root, 'secret.txt'), path.join(mediaDir, 'link.wav'));
  files.set(1, 'rec-1.wav');
  files.set(2, 'rec-2.bin');
  files.set(3, 'gone.wav');
  files.set(4, '../secret.txt');
  files.set(5, 'link.wav');
  files.set(6, 'rec-1.wav');
  server = createServer((req, res) => {
    void serveRecording(req, res, {
      mediaDir,
      secret,
      now: () => now,
      // Deliberately naive: answers whatever path it was told, so the handler must contain it.
      resolveFile: (id) => files.get(id),
      isRevoked: (id) => revoked.has(id),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const link = (recordingId: number, fileName = 'rec-1.wav', expiresAt = later) =>
  signRecordingUrl({ origin, recordingId, fileName, expiresAt, secret });

describe('serveRecording over a real HTTP server', () => {
  it('a revoked recording answers 403 like a bad signature, even with a valid link to an existing file', async () => {
    const res = await fetch(link(6));
    expect([res.status, await res.text()]).toEqual([403, 'Invalid signature.']);
  });

  it('GET answers the whole file byte for byte', async () => {
    const res = await fetch(link(1));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(res.headers.get('etag')).toBeTruthy();
    expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
  });

  it('HEAD answers the headers only', async () => {
    const res = await fetch(link(1), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, 999],
    ['bytes=-50', 950, 999],
    ['bytes=990-5000', 990, 999],
    ['bytes=-5000', 0, 999],
  ])('Range %s answers 206 with exactly those bytes', async (range, start, end) => {
    const res = await fetch(link(1), { headers: { Range: range } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/1000`);
    expect(res.headers.get('content-length')).toBe(String(end - start + 1));
    expect(Buffer.from(await res.arrayBuffer()).equals(content.subarray(start, end + 1))).toBe(true);
  });

  it('HEAD with a Range answers 206 headers', async () => {
    const res = await fetch(link(1), { method: 'HEAD', headers: { Range: 'bytes=0-9' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 0-9/1000');
    expect(res.headers.get('content-length')).toBe('10');
  });

  it.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])('unsatisfiable %s is 416 with Content-Range bytes */SIZE', async (range) => {
    const res = await fetch(link(1), { headers: { Range: range } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */1000');
  });

  it('ignores malformed and multi ranges (whole file, 200)', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=9-3', 'bytes=x']) {
      const res = await fetch(link(1), { headers: { Range: range } });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).length).toBe(1000);
    }
  });

  it('serves an empty file, and any range of it is 416', async () => {
    const res = await fetch(link(2, 'rec-2.bin'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-length')).toBe('0');
    const ranged = await fetch(link(2, 'rec-2.bin'), { headers: { Range: 'bytes=0-' } });
    expect(ranged.status).toBe(416);
    expect(ranged.headers.get('content-range')).toBe('bytes */0');
  });

  it('403 Invalid signature. on an altered, expired or missing signature', async () => {
    const good = new URL(link(1));
    const altered = [
      good.href.replace(/signature=(.)/, (_, c) => `signature=${c === 'a' ? 'b' : 'a'}`),
      good.href.replace('/recordings/1/', '/recordings/2/'),
      good.href.replace('rec-1.wav', 'rec-2.wav'),
      good.href.replace(/expires=(\d+)/, (_, e) => `expires=${Number(e) + 60}`),
      `${origin}${good.pathname}`,
      `${origin}${good.pathname}?expires=${good.searchParams.get('expires')}`,
      link(1, 'rec-1.wav', new Date(now.getTime() - 1000)),
      link(1, 'rec-1.wav', now),
    ];
    for (const url of altered) {
      const res = await fetch(url);
      expect(res.status, url).toBe(403);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toBe('Invalid signature.');
    }
  });

  it('404 when the file is gone or the recording unknown', async () => {
    for (const url of [link(3, 'gone.wav'), link(99, 'x.wav')]) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toBe('Resource object does not exist.');
    }
  });

  it('never serves a file outside the media directory', async () => {
    // A resolver answering a relative path that climbs out, and a symlink pointing out.
    for (const url of [link(4, 'secret.txt'), link(5, 'link.wav')]) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('Resource object does not exist.');
    }
    // A signed file name that is itself a traversal is not a valid path segment.
    const raw = `${origin}/media/recordings/1/..%2F..%2Fsecret.txt?expires=1&signature=00`;
    expect((await fetch(raw)).status).toBe(404);
  });

  it('405 for other methods, 404 for other paths', async () => {
    const post = await fetch(link(1), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.text()).toBe('Method not allowed.');
    expect((await fetch(`${origin}/media/recordings/abc/rec-1.wav`)).status).toBe(404);
    expect((await fetch(`${origin}/media/recordings/1/a/b`)).status).toBe(404);
  });
});
