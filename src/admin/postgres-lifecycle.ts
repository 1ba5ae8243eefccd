/**
 * The provider's side of conferences and recordings (lifecycle.ts) on the PostgreSQL store
 * (`admin conferences start|end`, `admin recordings finish|fail` with `--database`): the same
 * rules, errors and results as the SQLite functions, whose checks these call. Each change is one
 * transaction that first locks what it changes: the conference's row (`FOR UPDATE`) to start or
 * end it, the recording's row to finish or fail it (ending a conference updates its recordings'
 * rows, so the two take turns). `dryRun` runs the change and rolls it back: a plan with every
 * check of the real change.
 */
import type { OnlineConference, OnlineConferenceRecording } from '../contract/resources.js';
import { RECORDING_STATUS } from '../contract/resources.js';
import { pgConferences, pgRecordings } from '../store/postgres/conferences.js';
import { inTransaction, type Queryable } from '../store/postgres/pool.js';
import { lockedConference } from '../store/postgres/units.js';
import { checkEndable, checkStartable, failedPatch, finishedPatch, noConference, openRecording, stageRecordingMedia } from './lifecycle.js';
import type { PgTarget } from './postgres-changes.js';

/** Runs `work` in one transaction; with `dryRun` rolls it back and answers what it answered. */
async function atomically<T>(target: PgTarget, work: (tx: Queryable) => Promise<T>, dryRun = false): Promise<T> {
  if (!dryRun) return inTransaction(target.pool, work);
  const undo = new Error('dry run: roll back');
  let result: T | undefined;
  try {
    await inTransaction(target.pool, async (tx) => {
      result = await work(tx);
      throw undo;
    });
  } catch (err) {
    if (err !== undo) throw err;
  }
  return result as T;
}

async function conference(tx: Queryable, tenantId: number, conferenceId: number): Promise<OnlineConference> {
  const found = await lockedConference(tx, tenantId, conferenceId);
  if (!found) throw noConference(conferenceId);
  return found;
}

const lockedRecording = async (tx: Queryable, tenantId: number, recordingId: number, action: string) =>
  openRecording(await pgRecordings(tx).get(tenantId, recordingId, true), recordingId, action);

/** `startConference` on PostgreSQL: sets `started_at` and begins a recording at the same instant. */
export function startConference(target: PgTarget, tenantId: number, conferenceId: number, now: Date, dryRun = false) {
  return atomically(
    target,
    async (tx) => {
      checkStartable(await conference(tx, tenantId, conferenceId));
      const at = now.toISOString();
      const started = await pgConferences(tx).update(tenantId, conferenceId, { started_at: at });
      const recording = await pgRecordings(tx).insert(conferenceId, { status: RECORDING_STATUS.Recording, started_at: at });
      return { conference: started, recording };
    },
    dryRun,
  );
}

/** `endConference` on PostgreSQL: sets `ended_at`; its running recordings stop and become Processing. */
export function endConference(target: PgTarget, tenantId: number, conferenceId: number, now: Date, dryRun = false) {
  return atomically(
    target,
    async (tx) => {
      checkEndable(await conference(tx, tenantId, conferenceId));
      const at = now.toISOString();
      const ended = await pgConferences(tx).update(tenantId, conferenceId, { ended_at: at });
      const recordings = pgRecordings(tx);
      const stopped: OnlineConferenceRecording[] = [];
      for (const r of await recordings.byStatus(conferenceId, RECORDING_STATUS.Recording)) {
        stopped.push(await recordings.update(r.id, { status: RECORDING_STATUS.Processing, stopped_at: at }));
      }
      return { conference: ended, recordings: stopped };
    },
    dryRun,
  );
}

/**
 * `finishRecording` on PostgreSQL: the file is written beside its final name first, renamed in
 * place inside the transaction that records it, and removed when that transaction fails.
 */
export async function finishRecording(
  target: PgTarget,
  tenantId: number,
  recordingId: number,
  options: { mediaDir: string; file?: string; now: Date },
): Promise<OnlineConferenceRecording> {
  const staged = stageRecordingMedia(openRecording(await pgRecordings(target.pool).get(tenantId, recordingId), recordingId, 'finished'), options);
  try {
    return await atomically(target, async (tx) => {
      const current = await lockedRecording(tx, tenantId, recordingId, 'finished');
      staged.place();
      return pgRecordings(tx).update(recordingId, finishedPatch(current, staged));
    });
  } catch (error) {
    staged.discard();
    throw error;
  }
}

/** `failRecording` on PostgreSQL: status Failed; `stopped_at` kept when set, else `now`. */
export function failRecording(target: PgTarget, tenantId: number, recordingId: number, now: Date, dryRun = false) {
  return atomically(
    target,
    async (tx) => pgRecordings(tx).update(recordingId, failedPatch(await lockedRecording(tx, tenantId, recordingId, 'failed'), now)),
    dryRun,
  );
}
