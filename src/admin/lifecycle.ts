/**
 * The provider's side of conferences and recordings, which the API does not expose
 * (decisions §8): starting and ending a conference, and finishing or failing a recording.
 *
 * Transitions (decisions §7 status values):
 * - conference: not started → started (`started_at`; a recording starts with status 1) →
 *   ended (`ended_at`; its status-1 recordings become 2 Processing with `stopped_at`).
 * - recording: 1 Recording or 2 Processing → 3 Finished (with a media file) or 4 Failed.
 * Anything else is an `AdminError` of kind `conflict`; unknown ids are `not_found`.
 */
import { renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { RECORDING_STATUS } from '../contract/resources.js';
import type { OnlineConference, OnlineConferenceRecording } from '../contract/resources.js';
import type { Store } from '../store/types.js';
import { copyPrivateFile, ensurePrivateDir, writePrivateFile } from '../media/files.js';
import { generateWav } from '../media/wav.js';
import { AdminError } from './errors.js';

/** Generated recordings are capped to this many seconds so the files stay small. */
export const GENERATED_WAV_MAX_SECONDS = 30;

const STATUS_NAMES: Record<number, string> = Object.fromEntries(Object.entries(RECORDING_STATUS).map(([k, v]) => [v, k]));

function getConference(store: Store, tenantId: number, conferenceId: number): OnlineConference {
  const conference = store.conferences.get(tenantId, conferenceId);
  if (!conference) throw new AdminError('not_found', `Online conference ${conferenceId} does not exist.`);
  return conference;
}

function getOpenRecording(store: Store, tenantId: number, recordingId: number, action: string): OnlineConferenceRecording {
  const recording = store.recordings.get(tenantId, recordingId);
  if (!recording) throw new AdminError('not_found', `Recording ${recordingId} does not exist.`);
  if (recording.status !== RECORDING_STATUS.Recording && recording.status !== RECORDING_STATUS.Processing) {
    const status = STATUS_NAMES[recording.status] ?? String(recording.status);
    throw new AdminError('conflict', `Recording ${recordingId} is ${status}; only a Recording or Processing recording can be ${action}.`);
  }
  return recording;
}

/** Starts a conference: sets `started_at` and begins a recording (status 1) at the same instant. */
export function startConference(
  store: Store,
  tenantId: number,
  conferenceId: number,
  now: Date,
): { conference: OnlineConference; recording: OnlineConferenceRecording } {
  return store.transaction(() => {
    const before = getConference(store, tenantId, conferenceId);
    if (before.started_at) throw new AdminError('conflict', `Online conference ${conferenceId} has already started.`);
    const at = now.toISOString();
    const conference = store.conferences.update(tenantId, conferenceId, { started_at: at });
    const recording = store.recordings.insert(conferenceId, { status: RECORDING_STATUS.Recording, started_at: at });
    return { conference, recording };
  });
}

/** Ends a started conference: sets `ended_at`; its running recordings stop and become Processing. */
export function endConference(
  store: Store,
  tenantId: number,
  conferenceId: number,
  now: Date,
): { conference: OnlineConference; recordings: OnlineConferenceRecording[] } {
  return store.transaction(() => {
    const before = getConference(store, tenantId, conferenceId);
    if (!before.started_at) throw new AdminError('conflict', `Online conference ${conferenceId} has not started.`);
    if (before.ended_at) throw new AdminError('conflict', `Online conference ${conferenceId} has already ended.`);
    const at = now.toISOString();
    const conference = store.conferences.update(tenantId, conferenceId, { ended_at: at });
    const recordings = store.recordings
      .byStatus(conferenceId, RECORDING_STATUS.Recording)
      .map((r) => store.recordings.update(r.id, { status: RECORDING_STATUS.Processing, stopped_at: at }));
    return { conference, recordings };
  });
}

/** Length in seconds of the WAV generated for a recording: its length, between 1 and the cap. */
export function generatedWavSeconds(startedAt: string | null, stoppedAt: string): number {
  const length = startedAt ? (Date.parse(stoppedAt) - Date.parse(startedAt)) / 1000 : NaN;
  if (!Number.isFinite(length) || length <= 0) return 1;
  return Math.max(1, Math.min(length, GENERATED_WAV_MAX_SECONDS));
}

/** The lower-cased extension of `file` when it is plain (`.` and 1–10 letters/digits), else none. */
function mediaExtension(file: string): string {
  const ext = path.extname(file).toLowerCase();
  return /^\.[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

/**
 * Finishes a recording (status 3) with its media file. The file is stored in `mediaDir` as
 * `rec-<id><ext>` (`ext` of `file`, lower-cased, dropped unless plain; `.wav` when generated); `path` is that name
 * relative to `mediaDir` and `file_name` its base name (the same text while the directory is
 * flat). `stopped_at` is kept when set, else `now`. Without `file`, a playable WAV tone as long as
 * the recording (see `generatedWavSeconds`) is written. The file is written to a temporary name
 * first and renamed in place inside the store transaction; on any failure it is removed.
 */
export function finishRecording(
  store: Store,
  tenantId: number,
  recordingId: number,
  options: { mediaDir: string; file?: string; now: Date },
): OnlineConferenceRecording {
  const { mediaDir, file, now } = options;
  const before = getOpenRecording(store, tenantId, recordingId, 'finished');
  if (file !== undefined) {
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      // reported below
    }
    if (!isFile) throw new AdminError('invalid', `The file ${file} does not exist or is not a regular file.`);
  }
  const stoppedAt = before.stopped_at ?? now.toISOString();
  const fileName = `rec-${recordingId}${file !== undefined ? mediaExtension(file) : '.wav'}`;
  // Stored like the demo's recordings: `recordings/rec-<id>.<ext>` under the media directory.
  const storedName = path.posix.join('recordings', fileName);
  const finalPath = path.join(mediaDir, storedName);
  ensurePrivateDir(path.dirname(finalPath));
  const tempPath = path.join(path.dirname(finalPath), `.${fileName}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let renamed = false;
  try {
    if (file !== undefined) copyPrivateFile(file, tempPath);
    else writePrivateFile(tempPath, generateWav({ seconds: generatedWavSeconds(before.started_at, stoppedAt) }));
    return store.transaction(() => {
      const current = getOpenRecording(store, tenantId, recordingId, 'finished');
      renameSync(tempPath, finalPath);
      renamed = true;
      return store.recordings.update(recordingId, {
        status: RECORDING_STATUS.Finished,
        stopped_at: current.stopped_at ?? stoppedAt,
        path: storedName,
        file_name: fileName,
      });
    });
  } catch (error) {
    rmSync(renamed ? finalPath : tempPath, { force: true });
    throw error;
  }
}

/** Marks a recording Failed (status 4); `stopped_at` is kept when set, else `now`. */
export function failRecording(store: Store, tenantId: number, recordingId: number, options: { now: Date }): OnlineConferenceRecording {
  return store.transaction(() => {
    const before = getOpenRecording(store, tenantId, recordingId, 'failed');
    return store.recordings.update(recordingId, {
      status: RECORDING_STATUS.Failed,
      stopped_at: before.stopped_at ?? options.now.toISOString(),
    });
  });
}
