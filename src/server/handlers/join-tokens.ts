import { JOIN_EXPIRY_DEFAULT, type JoinToken, type JoinTokenBody, MESSAGES } from '../../contract/index.js';
import { createJoinToken } from '../../media/join-token.js';
import { roomUrl } from '../../rooms/page.js';
import { HttpError, notFound } from '../errors.js';
import { conferenceOf } from './attendees.js';
import type { Handler, HandlerMap } from './types.js';

/**
 * A join token for one non-deleted attendee of the tenant's conference (decisions §11): 404
 * unless the attendee attends the conference of the path, 409 once the conference has ended.
 * `expiry` seconds from now (default 3600); `expires_at` is the token's own expiry, a whole second.
 */
const createAttendeeJoinToken: Handler<JoinTokenBody> = {
  run: async ({ store, tenant, params, body, origin, now, options }): Promise<JoinToken> => {
    const conference = await conferenceOf(store, tenant.id, params.online_conference_id);
    const attendee = await store.attendees.get(conference.id, params.online_conference_attendee_id);
    if (!attendee) throw notFound();
    if (conference.ended_at !== null) throw new HttpError(409, MESSAGES.conferenceEnded);
    const grant = { tenantId: tenant.id, conferenceId: conference.id, attendeeId: attendee.id };
    const { token, expiresAt } = createJoinToken(grant, body.expiry ?? JOIN_EXPIRY_DEFAULT, new Date(now), options.signingSecret);
    return { token, join_url: roomUrl(origin, conference.public_id, token), expires_at: expiresAt.toISOString() };
  },
};

/** Join tokens of attendees (decisions §11). */
export const joinTokenHandlers: HandlerMap = { createAttendeeJoinToken };
