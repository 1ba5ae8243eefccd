/**
 * Conference request bodies from flags, without I/O: `--attendee "Name <email>"`, `--public` /
 * `--private`, the create/update field flags, the required-field check and the public id slug.
 */
import type { Command } from 'commander';
import { parseJson, readText } from '../../body.js';
import { UsageError } from '../../errors.js';
import { positiveInt } from '../resource.js';

/** An attendee of a request body (spec §2, input attendee). */
export interface AttendeeInput {
  name: string;
  email: string;
}

const EMAIL = '[^<>\\s@]+@[^<>\\s@]+\\.[^<>\\s@.]+';
const NAMED = new RegExp(`^\\s*([^<>]*[^<>\\s])\\s*<\\s*(${EMAIL})\\s*>\\s*$`);
const BARE = new RegExp(`^\\s*(${EMAIL})\\s*$`);

/**
 * Parses `Name <email>` strictly (a non-empty name, one e-mail address in angle brackets, nothing
 * after), or a bare e-mail address, which is then its own name (the body requires a name).
 */
export function parseAttendee(value: string): AttendeeInput {
  const named = NAMED.exec(value);
  if (named) return { name: named[1].replace(/\s+/g, ' '), email: named[2] };
  const bare = BARE.exec(value);
  if (bare) return { name: bare[1], email: bare[1] };
  throw new UsageError(`--attendee must look like "Name <email@example.com>" or "email@example.com", not '${value}'`);
}


/** Adds `--title`, `--public` and `--private` (shared by create and update). */
export function addCommonFlags(cmd: Command): Command {
  return cmd
    .option('--title <text>', 'title (at most 255 characters)')
    .option('--public', 'anyone with the link may join')
    .option('--private', 'only attendees may join')
    .option('--data <json>', 'whole body as JSON, @FILE or - for stdin (flags override its keys)');
}


/** `title` and `is_public` from flags; `--public` with `--private` is exit 2. */
export function updateBodyFromFlags(flags: Record<string, unknown>): Record<string, unknown> {
  if (flags.public && flags.private) throw new UsageError('--public and --private do not go together');
  const body: Record<string, unknown> = {};
  if (typeof flags.title === 'string') body.title = flags.title;
  if (flags.public) body.is_public = true;
  if (flags.private) body.is_public = false;
  return body;
}

/** The create body fields given as flags, typed and checked. */
export function createBodyFromFlags(flags: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const account = positiveInt(flags.account, '--account');
  if (account !== undefined) body.online_conference_account_id = account;
  if (typeof flags.publicId === 'string') body.public_id = flags.publicId;
  Object.assign(body, updateBodyFromFlags(flags));
  const event = positiveInt(flags.backerEvent, '--backer-event');
  if (event !== undefined) body.backer_event_id = event;
  const attendees = ((flags.attendee as string[] | undefined) ?? []).map(parseAttendee);
  if (attendees.length) body.online_conference_attendees = attendees;
  return body;
}

/** Required create fields (decisions §10) and the flags that give them. */
export const REQUIRED: ReadonlyArray<{ key: string; flag: string }> = [
  { key: 'online_conference_account_id', flag: '--account' },
  { key: 'public_id', flag: '--public-id' },
  { key: 'title', flag: '--title' },
  { key: 'is_public', flag: '--public or --private' },
];

/** The flags naming the required fields absent from `body`. */
export function missingFlags(body: Record<string, unknown>): string[] {
  return REQUIRED.filter((r) => body[r.key] === undefined || body[r.key] === null).map((r) => r.flag);
}

/**
 * A valid public id suggested from a title: lower case, other characters as `-` (runs of `-`
 * collapsed), `-` trimmed from both ends, at most 255 characters. Empty when nothing is left.
 */
export function slug(title: string): string {
  const trim = (s: string) => s.replace(/^-+|-+$/g, '');
  return trim(trim(title.toLowerCase().replace(/[^a-z0-9_-]/g, '-').replace(/-{2,}/g, '-')).slice(0, 255));
}

/**
 * Reads `--data` for attendees add: a JSON array of `{name, email}` (inline, `@FILE` or `-`).
 */
export async function readAttendeesData(arg: string, stdin: NodeJS.ReadableStream): Promise<unknown[]> {
  const value: unknown = parseJson(await readText(arg, stdin), '--data');
  if (!Array.isArray(value)) throw new UsageError('--data must be a JSON array of {"name","email"} objects');
  return value as unknown[];
}
