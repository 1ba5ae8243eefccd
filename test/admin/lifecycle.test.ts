import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminError } from '../../src/admin/errors.js';
import { endConference, failRecording, finishRecording, GENERATED_WAV_MAX_SECONDS, startConference } from '../../src/admin/lifecycle.js';
import { RECORDING_STATUS } from '../../src/contract/resources.js';
import { wavDurationSeconds } from '../../src/media/wav.js';
import { setup } from './fixture.js';
import { atOnce } from '../at-once.js';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const t1 = new Date('2026-03-01T10:00:12.500Z');
const t2 = new Date('2026-03-01T10:05:00.000Z');

let f: ReturnType<typeof setup>;
let dir: string;
let mediaDir: string;
beforeEach(() => {
  f = setup();
  dir = mkdtempSync(path.join(tmpdir(), 'confctl-admin-'));
  mediaDir = path.join(dir, 'media');
});
afterEach(() => {
  f.store.close();
  rmSync(dir, { recursive: true, force: true });
});

function expectAdminError(fn: () => unknown, kind: AdminError['kind'], message?: RegExp) {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(AdminError);
  expect((caught as AdminError).kind).toBe(kind);
  if (message) expect((caught as AdminError).message).toMatch(message);
}

const recordings = () => f.store.recordings.listByConference(f.conference.id, { page_size: 100, page_number: 1 }).rows;

describe('startConference / endConference', () => {
  it('starts: sets started_at and begins a recording', () => {
    const { conference, recording } = atOnce(startConference(f.store, f.tenantId, f.conference.id, t0));
    expect(conference.started_at).toBe(t0.toISOString());
    expect(recording).toMatchObject({ status: RECORDING_STATUS.Recording, started_at: t0.toISOString(), stopped_at: null });
    const stored = f.store.conferences.get(f.tenantId, f.conference.id)!;
    expect(stored).toMatchObject({ started_at: t0.toISOString(), ended_at: null, is_occurred: true });
    expect(recordings()).toEqual([expect.objectContaining({ id: recording.id, status: 1, online_conference_id: f.conference.id })]);
  });

  it('refuses to start twice, or a conference of another tenant', () => {
    atOnce(startConference(f.store, f.tenantId, f.conference.id, t0));
    expectAdminError(() => atOnce(startConference(f.store, f.tenantId, f.conference.id, t1)), 'conflict', /already started/);
    expect(f.store.conferences.get(f.tenantId, f.conference.id)!.started_at).toBe(t0.toISOString());
    expect(recordings()).toHaveLength(1);
    expectAdminError(() => atOnce(startConference(f.store, f.otherTenantId, f.conference.id, t0)), 'not_found');
    expectAdminError(() => atOnce(startConference(f.store, f.tenantId, 9999, t0)), 'not_found');
  });

  it('ends: sets ended_at and moves running recordings to Processing', () => {
    const { recording } = atOnce(startConference(f.store, f.tenantId, f.conference.id, t0));
    const ended = atOnce(endConference(f.store, f.tenantId, f.conference.id, t2));
    expect(ended.conference.ended_at).toBe(t2.toISOString());
    expect(ended.recordings.map((r) => r.id)).toEqual([recording.id]);
    expect(f.store.conferences.get(f.tenantId, f.conference.id)!.ended_at).toBe(t2.toISOString());
    expect(f.store.recordings.get(f.tenantId, recording.id)).toMatchObject({ status: RECORDING_STATUS.Processing, stopped_at: t2.toISOString() });
  });

  it('ends only a started conference that has not ended', () => {
    expectAdminError(() => atOnce(endConference(f.store, f.tenantId, f.conference.id, t2)), 'conflict', /not started/);
    expect(f.store.conferences.get(f.tenantId, f.conference.id)!.ended_at).toBeNull();
    atOnce(startConference(f.store, f.tenantId, f.conference.id, t0));
    atOnce(endConference(f.store, f.tenantId, f.conference.id, t1));
    expectAdminError(() => atOnce(endConference(f.store, f.tenantId, f.conference.id, t2)), 'conflict', /already ended/);
    expect(f.store.conferences.get(f.tenantId, f.conference.id)!.ended_at).toBe(t1.toISOString());
  });

  it('leaves recordings that are no longer running alone when ending', () => {
    const { recording } = atOnce(startConference(f.store, f.tenantId, f.conference.id, t0));
    atOnce(failRecording(f.store, f.tenantId, recording.id, { now: t1 }));
    const ended = atOnce(endConference(f.store, f.tenantId, f.conference.id, t2));
    expect(ended.recordings).toEqual([]);
    expect(f.store.recordings.get(f.tenantId, recording.id)).toMatchObject({ status: RECORDING_STATUS.Failed, stopped_at: t1.toISOString() });
  });
});

