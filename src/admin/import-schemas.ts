/**
 * Shapes of the records `confctl admin import` accepts, one schema per kind, built from the
 * contract's pieces so the messages are the API's (decisions §10). These check form only;
 * references to other rows and uniqueness are checked by `import.ts` against the tenant.
 */
import { z } from 'zod';
import { CustomerCreateBody, UserUpdateBody, WorkHoursInput } from '../contract/bodies.js';
import { inputString, TypeName } from '../contract/common.js';
import { parseIsoInstant } from '../contract/dates.js';
import { EVENT_ATTENDEE_STATUS, USER_STATUS } from '../contract/resources.js';

/** Required text, 1 to 255 characters (the contract's `first_name` rule). */
const text = UserUpdateBody.shape.first_name.unwrap();
/** Required e-mail address, at most 255 characters. */
const email = CustomerCreateBody.shape.email;
const optionalText = inputString().max(255).nullable().optional();
const ref = z.number().int();
const optionalRef = ref.nullable().optional();

/** An ISO 8601 date or date-time (as list filters take them), normalised to ISO UTC. */
const date = z
  .string()
  .refine((v) => parseIsoInstant(v) !== undefined, { error: 'The :attribute field must be a valid date.' })
  .transform((v) => new Date(parseIsoInstant(v)!).toISOString());

const owner = { owner_type: TypeName, owner_id: ref };

export const DepartmentImport = z.object({ name: text });

/**
 * A user: `department_id` (a department of the tenant) or `department` (a name; matched
 * case-insensitively, created when the tenant has none of that name); `role` one of the tenant's
 * roles; `status` 0 inactive or 1 active (default 1).
 */
export const UserImport = z.object({
  first_name: text,
  last_name: text,
  email,
  department_id: optionalRef,
  department: text.nullable().optional(),
  role: text.nullable().optional(),
  timezone: UserUpdateBody.shape.timezone,
  work_hours: WorkHoursInput.nullable().optional(),
  status: z.literal([USER_STATUS.inactive, USER_STATUS.active]).optional(),
  avatar_url: inputString().max(2048).nullable().optional(),
});

/** A customer: exactly the API's create body. */
export const CustomerImport = CustomerCreateBody;

/** An online conference account of a user or customer, optionally tied to a connected account. */
export const ConferenceAccountImport = z.object({ ...owner, connected_account_id: optionalRef, name: text });

/** A connected account; `provider` is the provider's name (e.g. `zoom`), created when new. */
export const ConnectedAccountImport = z.object({
  ...owner,
  provider: text,
  provider_uid: text,
  provider_email: email.nullable().optional(),
});

export const CalendarImport = z.object({ ...owner, name: text });

const attendeeStatuses = Object.values(EVENT_ATTENDEE_STATUS) as [number, ...number[]];

export const EventAttendeeImport = z.object({
  email,
  name: optionalText,
  status: z.literal(attendeeStatuses).optional(),
  is_organizer: z.boolean().optional(),
  customer_id: optionalRef,
  calendar_id: optionalRef,
});

/** A calendar event; `start` and `end` are dates with `end` after `start` (checked in import). */
export const EventImport = z.object({
  calendar_id: ref,
  title: text,
  start: date,
  end: date,
  attendees: z.array(EventAttendeeImport).optional(),
  body: inputString().max(65535).nullable().optional(),
  location: optionalText,
  cancel_note: inputString().max(65535).nullable().optional(),
  canceled_by_id: optionalRef,
  canceled_by_type: TypeName.nullable().optional(),
  public_id: optionalText,
  provider_event_id: optionalText,
  customer_id: optionalRef,
  meeting_link_id: optionalRef,
});

export type DepartmentImport = z.infer<typeof DepartmentImport>;
export type UserImport = z.infer<typeof UserImport>;
export type CustomerImport = z.infer<typeof CustomerImport>;
export type ConferenceAccountImport = z.infer<typeof ConferenceAccountImport>;
export type ConnectedAccountImport = z.infer<typeof ConnectedAccountImport>;
export type CalendarImport = z.infer<typeof CalendarImport>;
export type EventImport = z.infer<typeof EventImport>;
