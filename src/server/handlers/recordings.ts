import { MESSAGES, type PageQuery, RECORDING_STATUS, type RecordingUrlQuery } from '../../contract/index.js';
import { recordingExpiresAt, signRecordingUrl } from '../../media/signing.js';
import { HttpError, notFound } from '../errors.js';
import { conferenceOf } from './attendees.js';
import type { Handler, HandlerMap } from './types.js';

const listConferenceRecordings: Handler<undefined, PageQuery> = {
  run: async ({ store, tenant, params, query }) => store.recordings.listByConference((await conferenceOf(store, tenant.id, params.online_conference_id)).id, query),
};

/**
 * A signed temporary URL of a Finished recording (decisions §7): 404 unless the recording belongs
 * to the conference of the path in this tenant, 409 unless Finished. `expiry` seconds from now,
 * by default the recording's length plus 600; `expires_at` equals the link's `expires`.
 */
const getRecordingUrl: Handler<undefined, RecordingUrlQuery> = {
  run: async ({ store, tenant, params, query, origin, now, options }) => {
    const conference = await conferenceOf(store, tenant.id, params.online_conference_id);
    const recording = await store.recordings.get(tenant.id, params.online_conference_recording_id);
    if (!recording || recording.online_conference_id !== conference.id) throw notFound();
    if (recording.status !== RECORDING_STATUS.Finished) throw new HttpError(409, MESSAGES.recordingNotFinished);
    // A Finished recording always has a file; one without is treated as absent.
    if (!recording.file_name) throw notFound();
    const expiresAt = recordingExpiresAt(recording, query.expiry, new Date(now));
    const url = signRecordingUrl({ origin, recordingId: recording.id, fileName: recording.file_name, expiresAt, secret: options.signingSecret });
    return { url, expires_at: expiresAt.toISOString() };
  },
};

/** Recordings of a conference: list, temporary URL (spec §4). */
export const recordingHandlers: HandlerMap = { listConferenceRecordings, getRecordingUrl };
