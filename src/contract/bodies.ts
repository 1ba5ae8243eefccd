import { z } from 'zod';
import { inputString } from './common.js';
import { EXPIRY_MAX, EXPIRY_MIN, JOIN_EXPIRY_MAX, JOIN_EXPIRY_MIN } from './operations-meta.js';
import { ADDRESS_FIELDS, type AddressField, DAYS, type Day } from './resources.js';

const BETWEEN = (a: number, b: number) => `The :attribute field must be between ${a} and ${b}.`;
const FORMAT_INVALID = 'The :attribute field format is invalid.';
const REQUIRED = 'The :attribute field is required.';

/** A required text field of at most `max` characters (an empty string counts as missing). */
const text = (max = 255) => inputString().min(1, { error: REQUIRED }).max(max);
const optionalText = (max = 255) => inputString().max(max);
const email = () => inputString().min(1, { error: REQUIRED }).max(255).pipe(z.email());
const intBetween = (a: number, b: number) =>
  z.number().int().min(a, { error: BETWEEN(a, b) }).max(b, { error: BETWEEN(a, b) });

/** E.164: a plus sign and 8 to 15 digits (decisions §7). */
export const E164 = /^\+[1-9][0-9]{7,14}$/;
/** The conference public id pattern of spec §2. */
export const PUBLIC_ID = /^[a-zA-Z0-9-_]+$/;

let zoneCache: Set<string> | undefined;
/** Segments of an IANA name as the tz database writes them: each starts with a capital or a digit. */
const IANA_SHAPE = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Z0-9][A-Za-z0-9_+-]*)*$/;
/**
 * True for an IANA time zone name known to this Node runtime. `Intl.supportedValuesOf` lists
 * only ICU's canonical ids (`Asia/Calcutta`, not the IANA `Asia/Kolkata`; no `UTC`, `Europe/Kyiv`
 * or links such as `US/Eastern`), so any other name ICU resolves counts too, when written as the
 * tz database writes it (`europe/paris` does not). A name ICU resolved is remembered (a few
 * hundred at most), since asking ICU costs tens of microseconds and a plan checks every user.
 */
export function isTimezone(name: string): boolean {
  zoneCache ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (zoneCache.has(name)) return true;
  if (!IANA_SHAPE.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    zoneCache.add(name);
    return true;
  } catch {
    return false;
  }
}
const timezone = () => inputString().refine(isTimezone, { error: 'The :attribute field must be a valid timezone.' });

const seconds = (t: { hour: number; minute: number; second: number }) => t.hour * 3600 + t.minute * 60 + t.second;
const inRange = (t: { hour: number; minute: number; second: number }, maxHour: number) =>
  [t.hour, t.minute, t.second].every(Number.isInteger) && t.hour >= 0 && t.hour <= maxHour && t.minute >= 0 && t.minute <= 59 && t.second >= 0 && t.second <= 59;
const TimeInput = (maxHour: number) =>
  z.object({ hour: intBetween(0, maxHour), minute: intBetween(0, 59), second: intBetween(0, 59) });
const IntervalInput = z.object({ start: TimeInput(23), end: TimeInput(24) });

/**
 * Work hours input (decisions §7): all seven days; each interval has start < end, `end` at most
 * 24:00:00, and intervals of a day do not overlap. A bad interval reports `work_hours.DAY.N`.
 */
export const WorkHoursInput = z
  .object(Object.fromEntries(DAYS.map((d) => [d, z.array(IntervalInput)])) as Record<Day, z.ZodArray<typeof IntervalInput>>)
  .superRefine((hours, ctx) => {
    for (const day of DAYS) {
      const intervals = hours[day];
      intervals.forEach((interval, i) => {
        // An interval with an out-of-range part already has its error at that part.
        if (!inRange(interval.start, 23) || !inRange(interval.end, 24)) return;
        const start = seconds(interval.start);
        const end = seconds(interval.end);
        const overlaps = intervals.slice(0, i).some((o) => start < seconds(o.end) && seconds(o.start) < end);
        if (start >= end || end > 24 * 3600 || overlaps) {
          ctx.addIssue({ code: 'custom', path: [day, i], message: FORMAT_INVALID });
        }
      });
    }
  });

export const AddressInput = z.object(
  Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, optionalText().nullable().optional()])) as Record<
    AddressField,
    z.ZodOptional<z.ZodNullable<z.ZodString>>
  >,
);

/** PATCH /users/{id}: every field optional; `null` clears nullable fields (decisions §7). */
export const UserUpdateBody = z.object({
  department_id: z.number().int().nullable().optional(),
  first_name: text().optional(),
  last_name: text().optional(),
  email: email().optional(),
  timezone: timezone().nullable().optional(),
  work_hours: WorkHoursInput.nullable().optional(),
  role: text().optional(),
});
export type UserUpdateBody = z.infer<typeof UserUpdateBody>;

/** §11's rule, reported under `activate`: a silent create (no invitation) must activate the user. */
const SILENT_NEEDS_ACTIVATE = 'The :attribute field must be true when is_silent is true.';

