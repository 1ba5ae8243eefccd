import {
  addError,
  type ConferenceCreateBody,
  type ConferenceUpdateBody,
  type FieldErrors,
  type ListQuery,
  MESSAGES,
} from '../../contract/index.js';
import { HttpError, ValidationError } from '../errors.js';
import { addAttendees, conferenceOf, ownerAttendee } from './attendees.js';
import type { Handler, HandlerContext, HandlerMap } from './types.js';

/**
 * References and uniqueness of a create body against stored data (decisions §7, §10): the
 * account and the backing event must be the tenant's (non-deleted), the event must not back
 * another conference, and `public_id` must be unused in the tenant.
 */
function checkReferences({ store, tenant, body }: HandlerContext<Partial<ConferenceCreateBody>>, errors: FieldErrors): void {
  if (typeof body.online_conference_account_id === 'number' && !store.conferenceAccounts.get(tenant.id, body.online_conference_account_id)) {
    addError(errors, 'online_conference_account_id', 'The selected :attribute is invalid.');
  }
  if (typeof body.public_id === 'string' && store.conferences.publicIdTaken(tenant.id, body.public_id)) {
    addError(errors, 'public_id', 'The :attribute has already been taken.');
  }
  const event = body.backer_event_id;
  if (typeof event === 'number') {
    if (!store.events.exists(tenant.id, event)) addError(errors, 'backer_event_id', 'The selected :attribute is invalid.');
    else if (store.conferences.backerEventTaken(tenant.id, event)) addError(errors, 'backer_event_id', 'The :attribute has already been taken.');
  }
}

const createConference: Handler<ConferenceCreateBody> = {
  validate: checkReferences,
  run: (ctx) => {
    const { store, tenant, body, options } = ctx;
    return store.transaction(() => {
      // Checked again inside the transaction: another request may have taken the public_id or
      // the event since validation ran.
      const errors: FieldErrors = {};
      checkReferences(ctx, errors);
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const conference = store.conferences.insert(tenant.id, {
        online_conference_account_id: body.online_conference_account_id,
        public_id: body.public_id,
        title: body.title,
        is_public: body.is_public,
        backer_event_id: body.backer_event_id ?? null,
      });
      // The account owner attends automatically (spec §4 rule 1); listed attendees are matched
      // and de-duplicated against the owner and each other.
      const owner = ownerAttendee(store, tenant.id, conference.online_conference_account_id);
      if (owner) store.attendees.insert(conference.id, owner);
      addAttendees(store, tenant.id, conference.id, body.online_conference_attendees ?? [], options.maxAttendees + 1);
      return conference;
    });
  },
};

const listConferences: Handler<undefined, ListQuery> = {
  run: ({ store, tenant, query }) => store.conferences.list(tenant.id, query),
};

const getConference: Handler = {
  run: ({ store, tenant, params }) => conferenceOf(store, tenant.id, params.online_conference_id),
};

const updateConference: Handler<ConferenceUpdateBody> = {
  run: ({ store, tenant, params, body }) => {
    const conference = conferenceOf(store, tenant.id, params.online_conference_id);
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
  run: ({ store, tenant, params }) =>
    store.transaction(() => {
      const conference = conferenceOf(store, tenant.id, params.online_conference_id);
      if (conference.started_at !== null && conference.ended_at === null) throw new HttpError(409, MESSAGES.conferenceInProgress);
      return store.conferences.softDelete(tenant.id, conference.id);
    }),
};

/** Online conferences: list, create (with attendees), get, update, delete (spec §4, decisions §11). */
export const conferenceHandlers: HandlerMap = { listConferences, createConference, getConference, updateConference, deleteConference };
