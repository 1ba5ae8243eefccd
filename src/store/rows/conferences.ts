/** A conference, its attendees and recordings as both stores keep them: columns, list definition, mapping. */
import type { OnlineConference } from '../../contract/index.js';
import { bool } from '../util.js';
import type { ListDef } from './list-def.js';

export type ConferenceRow = Omit<OnlineConference, 'is_public' | 'is_occurred'> & { is_public: number };

export const CONFERENCE_COLUMNS = `id, online_conference_account_id, public_id, title, is_public, backer_event_id,
  started_at, ended_at, created_at, updated_at, deleted_at`;

/** Conferences' list attributes; `is_occurred` is derived from `started_at` as in `toConference`. */
export const CONFERENCE_LIST_DEF: ListDef = {
  select: CONFERENCE_COLUMNS,
  from: 'conferences',
  tenantColumn: 'tenant_id',
  deletedColumn: 'deleted_at',
  idColumn: 'id',
  tenantIndex: 'conferences_tenant',
  counted: 'conferences',
  columns: {
    id: { sql: 'id', type: 'integer' },
    online_conference_account_id: { sql: 'online_conference_account_id', type: 'integer' },
    backer_event_id: { sql: 'backer_event_id', type: 'integer' },
    public_id: { sql: 'public_id', type: 'text' },
    title: { sql: 'title', type: 'text' },
    is_public: { sql: 'is_public', type: 'boolean' },
    is_occurred: { sql: 'started_at IS NOT NULL', type: 'boolean' },
    started_at: { sql: 'started_at', type: 'date' },
    ended_at: { sql: 'ended_at', type: 'date' },
    created_at: { sql: 'created_at', type: 'date' },
    updated_at: { sql: 'updated_at', type: 'date' },
    deleted_at: { sql: 'deleted_at', type: 'date' },
  },
};

/** `is_occurred` is derived: a conference has occurred (started) once `started_at` is set. */
export function toConference(r: ConferenceRow): OnlineConference {
  return {
    id: r.id,
    online_conference_account_id: r.online_conference_account_id,
    public_id: r.public_id,
    title: r.title,
    is_public: bool(r.is_public),
    backer_event_id: r.backer_event_id,
    is_occurred: r.started_at !== null,
    started_at: r.started_at,
    ended_at: r.ended_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
  };
}

export const ATTENDEE_COLUMNS = 'id, online_conference_id, email, name, attendee_type, attendee_id, joined_at, created_at, updated_at, deleted_at';

export const RECORDING_COLUMNS = 'r.id, r.online_conference_id, r.status, r.file_name, r.path, r.started_at, r.stopped_at, r.created_at, r.updated_at, r.deleted_at';
