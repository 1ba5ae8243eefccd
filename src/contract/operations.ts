/**
 * The operation table with its schemas: the plain data of `operations-meta.ts` plus, per
 * operation id, the request body schema and the schema of one resource in `data`. The server and
 * the OpenAPI document read this; the CLI and the client need only the zod-free meta table.
 */
import type { z } from 'zod';
import {
  AttendeesAddBody,
  ConferenceCreateBody,
  ConferenceUpdateBody,
  CustomerCreateBody,
  CustomerUpdateBody,
  JoinTokenBody,
  UserCreateBody,
  UserUpdateBody,
} from './bodies.js';
import { OPERATION_META, type OperationId, type OperationMeta } from './operations-meta.js';
import {
  CalendarEvent,
  ConnectedAccount,
  Customer,
  JoinToken,
  OnlineConference,
  OnlineConferenceAccount,
  OnlineConferenceAttendee,
  OnlineConferenceRecording,
  TemporaryUrl,
  User,
} from './resources.js';

export * from './operations-meta.js';

export interface Operation extends OperationMeta {
  /** Schema of the JSON body; present exactly when `hasBody(method)` (POST, PATCH). */
  body?: z.ZodType;
  /** Schema of one resource in `data` (or of one list item). */
  resource: z.ZodType;
}

/** The schemas of each operation, by id (every id must have an entry). */
const SCHEMAS: Readonly<Record<OperationId, { body?: z.ZodType; resource: z.ZodType }>> = {
  listUsers: { resource: User },
  createUser: { body: UserCreateBody, resource: User },
  getUser: { resource: User },
  updateUser: { body: UserUpdateBody, resource: User },
  listUserConferenceAccounts: { resource: OnlineConferenceAccount },
  listUserConnectedAccounts: { resource: ConnectedAccount },
  listCustomers: { resource: Customer },
  createCustomer: { body: CustomerCreateBody, resource: Customer },
  getCustomer: { resource: Customer },
  updateCustomer: { body: CustomerUpdateBody, resource: Customer },
  listConferences: { resource: OnlineConference },
  createConference: { body: ConferenceCreateBody, resource: OnlineConference },
  getConference: { resource: OnlineConference },
  updateConference: { body: ConferenceUpdateBody, resource: OnlineConference },
  deleteConference: { resource: OnlineConference },
  addConferenceAttendees: { body: AttendeesAddBody, resource: OnlineConferenceAttendee },
  removeConferenceAttendee: { resource: OnlineConferenceAttendee },
  listConferenceAttendees: { resource: OnlineConferenceAttendee },
  listConferenceRecordings: { resource: OnlineConferenceRecording },
  getRecordingUrl: { resource: TemporaryUrl },
  createAttendeeJoinToken: { body: JoinTokenBody, resource: JoinToken },
  getCalendarEvent: { resource: CalendarEvent },
};

/** The operations (spec §4, decisions §11), in the meta table's order, with their schemas. */
export const OPERATIONS: readonly Operation[] = OPERATION_META.map((meta) => ({ ...meta, ...SCHEMAS[meta.id] }));

const BY_ID = new Map(OPERATIONS.map((op) => [op.id, op]));

/** The operation with this id. */
export function operation(id: OperationId): Operation {
  const op = BY_ID.get(id);
  if (!op) throw new Error(`unknown operation ${id}`);
  return op;
}
