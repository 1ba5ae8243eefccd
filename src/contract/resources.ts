import { z } from 'zod';
import { ADDRESS_FIELDS, type AddressField } from './address-fields.js';
import { id, nullableTimestamp, timestamp, TypeName } from './common.js';
import { type Day, DAYS, EVENT_ATTENDEE_STATUS, RECORDING_STATUS, type RecordingStatusName, USER_STATUS } from './resource-fields.js';

/** A point of the day in a work-hours interval. */
export const TimeOfDay = z.object({ hour: z.number().int(), minute: z.number().int(), second: z.number().int() });
export const WorkInterval = z.object({ start: TimeOfDay, end: TimeOfDay });
export const WorkHours = z.object(Object.fromEntries(DAYS.map((d) => [d, z.array(WorkInterval)])) as Record<Day, z.ZodArray<typeof WorkInterval>>);
export type WorkHours = z.infer<typeof WorkHours>;
export type TimeOfDay = z.infer<typeof TimeOfDay>;

export { ADDRESS_FIELDS, type AddressField };
export { type Day, DAYS, EVENT_ATTENDEE_STATUS, RECORDING_STATUS, type RecordingStatusName, USER_STATUS };
export const Address = z.object(
  Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, z.string().nullable()])) as Record<AddressField, z.ZodNullable<z.ZodString>>,
);
export type Address = z.infer<typeof Address>;

export const User = z.object({
  id,
  department_id: z.number().int().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  timezone: z.string().nullable(),
  work_hours: WorkHours.nullable(),
  role: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  status: z.number().int().describe('0 inactive, 1 active'),
  avatar_url: z.string().nullable(),
  name: z.string(),
  department_name: z.string().nullable(),
  deleted_at: nullableTimestamp,
});
export type User = z.infer<typeof User>;

export const Customer = z.object({
  id,
  first_name: z.string(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  email: z.string(),
  contact_number: z.string().nullable().describe('E.164'),
  address: Address.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  name: z.string(),
  deleted_at: nullableTimestamp,
});
export type Customer = z.infer<typeof Customer>;

export const OnlineConference = z.object({
  id,
  online_conference_account_id: z.number().int(),
  public_id: z.string(),
  title: z.string(),
  is_public: z.boolean(),
  backer_event_id: z.number().int().nullable(),
  is_occurred: z.boolean(),
  started_at: nullableTimestamp,
  ended_at: nullableTimestamp,
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: nullableTimestamp,
});
export type OnlineConference = z.infer<typeof OnlineConference>;

export const OnlineConferenceAttendee = z.object({
  id,
  online_conference_id: z.number().int(),
  email: z.string(),
  name: z.string(),
  attendee_type: TypeName.nullable(),
  attendee_id: z.number().int().nullable(),
  joined_at: nullableTimestamp,
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: nullableTimestamp,
});
export type OnlineConferenceAttendee = z.infer<typeof OnlineConferenceAttendee>;

export const OnlineConferenceRecording = z.object({
  id,
  online_conference_id: z.number().int(),
  status: z.number().int().describe('1 Recording, 2 Processing, 3 Finished, 4 Failed'),
  file_name: z.string().nullable(),
  path: z.string().nullable(),
  started_at: nullableTimestamp,
  stopped_at: nullableTimestamp,
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: nullableTimestamp,
});
export type OnlineConferenceRecording = z.infer<typeof OnlineConferenceRecording>;

export const TemporaryUrl = z.object({ url: z.string(), expires_at: timestamp });
export type TemporaryUrl = z.infer<typeof TemporaryUrl>;

/** An attendee's join token (decisions §11); the token is opaque to clients. */
export const JoinToken = z.object({ token: z.string(), join_url: z.string(), expires_at: timestamp });
export type JoinToken = z.infer<typeof JoinToken>;

export const OnlineConferenceAccount = z.object({
  id,
  owner_type: TypeName,
  owner_id: z.number().int(),
  connected_account_id: z.number().int().nullable(),
  name: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: nullableTimestamp,
});
export type OnlineConferenceAccount = z.infer<typeof OnlineConferenceAccount>;

export const ConnectedAccount = z.object({
  id,
  owner_type: TypeName,
  owner_id: z.number().int(),
  provider_id: z.number().int(),
  provider_uid: z.string(),
  provider_email: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: nullableTimestamp,
});
export type ConnectedAccount = z.infer<typeof ConnectedAccount>;

export const EventAttendee = z.object({
  email: z.string(),
  name: z.string().nullable(),
  status: z.number().int().describe('0 needs action, 1 accepted, 2 declined, 3 tentative'),
  is_organizer: z.boolean(),
  customer_id: z.number().int().nullable(),
  calendar_id: z.number().int().nullable(),
});
export type EventAttendee = z.infer<typeof EventAttendee>;

export const CalendarEvent = z.object({
  id,
  calendar_id: z.number().int(),
  title: z.string(),
  start: timestamp,
  end: timestamp,
  attendees: z.array(EventAttendee),
  body: z.string().nullable(),
  location: z.string().nullable(),
  cancel_note: z.string().nullable(),
  canceled_by_id: z.number().int().nullable(),
  canceled_by_type: TypeName.nullable(),
  public_id: z.string().nullable(),
  provider_event_id: z.string().nullable(),
  customer_id: z.number().int().nullable(),
  meeting_link_id: z.number().int().nullable(),
  online_conference: OnlineConference.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: nullableTimestamp,
});
export type CalendarEvent = z.infer<typeof CalendarEvent>;
