/**
 * The operation table's plain data (spec §4, decisions §11): for each operation its id, method,
 * path, permissions, query and response kind and CLI command. Free of zod, so the CLI and the client
 * load it without the schemas; `operations.ts` attaches the body and resource schemas by id for
 * the server and the OpenAPI document. An operation has a JSON body exactly when it is a POST or
 * a PATCH (`hasBody`): GET and DELETE take none.
 */
import { CONFERENCE_LIST, CUSTOMER_LIST, type ListSpec, USER_LIST } from './list-specs.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Whether an operation of this method takes a JSON body: POST and PATCH do; GET and DELETE do not
 * (a body sent with them is ignored by the server and never sent by the client).
 */
export function hasBody(method: string): boolean {
  return method === 'POST' || method === 'PATCH';
}

/**
 * What the success body holds: `single` `{message, data}`; `list` the paginated envelope;
 * `attendees` `{message, data: [...]}`; `temporaryUrl` `{message, data: {url, expires_at}}`.
 */
export type ResponseKind = 'single' | 'list' | 'attendees' | 'temporaryUrl';

/** Which query parameters an operation reads. */
export type QueryKind = 'none' | 'list' | 'page' | 'expiry';

export interface OperationMeta {
  /** Stable id, used for client function names and handler registration. */
  id: OperationId;
  method: HttpMethod;
  /** Path template relative to the base URL, with `{name}` parameters. */
  path: string;
  permissions: readonly string[];
  /**
   * Permissions the body may demand besides `permissions` (decisions §11: `users.lock.*` when a
   * user create has `activate: true`). The handler checks them after validation, since they
   * depend on the body; they count among the known permissions.
   */
  bodyPermissions?: readonly { permission: string; when: string }[];
  summary: string;
  query: QueryKind;
  /** Filter and order attributes, for `query: 'list'`. */
  listSpec?: ListSpec;
  response: ResponseKind;
  /** The CLI command that runs it, and an example for help text and docs. */
  cli: { command: string; example: string };
}

export type OperationId =
  | 'listUsers'
  | 'createUser'
  | 'getUser'
  | 'updateUser'
  | 'listUserConferenceAccounts'
  | 'listUserConnectedAccounts'
  | 'listCustomers'
  | 'createCustomer'
  | 'getCustomer'
  | 'updateCustomer'
  | 'listConferences'
  | 'createConference'
  | 'getConference'
  | 'updateConference'
  | 'deleteConference'
  | 'addConferenceAttendees'
  | 'removeConferenceAttendee'
  | 'listConferenceAttendees'
  | 'listConferenceRecordings'
  | 'getRecordingUrl'
  | 'createAttendeeJoinToken'
  | 'getCalendarEvent';

