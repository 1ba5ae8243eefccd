/**
 * What `confctl wait` can wait for: per noun, how to read its state through the API (reads only,
 * so it works against the hosted service) and the conditions that state can meet.
 *
 * - conference ID: `started` (started_at set), `ended` (ended_at set), `recording-ready` (a
 *   recording is Finished), `recording-failed` (a recording Failed), `deleted` (it answers 404).
 * - recording CONF REC: `processing`, `finished`, `failed` (status 2, 3, 4), `deleted` (it or its
 *   conference is gone).
 * - user EMAIL: `exists` (a user with that e-mail, compared as the API does), `active`, `inactive`.
 *
 * A subject that is absent when no `deleted` condition was asked for is not an answer to wait
 * for: the read's 404 ends the wait (exit 4), as a wrong id would.
 */
import { ApiError } from '../../client/errors.js';
import { CliError, EXIT } from '../errors.js';
import type { ApiClient } from '../../client/client.js';
import type { OnlineConference, OnlineConferenceRecording, User } from '../../contract/resources.js';
import type { ResourceName } from '../../contract/resource-fields.js';

/** Recording status codes (decisions §7), kept here so `wait` does not load the zod schemas. */
const RECORDING_STATUS = { Processing: 2, Finished: 3, Failed: 4 } as const;

/** One reading of a subject: its resource (absent: it does not exist) and what else the conditions need. */
export interface Reading {
  resource?: Record<string, unknown>;
  /** The conference's recordings (id and status), read only when a condition needs them. */
  recordings?: { id: number; status: number }[];
}

export interface Subject {
  /** `conference 5`, `recording 6 of conference 5`, `user ada@example.com`. */
  label: string;
  resource: ResourceName;
  conditions: readonly string[];
  /** Reads the subject's state; `needs` are the conditions being checked. */
  read(client: ApiClient, needs: readonly string[]): Promise<Reading>;
  /** Whether `reading` meets `condition` (one of `conditions`). */
  holds(condition: string, reading: Reading): boolean;
}

/** The conditions of each noun, in the order help lists them. */
export const CONDITIONS = {
  conference: ['started', 'ended', 'recording-ready', 'recording-failed', 'deleted'],
  recording: ['processing', 'finished', 'failed', 'deleted'],
  user: ['exists', 'active', 'inactive'],
} as const;

const absent = (reading: Reading) => reading.resource === undefined;

const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** Every recording of a conference (all pages). */
async function recordingsOf(client: ApiClient, conferenceId: string): Promise<OnlineConferenceRecording[]> {
  const all: OnlineConferenceRecording[] = [];
  for await (const page of client.paginate('listConferenceRecordings', { params: { online_conference_id: conferenceId }, query: { page_size: 100 } })) {
    all.push(...page.data);
  }
  return all;
}

export function conferenceSubject(id: string): Subject {
  return {
    label: `conference ${id}`,
    resource: 'OnlineConference',
    conditions: CONDITIONS.conference,
    async read(client, needs) {
      let conference: OnlineConference;
      try {
        conference = (await client.call('getConference', { params: { online_conference_id: id } })).data;
      } catch (err) {
        if (isNotFound(err) && needs.includes('deleted')) return {};
        throw err;
      }
      if (!needs.some((c) => c.startsWith('recording-'))) return { resource: conference };
      const recordings = (await recordingsOf(client, id)).map((r) => ({ id: r.id, status: r.status }));
      return { resource: conference, recordings };
    },
    holds(condition, reading) {
      const c = reading.resource as OnlineConference | undefined;
      const has = (status: number) => Boolean(reading.recordings?.some((r) => r.status === status));
      switch (condition) {
        case 'started':
          return Boolean(c?.started_at);
        case 'ended':
          return Boolean(c?.ended_at);
        case 'recording-ready':
          return has(RECORDING_STATUS.Finished);
        case 'recording-failed':
          return has(RECORDING_STATUS.Failed);
        default:
          return absent(reading);
      }
    },
  };
}

const RECORDING_CONDITIONS: Record<string, number> = { processing: RECORDING_STATUS.Processing, finished: RECORDING_STATUS.Finished, failed: RECORDING_STATUS.Failed };

export function recordingSubject(conferenceId: string, recordingId: string): Subject {
  const label = `recording ${recordingId} of conference ${conferenceId}`;
  return {
    label,
    resource: 'OnlineConferenceRecording',
    conditions: CONDITIONS.recording,
    async read(client, needs) {
      let found: OnlineConferenceRecording | undefined;
      try {
        found = (await recordingsOf(client, conferenceId)).find((r) => String(r.id) === recordingId);
      } catch (err) {
        if (!(isNotFound(err) && needs.includes('deleted'))) throw err;
      }
      if (!found && !needs.includes('deleted')) {
        throw new CliError(`${label} does not exist`, EXIT.notFound, 'check the ids; add --fail-on deleted to wait while it may be gone');
      }
      return found ? { resource: found } : {};
    },
    holds(condition, reading) {
      if (condition === 'deleted') return absent(reading);
      return (reading.resource as OnlineConferenceRecording | undefined)?.status === RECORDING_CONDITIONS[condition];
    },
  };
}

export function userSubject(email: string): Subject {
  return {
    label: `user ${email}`,
    resource: 'User',
    conditions: CONDITIONS.user,
    async read(client) {
      const page = await client.call('listUsers', { query: { filter_attribute: 'email', filter_operator: 'Equal', filter_value: email, page_size: 1 } });
      const user: User | undefined = page.data[0];
      return user ? { resource: user } : {};
    },
    holds(condition, reading) {
      const user = reading.resource as User | undefined;
      if (!user) return false;
      return condition === 'exists' || user.status === (condition === 'active' ? 1 : 0);
    },
  };
}
