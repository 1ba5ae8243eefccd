import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endConference, finishRecording, startConference } from '../../src/admin/lifecycle.js';
import { serveRecording, storeFileResolver } from '../../src/media/serve-recording.js';
import { recordingExpiresAt, signRecordingUrl } from '../../src/media/signing.js';
import { wavDurationSeconds } from '../../src/media/wav.js';
import { setup } from '../admin/fixture.js';
import { atOnce } from '../at-once.js';

/** The whole path: a recording finished by the admin side, linked, then served from the store. */
describe('recording links over the real store', () => {
  const secret = 'instance-secret';
  const now = new Date('2026-03-01T12:00:00.000Z');
  let f: ReturnType<typeof setup>;
  let dir: string;
  let server: Server;
  let origin: string;
  let finishedId: number;
  let processingId: number;

  beforeAll(async () => {
    f = setup();
    dir = mkdtempSync(path.join(tmpdir(), 'confctl-media-store-'));
    const mediaDir = path.join(dir, 'media');
    const { recording } = atOnce(startConference(f.store, f.tenantId, f.conference.id, new Date('2026-03-01T10:00:00.000Z')));
    atOnce(endConference(f.store, f.tenantId, f.conference.id, new Date('2026-03-01T10:00:03.000Z')));
    finishedId = atOnce(finishRecording(f.store, f.tenantId, recording.id, { mediaDir, now })).id;
    const second = f.store.conferences.insert(f.tenantId, { online_conference_account_id: f.account.id, public_id: 'b', title: 'B', is_public: true });
    processingId = atOnce(startConference(f.store, f.tenantId, second.id, now)).recording.id;
    server = createServer((req, res) => {
      void serveRecording(req, res, { mediaDir, secret, now, resolveFile: storeFileResolver(f.store, f.tenantId) });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    f.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a Finished recording by its signed link', async () => {
    const rec = f.store.recordings.get(f.tenantId, finishedId)!;
    const expiresAt = recordingExpiresAt(rec, undefined, now);
    expect(expiresAt.toISOString()).toBe('2026-03-01T12:10:03.000Z');
    const res = await fetch(signRecordingUrl({ origin, recordingId: rec.id, fileName: rec.file_name!, expiresAt, secret }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(readFileSync(path.join(dir, 'media', rec.path!)))).toBe(true);
    expect(wavDurationSeconds(body)).toBe(3);
  });

  it('answers 404 for a wrong file name, another tenant, or a recording not Finished', async () => {
    const expiresAt = new Date(now.getTime() + 60_000);
    const links = [
      signRecordingUrl({ origin, recordingId: finishedId, fileName: 'other.wav', expiresAt, secret }),
      signRecordingUrl({ origin, recordingId: processingId, fileName: `rec-${processingId}.wav`, expiresAt, secret }),
    ];
    for (const link of links) expect((await fetch(link)).status).toBe(404);
    const otherTenant = storeFileResolver(f.store, f.otherTenantId);
    expect(await otherTenant(finishedId, `rec-${finishedId}.wav`)).toBeUndefined();
  });
});