/** The operations (spec §4, decisions §11): the single table everything is derived from. */
export const OPERATION_META: readonly OperationMeta[] = [
  {
    id: 'listUsers',
    method: 'GET',
    path: '/users',
    permissions: ['users.read.*'],
    summary: 'List users',
    query: 'list',
    listSpec: USER_LIST,
    response: 'list',
    cli: { command: 'users list', example: "confctl users list --filter 'email~@acme.com' --sort -created_at" },
  },
  {
    id: 'createUser',
    method: 'POST',
    path: '/users',
    permissions: ['users.create.*'],
    bodyPermissions: [{ permission: 'users.lock.*', when: '`activate` is true' }],
    summary: 'Create a user',
    query: 'none',
    response: 'single',
    cli: {
      command: 'users create',
      example: 'confctl users create --first-name Ada --last-name Lovelace --email ada@example.com --timezone Europe/London --role Member --work-hours @hours.json',
    },
  },
  {
    id: 'getUser',
    method: 'GET',
    path: '/users/{user_id}',
    permissions: ['users.read.*'],
    summary: 'Get a user',
    query: 'none',
    response: 'single',
    cli: { command: 'users get', example: 'confctl users get 42' },
  },
  {
    id: 'updateUser',
    method: 'PATCH',
    path: '/users/{user_id}',
    permissions: ['users.update.*'],
    summary: 'Update a user',
    query: 'none',
    response: 'single',
    cli: { command: 'users update', example: 'confctl users update 42 --role Manager --timezone Europe/Paris' },
  },
  {
    id: 'listUserConferenceAccounts',
    method: 'GET',
    path: '/users/{user_id}/online_conference_accounts',
    permissions: ['users.read.*', 'online_conference_accounts.read.*'],
    summary: "List a user's online conference accounts",
    query: 'page',
    response: 'list',
    cli: { command: 'users accounts', example: 'confctl users accounts 42' },
  },
  {
    id: 'listUserConnectedAccounts',
    method: 'GET',
    path: '/users/{user_id}/connected_accounts',
    permissions: ['users.read.*', 'connected_accounts.read.*'],
    summary: "List a user's connected accounts",
    query: 'page',
    response: 'list',
    cli: { command: 'users connected-accounts', example: 'confctl users connected-accounts 42' },
  },
  {
    id: 'listCustomers',
    method: 'GET',
    path: '/customers',
    permissions: ['customers.read.*'],
    summary: 'List customers',
    query: 'list',
    listSpec: CUSTOMER_LIST,
    response: 'list',
    cli: { command: 'customers list', example: "confctl customers list --filter 'city_country~Berlin' --sort last_name" },
  },
  {
    id: 'createCustomer',
    method: 'POST',
    path: '/customers',
    permissions: ['customers.create.*'],
    summary: 'Create a customer',
    query: 'none',
    response: 'single',
    cli: {
      command: 'customers create',
      example: 'confctl customers create --first-name Ada --last-name Lovelace --email ada@example.com --contact-number +441234567890',
    },
  },
  {
    id: 'getCustomer',
    method: 'GET',
    path: '/customers/{customer_id}',
    permissions: ['customers.read.*'],
    summary: 'Get a customer',
    query: 'none',
    response: 'single',
    cli: { command: 'customers get', example: 'confctl customers get 7' },
  },
  {
    id: 'updateCustomer',
    method: 'PATCH',
    path: '/customers/{customer_id}',
    permissions: ['customers.update.*'],
    summary: 'Update a customer',
    query: 'none',
    response: 'single',
    cli: { command: 'customers update', example: "confctl customers update 7 --data '{\"address\":{\"city\":\"Berlin\",\"country\":\"Germany\"}}'" },
  },
  {
    id: 'listConferences',
    method: 'GET',
    path: '/online_conferences',
    permissions: ['online_conferences.read.*'],
    summary: 'List online conferences',
    query: 'list',
    listSpec: CONFERENCE_LIST,
    response: 'list',
    cli: { command: 'conferences list', example: "confctl conferences list --filter 'is_occurred=false' --sort -created_at" },
  },
  {
    id: 'createConference',
    method: 'POST',
    path: '/online_conferences',
    permissions: ['online_conferences.create.*'],
    summary: 'Create an online conference',
    query: 'none',
    response: 'single',
    cli: {
      command: 'conferences create',
      example: 'confctl conferences create --account 1 --public-id weekly-sync --title "Weekly sync" --private --attendee "Ada <ada@example.com>"',
    },
  },
  {
    id: 'getConference',
    method: 'GET',
    path: '/online_conferences/{online_conference_id}',
    permissions: ['online_conferences.read.*'],
    summary: 'Get an online conference',
    query: 'none',
    response: 'single',
    cli: { command: 'conferences get', example: 'confctl conferences get 3' },
  },
  {
    id: 'updateConference',
    method: 'PATCH',
    path: '/online_conferences/{online_conference_id}',
    permissions: ['online_conferences.update.*'],
    summary: 'Update an online conference that has not started',
    query: 'none',
    response: 'single',
    cli: { command: 'conferences update', example: 'confctl conferences update 3 --title "Weekly sync (moved)" --public' },
  },
  {
    id: 'deleteConference',
    method: 'DELETE',
    path: '/online_conferences/{online_conference_id}',
    permissions: ['online_conferences.delete.*'],
    summary: 'Delete an online conference that is not in progress (soft delete)',
    query: 'none',
    response: 'single',
    cli: { command: 'conferences delete', example: 'confctl conferences delete 3 --yes' },
  },
  {
    id: 'addConferenceAttendees',
    method: 'POST',
    path: '/online_conferences/{online_conference_id}/attendees',
    permissions: ['online_conferences.update.*'],
    summary: 'Add attendees to an online conference',
    query: 'none',
    response: 'attendees',
    cli: { command: 'conferences attendees add', example: 'confctl conferences attendees add 3 --attendee "Grace <grace@example.com>"' },
  },
  {
    id: 'removeConferenceAttendee',
    method: 'DELETE',
    path: '/online_conferences/{online_conference_id}/attendees/{online_conference_attendee_id}',
    permissions: ['online_conferences.update.*'],
    summary: 'Remove an attendee from an online conference that has not ended (soft delete)',
    query: 'none',
    response: 'single',
    cli: { command: 'conferences attendees remove', example: 'confctl conferences attendees remove 3 12 --yes' },
  },
  {
    id: 'listConferenceAttendees',
    method: 'GET',
    path: '/online_conferences/{online_conference_id}/attendees',
    permissions: ['online_conferences.read.*'],
    summary: "List an online conference's attendees",
    query: 'page',
    response: 'list',
    cli: { command: 'conferences attendees list', example: 'confctl conferences attendees list 3' },
  },
  {
    id: 'listConferenceRecordings',
    method: 'GET',
    path: '/online_conferences/{online_conference_id}/recordings',
    permissions: ['online_conferences.read.*', 'online_conference_recordings.read.*'],
    summary: "List an online conference's recordings",
    query: 'page',
    response: 'list',
    cli: { command: 'recordings list', example: 'confctl recordings list 3' },
  },
  {
    id: 'getRecordingUrl',
    method: 'GET',
    path: '/online_conferences/{online_conference_id}/recordings/{online_conference_recording_id}/url',
    permissions: ['online_conferences.read.*', 'online_conference_recordings.read.*'],
    summary: 'Get a temporary download URL for a finished recording',
    query: 'expiry',
    response: 'temporaryUrl',
    cli: { command: 'recordings url', example: 'confctl recordings url 3 5 --expiry 3600 --download talk.wav' },
  },
  {
    id: 'createAttendeeJoinToken',
    method: 'POST',
    path: '/online_conferences/{online_conference_id}/attendees/{online_conference_attendee_id}/join_token',
    permissions: ['online_conferences.update.*'],
    summary: "Create a join token and URL for one of a conference's attendees",
    query: 'none',
    response: 'single',
    cli: { command: 'conferences attendees join-link', example: 'confctl conferences attendees join-link 3 8 --expiry 600' },
  },
  {
    id: 'getCalendarEvent',
    method: 'GET',
    path: '/calendars/{calendar_id}/events/{event_id}',
    permissions: ['events.read.*'],
    summary: 'Get a calendar event',
    query: 'none',
    response: 'single',
    cli: { command: 'events get', example: 'confctl events get 2 11' },
  },
];

