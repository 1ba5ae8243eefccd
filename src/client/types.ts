import type * as B from '../contract/bodies.js';
import type { Paginated, Single } from '../contract/common.js';
import type { OperationId } from '../contract/operations-meta.js';
import type * as R from '../contract/resources.js';

/** `{message, data}` (spec §2). */
export type Envelope<T> = Single<T>;

/** The paginated list envelope (spec §2, decisions §6). */
export type Page<T> = Paginated<T>;

/** Query values; undefined and null are left out, booleans become `true`/`false`. */
export type Query = Readonly<Record<string, string | number | boolean | null | undefined>>;

export interface PageQuery {
  page_size?: number;
  page_number?: number;
}

/** Query of the user, customer and online conference lists (decisions §6). */
export interface ListQuery extends PageQuery {
  with_trashed?: boolean;
  order_by?: string;
  order_direction?: 'asc' | 'desc';
  filter_attribute?: string;
  filter_operator?: string;
  filter_value?: string;
}

type Id = string | number;

/** Per operation: the success body, and the request body and query it takes. */
export interface OperationTypes {
  listUsers: { result: Page<R.User>; query: ListQuery };
  createUser: { result: Envelope<R.User>; body: B.UserCreateBody };
  getUser: { result: Envelope<R.User> };
  updateUser: { result: Envelope<R.User>; body: B.UserUpdateBody };
  listUserConferenceAccounts: { result: Page<R.OnlineConferenceAccount>; query: PageQuery };
  listUserConnectedAccounts: { result: Page<R.ConnectedAccount>; query: PageQuery };
  listCustomers: { result: Page<R.Customer>; query: ListQuery };
  createCustomer: { result: Envelope<R.Customer>; body: B.CustomerCreateBody };
  getCustomer: { result: Envelope<R.Customer> };
  updateCustomer: { result: Envelope<R.Customer>; body: B.CustomerUpdateBody };
  listConferences: { result: Page<R.OnlineConference>; query: ListQuery };
  createConference: { result: Envelope<R.OnlineConference>; body: B.ConferenceCreateBody };
  getConference: { result: Envelope<R.OnlineConference> };
  updateConference: { result: Envelope<R.OnlineConference>; body: B.ConferenceUpdateBody };
  deleteConference: { result: Envelope<R.OnlineConference> };
  addConferenceAttendees: { result: Envelope<R.OnlineConferenceAttendee[]>; body: B.AttendeesAddBody };
  removeConferenceAttendee: { result: Envelope<R.OnlineConferenceAttendee> };
  listConferenceAttendees: { result: Page<R.OnlineConferenceAttendee>; query: PageQuery };
  listConferenceRecordings: { result: Page<R.OnlineConferenceRecording>; query: PageQuery };
  getRecordingUrl: { result: Envelope<R.TemporaryUrl>; query: { expiry?: number | '' } };
  createAttendeeJoinToken: { result: Envelope<R.JoinToken>; body: B.JoinTokenBody };
  getCalendarEvent: { result: Envelope<R.CalendarEvent> };
}

export type ResultOf<K extends OperationId> = OperationTypes[K]['result'];
/** The operations whose success body is a paginated list. */
export type ListOperationId = { [K in OperationId]: ResultOf<K> extends Page<unknown> ? K : never }[OperationId];
export type ItemOf<K extends ListOperationId> = ResultOf<K> extends Page<infer T> ? T : never;

/** Input of the generic `call`: path parameters by name, query and JSON body. */
export interface CallInput {
  params?: Readonly<Record<string, Id>>;
  query?: Query;
  body?: unknown;
  /** Aborts the request and any wait before it (a pacing pause, a retry delay). */
  signal?: AbortSignal;
}

/** One typed function per operation, path parameters positional in path order. */
export interface OperationFunctions {
  listUsers(query?: ListQuery): Promise<Page<R.User>>;
  createUser(body: B.UserCreateBody): Promise<Envelope<R.User>>;
  getUser(userId: Id): Promise<Envelope<R.User>>;
  updateUser(userId: Id, body: B.UserUpdateBody): Promise<Envelope<R.User>>;
  listUserConferenceAccounts(userId: Id, query?: PageQuery): Promise<Page<R.OnlineConferenceAccount>>;
  listUserConnectedAccounts(userId: Id, query?: PageQuery): Promise<Page<R.ConnectedAccount>>;
  listCustomers(query?: ListQuery): Promise<Page<R.Customer>>;
  createCustomer(body: B.CustomerCreateBody): Promise<Envelope<R.Customer>>;
  getCustomer(customerId: Id): Promise<Envelope<R.Customer>>;
  updateCustomer(customerId: Id, body: B.CustomerUpdateBody): Promise<Envelope<R.Customer>>;
  createConference(body: B.ConferenceCreateBody): Promise<Envelope<R.OnlineConference>>;
  getConference(conferenceId: Id): Promise<Envelope<R.OnlineConference>>;
  updateConference(conferenceId: Id, body: B.ConferenceUpdateBody): Promise<Envelope<R.OnlineConference>>;
  /** Soft-deletes a conference that is not in progress; answers it with `deleted_at`. */
  deleteConference(conferenceId: Id): Promise<Envelope<R.OnlineConference>>;
  addConferenceAttendees(conferenceId: Id, attendees: B.AttendeesAddBody): Promise<Envelope<R.OnlineConferenceAttendee[]>>;
  /** Soft-deletes an attendee (not the owner) of a conference that has not ended; answers it with `deleted_at`. */
  removeConferenceAttendee(conferenceId: Id, attendeeId: Id): Promise<Envelope<R.OnlineConferenceAttendee>>;
  listConferenceAttendees(conferenceId: Id, query?: PageQuery): Promise<Page<R.OnlineConferenceAttendee>>;
  listConferenceRecordings(conferenceId: Id, query?: PageQuery): Promise<Page<R.OnlineConferenceRecording>>;
  getRecordingUrl(conferenceId: Id, recordingId: Id, query?: { expiry?: number | '' }): Promise<Envelope<R.TemporaryUrl>>;
  createAttendeeJoinToken(conferenceId: Id, attendeeId: Id, body?: B.JoinTokenBody): Promise<Envelope<R.JoinToken>>;
  getCalendarEvent(calendarId: Id, eventId: Id): Promise<Envelope<R.CalendarEvent>>;
}
