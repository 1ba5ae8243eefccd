import { accountHandlers } from './accounts.js';
import { attendeeHandlers } from './attendees.js';
import { conferenceHandlers } from './conferences.js';
import { customerHandlers } from './customers.js';
import { eventHandlers } from './events.js';
import { joinTokenHandlers } from './join-tokens.js';
import { recordingHandlers } from './recordings.js';
import type { HandlerMap } from './types.js';
import { userHandlers } from './users.js';

export type { Handler, HandlerContext, HandlerMap } from './types.js';

/**
 * The handler registry: one entry per operation id. To add operations, write a handler file
 * (`conferences.ts` exporting a `HandlerMap`) and spread it here. Operations missing from this
 * map are left out of the route table, so they answer 404 like an unknown path.
 */
export const HANDLERS: HandlerMap = {
  ...userHandlers,
  ...customerHandlers,
  ...accountHandlers,
  ...conferenceHandlers,
  ...attendeeHandlers,
  ...recordingHandlers,
  ...joinTokenHandlers,
  ...eventHandlers,
};