const BY_ID = new Map(OPERATION_META.map((op) => [op.id, op]));

/** The plain data of the operation with this id. */
export function operationMeta(id: OperationId): OperationMeta {
  const op = BY_ID.get(id);
  if (!op) throw new Error(`unknown operation ${id}`);
  return op;
}

/** The `{name}` parameters of a path template, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
}

/** Fills a path template; values are URI-encoded. */
export function fillPath(path: string, params: Readonly<Record<string, string | number>>): string {
  return path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}

/** The path prefix of the interface version (spec §9). */
export const API_PREFIX = '/api/public/v2.0';

/** Every permission the interface uses (spec §5, decisions §11), those a body may demand included. */
export const ALL_PERMISSIONS: readonly string[] = [
  ...new Set(OPERATION_META.flatMap((op) => [...op.permissions, ...(op.bodyPermissions ?? []).map((b) => b.permission)])),
].sort();

/** Bounds of the recording URL `expiry` in seconds (decisions §7). */
export const EXPIRY_MIN = 1;
export const EXPIRY_MAX = 604800;
/** Seconds added to a recording's length for the default expiry. */
export const EXPIRY_GRACE = 600;
/** Bounds and default of the join token `expiry` in seconds (decisions §11). */
export const JOIN_EXPIRY_MIN = 60;
export const JOIN_EXPIRY_MAX = 86400;
export const JOIN_EXPIRY_DEFAULT = 3600;
