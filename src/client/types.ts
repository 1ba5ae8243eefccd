import type {
  AttendeesAddBody,
  ConferenceCreateBody,
  ConferenceUpdateBody,
  CustomerCreateBody,
  CustomerUpdateBody,
  UserUpdateBody,
} from '../contract/bodies.js';
import type { Paginated, Single } from '../contract/common.js';
import type { OperationId } from '../contract/operations.js';
import type {
  CalendarEvent,
  ConnectedAccount,
  Customer,
  OnlineConference,
  OnlineConferenceAccount,
  OnlineConferenceAttendee,
  OnlineConferenceRecording,
  TemporaryUrl,
  User,
} from '../contract/resources.js';

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

/** Query of the user and customer lists (decisions §6). */
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
  listUsers: { result: Page<User>; query: ListQuery };
  getUser: { result: Envelope<User> };
  updateUser: { result: Envelope<User>; body: UserUpdateBody };
  listUserConferenceAccounts: { result: Page<OnlineConferenceAccount>; query: PageQuery };
  listUserConnectedAccounts: { result: Page<ConnectedAccount>; query: PageQuery };
  listCustomers: { result: Page<Customer>; query: ListQuery };
  createCustomer: { result: Envelope<Customer>; body: CustomerCreateBody };
  getCustomer: { result: Envelope<Customer> };
  updateCustomer: { result: Envelope<Customer>; body: CustomerUpdateBody };
  createConference: { result: Envelope<OnlineConference>; body: ConferenceCreateBody };
  getConference: { result: Envelope<OnlineConference> };
  updateConference: { result: Envelope<OnlineConference>; body: ConferenceUpdateBody };
  addConferenceAttendees: { result: Envelope<OnlineConferenceAttendee[]>; body: AttendeesAddBody };
  listConferenceAttendees: { result: Page<OnlineConferenceAttendee>; query: PageQuery };
  listConferenceRecordings: { result: Page<OnlineConferenceRecording>; query: PageQuery };
  getRecordingUrl: { result: Envelope<TemporaryUrl>; query: { expiry?: number | '' } };
  getCalendarEvent: { result: Envelope<CalendarEvent> };
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
  listUsers(query?: ListQuery): Promise<Page<User>>;
  getUser(userId: Id): Promise<Envelope<User>>;
  updateUser(userId: Id, body: UserUpdateBody): Promise<Envelope<User>>;
  listUserConferenceAccounts(userId: Id, query?: PageQuery): Promise<Page<OnlineConferenceAccount>>;
  listUserConnectedAccounts(userId: Id, query?: PageQuery): Promise<Page<ConnectedAccount>>;
  listCustomers(query?: ListQuery): Promise<Page<Customer>>;
  createCustomer(body: CustomerCreateBody): Promise<Envelope<Customer>>;
  getCustomer(customerId: Id): Promise<Envelope<Customer>>;
  updateCustomer(customerId: Id, body: CustomerUpdateBody): Promise<Envelope<Customer>>;
  createConference(body: ConferenceCreateBody): Promise<Envelope<OnlineConference>>;
  getConference(conferenceId: Id): Promise<Envelope<OnlineConference>>;
  updateConference(conferenceId: Id, body: ConferenceUpdateBody): Promise<Envelope<OnlineConference>>;
  addConferenceAttendees(conferenceId: Id, attendees: AttendeesAddBody): Promise<Envelope<OnlineConferenceAttendee[]>>;
  listConferenceAttendees(conferenceId: Id, query?: PageQuery): Promise<Page<OnlineConferenceAttendee>>;
  listConferenceRecordings(conferenceId: Id, query?: PageQuery): Promise<Page<OnlineConferenceRecording>>;
  getRecordingUrl(conferenceId: Id, recordingId: Id, query?: { expiry?: number | '' }): Promise<Envelope<TemporaryUrl>>;
  getCalendarEvent(calendarId: Id, eventId: Id): Promise<Envelope<CalendarEvent>>;
}