/**
 * POST /users (decisions §11): the seven writable fields of an update, all required; only
 * `department_id` may be null. `activate` (status 1 at once, and `users.lock.*` besides) and
 * `is_silent` (no invitation) are false when absent; `is_silent` needs `activate`. That rule is
 * checked whenever both flags parsed, whatever else failed, so every error is reported at once.
 */
export const UserCreateBody = z
  .object({
    department_id: z.number().int().nullable(),
    first_name: text(),
    last_name: text(),
    email: email(),
    timezone: timezone(),
    work_hours: WorkHoursInput,
    role: text(),
    // Absent means false. Declared optional rather than with a zod default, which code generators
    // (openapi-typescript) would turn into a required request field.
    activate: z.boolean().optional().describe('Default false. Makes the user active (status 1) at once; needs users.lock.* besides.'),
    is_silent: z.boolean().optional().describe('Default false. Sends no invitation; needs activate.'),
  })
  .refine((b) => !b.is_silent || b.activate, {
    path: ['activate'],
    error: SILENT_NEEDS_ACTIVATE,
    when: ({ value, issues }) =>
      value !== null && typeof value === 'object' && !issues.some((i) => i.path?.[0] === 'activate' || i.path?.[0] === 'is_silent'),
  });
export type UserCreateBody = z.infer<typeof UserCreateBody>;

/** POST /customers: first_name, last_name and email are required (decisions §7). */
export const CustomerCreateBody = z.object({
  first_name: text(),
  middle_name: optionalText().nullable().optional(),
  last_name: text(),
  email: email(),
  contact_number: inputString().regex(E164, { error: FORMAT_INVALID }).nullable().optional(),
  address: AddressInput.nullable().optional(),
});
export type CustomerCreateBody = z.infer<typeof CustomerCreateBody>;

/** PATCH /customers/{id}: the create fields, each optional. */
export const CustomerUpdateBody = CustomerCreateBody.partial();
export type CustomerUpdateBody = z.infer<typeof CustomerUpdateBody>;

export const AttendeeInput = z.object({ email: email(), name: text() });
export type AttendeeInput = z.infer<typeof AttendeeInput>;

/** Attendees accepted in the body of a conference create. */
export const MAX_CREATE_ATTENDEES = 5;

/** POST /online_conferences (required fields per decisions §10). */
export const ConferenceCreateBody = z.object({
  online_conference_account_id: z.number().int(),
  public_id: text().regex(PUBLIC_ID, { error: FORMAT_INVALID }),
  title: text(),
  is_public: z.boolean(),
  backer_event_id: z.number().int().nullable().optional(),
  online_conference_attendees: z.array(AttendeeInput).max(MAX_CREATE_ATTENDEES).optional(),
});
export type ConferenceCreateBody = z.infer<typeof ConferenceCreateBody>;

export const ConferenceUpdateBody = z.object({ title: text().optional(), is_public: z.boolean().optional() });
export type ConferenceUpdateBody = z.infer<typeof ConferenceUpdateBody>;

/** POST /online_conferences/{id}/attendees: a JSON array with no item limit of its own. */
export const AttendeesAddBody = z.array(AttendeeInput);
export type AttendeesAddBody = z.infer<typeof AttendeesAddBody>;

export { EXPIRY_GRACE, EXPIRY_MAX, EXPIRY_MIN } from './operations-meta.js';

/**
 * Query of the recording URL operation; an empty `expiry` means the default. A whole number
 * out of range (`-5`) is "between", not "an integer" (decisions §10 message family); one beyond
 * the safe integers is not an integer we can take.
 */
export const RecordingUrlQuery = z.object({
  expiry: z
    .string()
    .regex(/^(-?[0-9]+)?$/, { error: 'The :attribute field must be an integer.' })
    .refine((v) => v === '' || Number.isSafeInteger(Number(v)), { error: 'The :attribute field must be an integer.' })
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : Number(v)))
    .pipe(intBetween(EXPIRY_MIN, EXPIRY_MAX).optional()),
});
export type RecordingUrlQuery = z.infer<typeof RecordingUrlQuery>;

/**
 * POST …/attendees/{id}/join_token (decisions §11): `expiry` whole seconds; absent or null means
 * the default (3600). A string or a fraction is "an integer", an out-of-range whole number
 * "between".
 */
export const JoinTokenBody = z.object({
  // Aborts after the integer check, so a huge number is one error ("an integer"), not two.
  expiry: z
    .number()
    .int({ abort: true })
    .min(JOIN_EXPIRY_MIN, { error: BETWEEN(JOIN_EXPIRY_MIN, JOIN_EXPIRY_MAX) })
    .max(JOIN_EXPIRY_MAX, { error: BETWEEN(JOIN_EXPIRY_MIN, JOIN_EXPIRY_MAX) })
    .nullable()
    .optional(),
});
export type JoinTokenBody = z.infer<typeof JoinTokenBody>;
