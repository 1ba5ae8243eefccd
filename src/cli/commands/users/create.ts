/**
 * `confctl users create` (decisions §11): the complete body from `--data`, flags and bulk
 * records; asking for the missing required fields on a terminal, naming them in a pipe.
 */
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readData } from '../../body.js';
import type { BulkFailure } from '../../bulk/run.js';
import { DEPARTMENT_HINT } from '../../errors.js';
import { completeWeek, parseWorkHours } from '../../work-hours.js';
import { choicePrompter } from '../conferences/prompt.js';
import { runWrite, type WriteOptions } from '../resource.js';

type Body = Record<string, unknown>;

/** The keys of `POST /users`, in the body schema's order: all are always sent. */
export const USER_CREATE_KEYS = ['department_id', 'first_name', 'last_name', 'email', 'timezone', 'work_hours', 'role', 'activate', 'is_silent'] as const;

/** The required fields that may not be null, with the flag that gives each. */
const REQUIRED: ReadonlyArray<readonly [key: string, flag: string]> = [
  ['first_name', '--first-name'],
  ['last_name', '--last-name'],
  ['email', '--email'],
  ['timezone', '--timezone'],
  ['work_hours', '--work-hours'],
  ['role', '--role'],
];

/** `--activate` / `--silent`: given, they set `activate` / `is_silent` true over any record or `--data`. */
export interface CreateSwitches {
  activate: boolean;
  silent: boolean;
}

/** `--activate` and `--silent` → switches; `--silent` alone is exit 2 (the API's rule, before any request). */
export function createSwitches(flags: Record<string, unknown>): CreateSwitches {
  const switches = { activate: Boolean(flags.activate), silent: Boolean(flags.silent) };
  if (switches.silent && !switches.activate) throw new UsageError('--silent needs --activate', 'a user who gets no invitation must be active at once');
  return switches;
}

/** Monday to Friday, 09:00 to 17:00: the hours offered first when asked. */
export const OFFICE_HOURS = Object.fromEntries(
  ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((day) => [
    day,
    day === 'saturday' || day === 'sunday' ? [] : [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 0, second: 0 } }],
  ]),
);
const NO_HOURS = Object.fromEntries(Object.keys(OFFICE_HOURS).map((day) => [day, []]));

/**
 * A CSV cell is text: a department id of digits becomes a number, a work-hours cell its JSON or
 * the text form (`mon-fri 09:00-17:00`), and `true`/`false` a boolean. Work hours given as an
 * object get the days they leave out as no hours. Anything else is sent as it is, for the
 * contract's check to judge.
 */
function typed(key: string, value: unknown): unknown {
  if (key === 'work_hours') return typeof value === 'string' && value.trim() ? workHoursCell(value) : completeWeek(value);
  if (typeof value !== 'string') return value;
  if (key === 'department_id' && /^\d+$/.test(value)) return Number(value);
  if ((key === 'activate' || key === 'is_silent') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** A work-hours cell read as `--work-hours` reads it; one that cannot be read stays text. */
function workHoursCell(value: string): unknown {
  try {
    return parseWorkHours(value, (text) => JSON.parse(text) as unknown);
  } catch {
    return value;
  }
}

/**
 * The body of `POST /users`: every key, `department_id` null (no department) when not given,
 * `activate` and `is_silent` false unless given or switched on. Other keys (an exported user's
 * `id`, `status`, `name`, times) are left out.
 */
export function userCreateBody(input: Body, switches: CreateSwitches = { activate: false, silent: false }): Body {
  const body: Body = Object.fromEntries(USER_CREATE_KEYS.map((k) => [k, typed(k, input[k]) ?? null]));
  body.activate = switches.activate || (body.activate ?? false);
  body.is_silent = switches.silent || (body.is_silent ?? false);
  return body;
}

/** Fields an exported user may hold as null that `POST /users` requires. */
const NULLABLE_IN_EXPORTS = ['timezone', 'work_hours'];

/**
 * Why users exported from another instance failed, and what to do: a department this instance
 * lacks; a time zone or work hours that are null in the export.
 */
export function userFailureHints(failures: readonly BulkFailure[]): string[] {
  const has = (test: (field: string) => boolean) => failures.some((f) => Object.keys(f.errors ?? {}).some(test));
  return [
    ...(has((field) => field === 'department_id') ? [DEPARTMENT_HINT] : []),
    ...(has((field) => NULLABLE_IN_EXPORTS.includes(field))
      ? ["a user exported without a time zone or work hours must get them before it can be created: fill them in the file (e.g. timezone UTC, work_hours 'none'), then give the fixed file (the --errors file as it is) to --from-file"]
      : []),
  ];
}

/** The flags of the required fields that `body` lacks (absent or null). */
export const missingUserFlags = (body: Body): string[] => REQUIRED.filter(([k]) => body[k] === undefined || body[k] === null).map(([, flag]) => flag);

/** Asks for each missing required field in `body` (in place), in the form's natural order. */
async function promptMissing(body: Body, ctx: CliContext): Promise<void> {
  const ask = choicePrompter(ctx);
  const text = async (key: string, message: string, flag: string, fallback?: string) => {
    if (body[key] !== undefined && body[key] !== null) return;
    const answer = (await ask.input({ message, default: fallback })).trim() || fallback;
    if (!answer) throw new UsageError(`${key.replace('_', ' ')} is required`, `give ${flag}`);
    body[key] = answer;
  };
  await text('first_name', 'First name', '--first-name');
  await text('last_name', 'Last name', '--last-name');
  await text('email', 'E-mail', '--email');
  await text('timezone', 'Time zone (IANA name)', '--timezone', Intl.DateTimeFormat().resolvedOptions().timeZone);
  await text('role', 'Role (e.g. Admin, Manager, Member)', '--role');
  if (body.work_hours === undefined || body.work_hours === null) {
    body.work_hours = await ask.select({
      message: "Work hours (others: --work-hours 'mon-fri 08:00-16:00')",
      choices: [
        { name: 'Monday to Friday, 09:00-17:00', value: OFFICE_HOURS },
        { name: 'None (every day empty)', value: NO_HOURS },
      ],
    });
  }
}

/**
 * Create: `--data` first, flags over it; the six required fields that are missing are asked for
 * on a terminal, or (in a pipe, or with `--data -` holding stdin) named in one exit-2 error
 * before any request.
 */
export async function runUserCreate(opts: WriteOptions & { switches: CreateSwitches }, ctx: CliContext): Promise<void> {
  const body = { ...(opts.data !== undefined ? await readData(opts.data, ctx.streams.stdin) : {}), ...opts.body };
  const missing = missingUserFlags(body);
  if (missing.length) {
    if (!ctx.streams.canPrompt || opts.data === '-') {
      throw new UsageError(`missing required flags: ${missing.join(', ')}`, 'give them as flags or in --data; prompts need a terminal on stdin and stdout');
    }
    await promptMissing(body, ctx);
  }
  await runWrite('createUser', { ...opts, body, data: undefined }, ctx, (b) => userCreateBody(b, opts.switches));
}
