/**
 * The resources' field names and coded values as plain data, free of zod: the CLI checks
 * `--fields`, builds CSV headers before the first row arrives and labels codes in tables without
 * loading the schemas. `resources.ts` holds the schemas; a test keeps the two equal.
 */
import type { OperationId } from './operations-meta.js';

/** The days of a user's work hours, in the schema's order. */
export const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Day = (typeof DAYS)[number];

/** User `status` values (decisions §7). */
export const USER_STATUS = { inactive: 0, active: 1 } as const;

/** Recording `status` values (decisions §7). */
export const RECORDING_STATUS = { Recording: 1, Processing: 2, Finished: 3, Failed: 4 } as const;
export type RecordingStatusName = keyof typeof RECORDING_STATUS;

/** Event attendee `status` values: the service leaves them open; these are ours (docs/choices.md). */
export const EVENT_ATTENDEE_STATUS = { NeedsAction: 0, Accepted: 1, Declined: 2, Tentative: 3 } as const;

/** The eight parts of an address, in the schema's order. */
export const ADDRESS_PARTS = ['line_1', 'line_2', 'city', 'region', 'region_code', 'country', 'country_code', 'postal_code'] as const;

const TIMES = ['created_at', 'updated_at', 'deleted_at'] as const;

/** Each resource's top-level fields, in the schema's order. */
export const RESOURCE_FIELDS = {
  User: ['id', 'department_id', 'first_name', 'last_name', 'email', 'timezone', 'work_hours', 'role', 'created_at', 'updated_at', 'status', 'avatar_url', 'name', 'department_name', 'deleted_at'],
  Customer: ['id', 'first_name', 'middle_name', 'last_name', 'email', 'contact_number', 'address', 'created_at', 'updated_at', 'name', 'deleted_at'],
  OnlineConference: ['id', 'online_conference_account_id', 'public_id', 'title', 'is_public', 'backer_event_id', 'is_occurred', 'started_at', 'ended_at', ...TIMES],
  OnlineConferenceAttendee: ['id', 'online_conference_id', 'email', 'name', 'attendee_type', 'attendee_id', 'joined_at', ...TIMES],
  OnlineConferenceRecording: ['id', 'online_conference_id', 'status', 'file_name', 'path', 'started_at', 'stopped_at', ...TIMES],
  TemporaryUrl: ['url', 'expires_at'],
  JoinToken: ['token', 'join_url', 'expires_at'],
  OnlineConferenceAccount: ['id', 'owner_type', 'owner_id', 'connected_account_id', 'name', ...TIMES],
  ConnectedAccount: ['id', 'owner_type', 'owner_id', 'provider_id', 'provider_uid', 'provider_email', ...TIMES],
  CalendarEvent: [
    'id', 'calendar_id', 'title', 'start', 'end', 'attendees', 'body', 'location', 'cancel_note', 'canceled_by_id', 'canceled_by_type',
    'public_id', 'provider_event_id', 'customer_id', 'meeting_link_id', 'online_conference', ...TIMES,
  ],
} as const satisfies Record<string, readonly string[]>;

export type ResourceName = keyof typeof RESOURCE_FIELDS;

/** A resource's fields that only answers carry (`id`, `name`, times): a re-imported export drops them. */
export const responseOnlyFields = (resource: ResourceName): string[] =>
  RESOURCE_FIELDS[resource].filter((f) => f === 'id' || f === 'name' || f.endsWith('_at'));

/** Object fields whose parts are fixed: CSV writes them as dotted columns (`address.city`). */
export const OBJECT_PARTS: Readonly<Record<string, readonly string[]>> = { address: ADDRESS_PARTS };

/** The resource in `data` of each operation. */
export const OPERATION_RESOURCE: Readonly<Record<OperationId, ResourceName>> = {
  listUsers: 'User',
  createUser: 'User',
  getUser: 'User',
  updateUser: 'User',
  listUserConferenceAccounts: 'OnlineConferenceAccount',
  listUserConnectedAccounts: 'ConnectedAccount',
  listCustomers: 'Customer',
  createCustomer: 'Customer',
  getCustomer: 'Customer',
  updateCustomer: 'Customer',
  listConferences: 'OnlineConference',
  createConference: 'OnlineConference',
  getConference: 'OnlineConference',
  updateConference: 'OnlineConference',
  deleteConference: 'OnlineConference',
  addConferenceAttendees: 'OnlineConferenceAttendee',
  removeConferenceAttendee: 'OnlineConferenceAttendee',
  listConferenceAttendees: 'OnlineConferenceAttendee',
  listConferenceRecordings: 'OnlineConferenceRecording',
  getRecordingUrl: 'TemporaryUrl',
  createAttendeeJoinToken: 'JoinToken',
  getCalendarEvent: 'CalendarEvent',
};

/** A coded field's labels by value, from its values by name. */
function labelsOf(values: Readonly<Record<string, number>>): Record<number, string> {
  return Object.fromEntries(Object.entries(values).map(([label, value]) => [value, label]));
}

/** Labels of coded numeric fields (decisions §7), by resource and field. */
export const CODE_LABELS: Partial<Record<ResourceName, Readonly<Record<string, Readonly<Record<number, string>>>>>> = {
  User: { status: labelsOf(USER_STATUS) },
  OnlineConferenceRecording: { status: labelsOf(RECORDING_STATUS) },
};
