import {
  addError,
  type ConferenceCreateBody,
  type ConferenceUpdateBody,
  type FieldErrors,
  type ListQuery,
  MESSAGES,
} from '../../contract/index.js';
import { HttpError } from '../errors.js';
import { conferenceOf } from './attendees.js';
import type { Handler, HandlerContext, HandlerMap } from './types.js';

/**
 * References and uniqueness of a create body against stored data (decisions §7, §10): the
 * account and the backing event must be the tenant's (non-deleted), the event must not back
 * another conference, and `public_id` must be unused in the tenant.
 */
async function checkReferences({ store, tenant, body }: HandlerContext<Partial<ConferenceCreateBody>>, errors: FieldErrors): Promise<void> {
  if (typeof body.online_conference_account_id === 'number' && !(await store.conferenceAccounts.get(tenant.id, body.online_conference_account_id))) {
    addError(errors, 'online_conference_account_id', 'The selected :attribute is invalid.');
  }
  if (typeof body.public_id === 'string' && (await store.conferences.publicIdTaken(tenant.id, body.public_id))) {
    addError(errors, 'public_id', 'The :attribute has already been taken.');
  }
  const event = body.backer_event_id;
  if (typeof event === 'number') {
    if (!(await store.events.exists(tenant.id, event))) addError(errors, 'backer_event_id', 'The selected :attribute is invalid.');
    else if (await store.conferences.backerEventTaken(tenant.id, event)) addError(errors, 'backer_event_id', 'The :attribute has already been taken.');
  }
}

/**
 * One unit of work (store/port.ts `createConference`): the conference, its account's owner as the
 * first attendee (spec §4 rule 1), then the listed attendees, matched and de-duplicated against
 * the owner and each other. The unit checks `public_id` and the backing event again: another
 * request may have taken them since validation ran.
 */
const createConference: Handler<ConferenceCreateBody> = {
  validate: checkReferences,
  run: ({ store, tenant, body, options }) =>
    store.units.createConference(
      tenant.id,
      {
        online_conference_account_id: body.online_conference_account_id,
        public_id: body.public_id,
        title: body.title,
        is_public: body.is_public,
        backer_event_id: body.backer_event_id ?? null,
      },
      body.online_conference_attendees ?? [],
      options.maxAttendees + 1,
    ),
};

const listConferences: Handler<undefined, ListQuery> = {
  run: ({ store, tenant, query }) => store.conferences.list(tenant.id, query),
};

const getConference: Handler = {
  run: async ({ store, tenant, params }) => conferenceOf(store, tenant.id, params.online_conference_id),
};

const updateConference: Handler<ConferenceUpdateBody> = {
  run: async ({ store, tenant, params, body }) => {
    const conference = await conferenceOf(store, tenant.id, params.online_conference_id);
    // Any PATCH of a started conference is refused, `{}` included (decisions §10).
    if (conference.started_at !== null) throw new HttpError(409, MESSAGES.conferenceStarted);
    return Object.keys(body).length === 0 ? conference : store.conferences.update(tenant.id, conference.id, body);
  },
};

/**
 * A soft delete (decisions §11): refused with 409 while the conference is in progress (started,
 * not ended). Afterwards the conference, its attendees and its recordings answer 404 and its
 * recordings' signed links 403; its `public_id` and backing event stay taken.
 */
const deleteConference: Handler = {
  run: ({ store, tenant, params }) => store.units.deleteConference(tenant.id, params.online_conference_id),
};

/** Online conferences: list, create (with attendees), get, update, delete (spec §4, decisions §11). */
export const conferenceHandlers: HandlerMap = { listConferences, createConference, getConference, updateConference, deleteConference };
