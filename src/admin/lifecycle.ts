/**
 * The provider's side of conferences and recordings, which the API does not expose
 * (decisions §8): starting and ending a conference, and finishing or failing a recording.
 *
 * Transitions (decisions §7 status values):
 * - conference: not started → started (`started_at`; a recording starts with status 1) →
 *   ended (`ended_at`; its status-1 recordings become 2 Processing with `stopped_at`).
 * - recording: 1 Recording or 2 Processing → 3 Finished (with a media file) or 4 Failed.
 * Anything else is an `AdminError` of kind `conflict`; unknown ids are `not_found`.
 *
 * Each change is one unit (./change.ts) on either store that first locks what it changes: the
 * conference's row to start or end it, the recording's row to finish or fail it (PostgreSQL;
 * SQLite's transaction holds the write lock). `dryRun` runs the change and rolls it back: a plan
 * with every check of the real change.
 */
import { renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { RECORDING_STATUS } from '../contract/resource-fields.js';
import type { OnlineConference, OnlineConferenceRecording } from '../contract/resources.js';
import type { Awaitable, DataStore } from '../store/port.js';
import { andThen, ask, recovering, type Steps } from '../store/steps.js';
import { change } from './change.js';
import { copyPrivateFile, ensurePrivateDir, writePrivateFile } from '../media/files.js';
import { generateWav } from '../media/wav.js';
import { AdminError } from './errors.js';

/** Generated recordings are capped to this many seconds so the files stay small. */
export const GENERATED_WAV_MAX_SECONDS = 30;

const STATUS_NAMES: Record<number, string> = Object.fromEntries(Object.entries(RECORDING_STATUS).map(([k, v]) => [v, k]));

/** The error of a conference that does not exist (or is deleted). */
export const noConference = (conferenceId: number) => new AdminError('not_found', `Online conference ${conferenceId} does not exist.`);

/** The tenant's live conference, its row locked until commit. */
function* lockedConference(tenantId: number, conferenceId: number): Steps<OnlineConference> {
  const conference = yield* ask((s) => s.conferences.get(tenantId, conferenceId, true));
  if (!conference) throw noConference(conferenceId);
  return conference;
}

/** Refuses to start a conference that has started (the rule of `startConference`). */
export function checkStartable(conference: OnlineConference): void {
  if (conference.started_at) throw new AdminError('conflict', `Online conference ${conference.id} has already started.`);
}

/** Refuses to end a conference that has not started or has ended (the rule of `endConference`). */
export function checkEndable(conference: OnlineConference): void {
  if (!conference.started_at) throw new AdminError('conflict', `Online conference ${conference.id} has not started.`);
  if (conference.ended_at) throw new AdminError('conflict', `Online conference ${conference.id} has already ended.`);
}

/** The recording when it exists and is Recording or Processing; else `not_found` or `conflict` (can it be `action`, e.g. 'finished'). */
export function openRecording(recording: OnlineConferenceRecording | undefined, recordingId: number, action: string): OnlineConferenceRecording {
  if (!recording) throw new AdminError('not_found', `Recording ${recordingId} does not exist.`);
  if (recording.status !== RECORDING_STATUS.Recording && recording.status !== RECORDING_STATUS.Processing) {
    const status = STATUS_NAMES[recording.status] ?? String(recording.status);
    throw new AdminError('conflict', `Recording ${recordingId} is ${status}; only a Recording or Processing recording can be ${action}.`);
  }
  return recording;
}

/** The recording when it is Recording or Processing (see `openRecording`), its row locked until commit. */
function* lockedOpenRecording(tenantId: number, recordingId: number, action: string): Steps<OnlineConferenceRecording> {
  return openRecording(yield* ask((s) => s.recordings.get(tenantId, recordingId, true)), recordingId, action);
}

const dryRunOption = (...args: [number, number, Date, boolean?]) => ({ dryRun: args[3] });

function* startSteps(tenantId: number, conferenceId: number, now: Date, _dryRun?: boolean): Steps<{ conference: OnlineConference; recording: OnlineConferenceRecording }> {
  checkStartable(yield* lockedConference(tenantId, conferenceId));
  const at = now.toISOString();
  const conference = yield* ask((s) => s.conferences.update(tenantId, conferenceId, { started_at: at }));
  const recording = yield* ask((s) => s.recordings.insert(conferenceId, { status: RECORDING_STATUS.Recording, started_at: at }));
  return { conference, recording };
}

function* endSteps(tenantId: number, conferenceId: number, now: Date, _dryRun?: boolean): Steps<{ conference: OnlineConference; recordings: OnlineConferenceRecording[] }> {
  checkEndable(yield* lockedConference(tenantId, conferenceId));
  const at = now.toISOString();
  const conference = yield* ask((s) => s.conferences.update(tenantId, conferenceId, { ended_at: at }));
  const recordings: OnlineConferenceRecording[] = [];
  for (const r of yield* ask((s) => s.recordings.byStatus(conferenceId, RECORDING_STATUS.Recording))) {
    recordings.push(yield* ask((s) => s.recordings.update(r.id, { status: RECORDING_STATUS.Processing, stopped_at: at })));
  }
  return { conference, recordings };
}

function* failSteps(tenantId: number, recordingId: number, options: { now: Date; dryRun?: boolean }): Steps<OnlineConferenceRecording> {
  const before = yield* lockedOpenRecording(tenantId, recordingId, 'failed');
  return yield* ask((s) => s.recordings.update(recordingId, failedPatch(before, options.now)));
}

/** Starts a conference: sets `started_at` and begins a recording (status 1) at the same instant. */
export const startConference = change(startSteps, dryRunOption);
/** Ends a started conference: sets `ended_at`; its running recordings stop and become Processing. */
export const endConference = change(endSteps, dryRunOption);
/** Marks a recording Failed (status 4); `stopped_at` is kept when set, else `now`. */
export const failRecording = change(failSteps, (_tenantId, _recordingId, { dryRun }) => ({ dryRun }));

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

/** A recording's media file written under a temporary name, waiting to be put in place inside the change's transaction. */
export interface StagedMedia {
  /** `recordings/rec-<id><ext>`, relative to the media directory: the recording's `path`. */
  storedName: string;
  /** `rec-<id><ext>`: the recording's `file_name`. */
  fileName: string;
  /** When the recording stopped: its `stopped_at` when set, else now. */
  stoppedAt: string;
  /** Renames the file into place (call it inside the transaction that records it). */
  place(): void;
  /** Removes what was written: the placed file, else the temporary one (call it when the change failed). */
  discard(): void;
}

/**
 * The file part of finishing a recording, for either store: checks `file`, then writes it (or the
 * generated WAV, see `generatedWavSeconds`) to a temporary name beside its final one. `before` is
 * the recording as read before the transaction (`openRecording`).
 */
export function stageRecordingMedia(before: OnlineConferenceRecording, options: { mediaDir: string; file?: string; now: Date }): StagedMedia {
  const { mediaDir, file, now } = options;
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
  const fileName = `rec-${before.id}${file !== undefined ? mediaExtension(file) : '.wav'}`;
  // Stored like the demo's recordings: `recordings/rec-<id>.<ext>` under the media directory.
  const storedName = path.posix.join('recordings', fileName);
  const finalPath = path.join(mediaDir, storedName);
  ensurePrivateDir(path.dirname(finalPath));
  const tempPath = path.join(path.dirname(finalPath), `.${fileName}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let renamed = false;
  const discard = () => rmSync(renamed ? finalPath : tempPath, { force: true });
  try {
    if (file !== undefined) copyPrivateFile(file, tempPath);
    else writePrivateFile(tempPath, generateWav({ seconds: generatedWavSeconds(before.started_at, stoppedAt) }));
  } catch (error) {
    discard();
    throw error;
  }
  return {
    storedName,
    fileName,
    stoppedAt,
    place() {
      renameSync(tempPath, finalPath);
      renamed = true;
    },
    discard,
  };
}

/** The change that finishes `current` (re-read in the transaction) with the staged file. */
export const finishedPatch = (current: OnlineConferenceRecording, staged: StagedMedia) => ({
  status: RECORDING_STATUS.Finished,
  stopped_at: current.stopped_at ?? staged.stoppedAt,
  path: staged.storedName,
  file_name: staged.fileName,
});

/** The change that fails `current` (read in the transaction). */
export const failedPatch = (current: OnlineConferenceRecording, now: Date) => ({ status: RECORDING_STATUS.Failed, stopped_at: current.stopped_at ?? now.toISOString() });

function* finishSteps(tenantId: number, recordingId: number, staged: StagedMedia): Steps<OnlineConferenceRecording> {
  const current = yield* lockedOpenRecording(tenantId, recordingId, 'finished');
  staged.place();
  return yield* ask((s) => s.recordings.update(recordingId, finishedPatch(current, staged)));
}

const finish = change(finishSteps);

/**
 * Finishes a recording (status 3) with its media file. The file is stored in `mediaDir` as
 * `rec-<id><ext>` (`ext` of `file`, lower-cased, dropped unless plain; `.wav` when generated); `path` is that name
 * relative to `mediaDir` and `file_name` its base name (the same text while the directory is
 * flat). `stopped_at` is kept when set, else `now`. Without `file`, a playable WAV tone as long as
 * the recording (see `generatedWavSeconds`) is written. The file is written to a temporary name
 * first and renamed in place inside the unit that records it; on any failure it is removed.
 */
export function finishRecording(store: DataStore, tenantId: number, recordingId: number, options: FinishOptions): Awaitable<OnlineConferenceRecording> {
  const run = (staged: StagedMedia) =>
    recovering(
      () => finish(store, tenantId, recordingId, staged),
      (error) => {
        staged.discard();
        throw error;
      },
    );
  return andThen(store.recordings.get(tenantId, recordingId), (before) => run(stageRecordingMedia(openRecording(before, recordingId, 'finished'), options)));
}

export interface FinishOptions {
  mediaDir: string;
  file?: string;
  now: Date;
}