describe('finishRecording / failRecording', () => {
  function processing() {
    const { recording } = atOnce(startConference(f.store, f.tenantId, f.conference.id, t0));
    atOnce(endConference(f.store, f.tenantId, f.conference.id, t1));
    return recording.id;
  }

  it('copies a given file byte for byte into the media directory', () => {
    const id = processing();
    const source = path.join(dir, 'Talk.MP4');
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256));
    writeFileSync(source, bytes);
    const finished = atOnce(finishRecording(f.store, f.tenantId, id, { mediaDir, file: source, now: t2 }));
    const stored = f.store.recordings.get(f.tenantId, id)!;
    expect(stored).toEqual(finished);
    expect(stored).toMatchObject({ status: RECORDING_STATUS.Finished, path: `recordings/rec-${id}.mp4`, file_name: `rec-${id}.mp4`, stopped_at: t1.toISOString() });
    expect(readFileSync(path.join(mediaDir, stored.path!)).equals(bytes)).toBe(true);
    expect(readdirSync(path.join(mediaDir, 'recordings'))).toEqual([`rec-${id}.mp4`]); // no temporary files left
  });

  it('without a file writes a WAV as long as the recording', () => {
    const id = processing();
    const finished = atOnce(finishRecording(f.store, f.tenantId, id, { mediaDir, now: t2 }));
    expect(finished).toMatchObject({ status: RECORDING_STATUS.Finished, path: `recordings/rec-${id}.wav`, file_name: `rec-${id}.wav` });
    expect(wavDurationSeconds(readFileSync(path.join(mediaDir, finished.path!)))).toBe(12.5);
  });

  it('finishes a still-running recording, stopping it now, and caps the generated length', () => {
    const { recording } = atOnce(startConference(f.store, f.tenantId, f.conference.id, t0));
    const finished = atOnce(finishRecording(f.store, f.tenantId, recording.id, { mediaDir, now: t2 }));
    expect(finished).toMatchObject({ status: RECORDING_STATUS.Finished, stopped_at: t2.toISOString() });
    expect(wavDurationSeconds(readFileSync(path.join(mediaDir, finished.path!)))).toBe(GENERATED_WAV_MAX_SECONDS);
  });

  it('refuses to finish or fail a recording that is Finished or Failed, and writes no file', () => {
    const id = processing();
    atOnce(finishRecording(f.store, f.tenantId, id, { mediaDir, now: t2 }));
    const before = f.store.recordings.get(f.tenantId, id)!;
    expectAdminError(() => atOnce(finishRecording(f.store, f.tenantId, id, { mediaDir, now: t2 })), 'conflict', /is Finished/);
    expectAdminError(() => atOnce(failRecording(f.store, f.tenantId, id, { now: t2 })), 'conflict');
    expect(f.store.recordings.get(f.tenantId, id)).toEqual(before);

    const { recording } = atOnce(startConference(f.store, f.tenantId, f.store.conferences.insert(f.tenantId, {
      online_conference_account_id: f.account.id, public_id: 'second', title: 'Second', is_public: true,
    }).id, t0));
    expect(atOnce(failRecording(f.store, f.tenantId, recording.id, { now: t2 }))).toMatchObject({ status: RECORDING_STATUS.Failed, stopped_at: t2.toISOString() });
    expectAdminError(() => atOnce(finishRecording(f.store, f.tenantId, recording.id, { mediaDir, now: t2 })), 'conflict', /is Failed/);
    expect(readdirSync(path.join(mediaDir, 'recordings'))).toEqual([`rec-${id}.wav`]);
  });

  it('fails a Processing recording keeping its stopped_at', () => {
    const id = processing();
    expect(atOnce(failRecording(f.store, f.tenantId, id, { now: t2 }))).toMatchObject({ status: RECORDING_STATUS.Failed, stopped_at: t1.toISOString() });
    expect(f.store.recordings.get(f.tenantId, id)).toMatchObject({ status: RECORDING_STATUS.Failed, stopped_at: t1.toISOString(), path: null });
  });

  it('reports a missing source file or recording and changes nothing', () => {
    const id = processing();
    expectAdminError(() => atOnce(finishRecording(f.store, f.tenantId, id, { mediaDir, file: path.join(dir, 'nope.wav'), now: t2 })), 'invalid');
    expectAdminError(() => atOnce(finishRecording(f.store, f.tenantId, id, { mediaDir, file: dir, now: t2 })), 'invalid');
    expect(f.store.recordings.get(f.tenantId, id)!.status).toBe(RECORDING_STATUS.Processing);
    expectAdminError(() => atOnce(finishRecording(f.store, f.otherTenantId, id, { mediaDir, now: t2 })), 'not_found');
    expectAdminError(() => atOnce(failRecording(f.store, f.tenantId, 9999, { now: t2 })), 'not_found');
  });
});

describe('stored file names', () => {
  it('keeps only a plain extension of the source file', () => {
    const { recording } = atOnce(startConference(f.store, f.tenantId, f.conference.id, t0));
    const source = path.join(dir, 'odd.we ird');
    writeFileSync(source, 'x');
    const finished = atOnce(finishRecording(f.store, f.tenantId, recording.id, { mediaDir, file: source, now: t2 }));
    expect(finished).toMatchObject({ path: `recordings/rec-${recording.id}`, file_name: `rec-${recording.id}` });
    expect(readFileSync(path.join(mediaDir, finished.path!), 'utf8')).toBe('x');
  });
});
