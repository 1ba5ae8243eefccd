/**
 * Desired state from records: each kind's keys checked (required, unknown, types, formats with
 * the server's §10 messages, duplicate keys ignoring case), every problem collected with its
 * file, line, record key and field. A file's record is the whole truth of its object: a key it
 * leaves out is null. A sync record (`partial`) manages only the keys it gives. No I/O.
 */
import { z } from 'zod';
import { AttendeeInput, ConferenceCreateBody, CustomerCreateBody, UserUpdateBody } from '../../contract/bodies.js';
import { parseWith } from '../../contract/validation.js';
import type { RawRecord } from './files.js';
import { CONFERENCE_KEYS, CUSTOMER_KEYS, type Desired, type Kind, type Problem, type Record_, USER_CREATE_ONLY, USER_KEYS } from './model.js';
import { foldKey } from './values.js';

const KEY_FIELD: Record<Kind, string> = { users: 'email', customers: 'email', conferences: 'public_id' };
const ALLOWED: Record<Kind, readonly string[]> = {
  users: [...USER_KEYS, ...USER_CREATE_ONLY],
  customers: CUSTOMER_KEYS,
  conferences: CONFERENCE_KEYS,
};
const REQUIRED: Record<Kind, readonly string[]> = {
  users: ['email', 'first_name', 'last_name'],
  customers: ['email', 'first_name', 'last_name'],
  conferences: ['public_id', 'title', 'is_public', 'host'],
};

const nullableText = z.string().nullable().optional();
const ConferenceRecord = ConferenceCreateBody.pick({ public_id: true, title: true, is_public: true }).extend({
  host: AttendeeInput.shape.email,
  account: nullableText,
  attendees: z.array(AttendeeInput).nullable().optional(),
});
const UserExtras = z.object({ department: nullableText, activate: z.boolean().optional() });

/** The schemas of a record's values, made once (a plan checks every record). */
const CustomerValues = CustomerCreateBody.partial();
const ConferenceValues = ConferenceRecord.partial();

/** Field errors of one record's values, by dotted path (the server's messages). */
function valueErrors(kind: Kind, fields: Record_): Record<string, string[]> {
  if (kind === 'customers') return errorsOf(CustomerValues, fields);
  if (kind === 'conferences') return errorsOf(ConferenceValues, fields);
  // A null role is left to the plan, as a null timezone is: it matters only when a body needs it.
  const { department, activate, role, ...rest } = fields;
  return { ...errorsOf(UserUpdateBody, { ...rest, ...(role !== null && { role }) }), ...errorsOf(UserExtras, { department, activate }) };
}

function errorsOf(schema: z.ZodType, value: Record_): Record<string, string[]> {
  const result = parseWith(schema, value);
  return result.ok ? {} : result.errors;
}

export interface DesiredOptions {
  /** Sync: a record manages only the keys it gives. */
  partial?: boolean;
  /** Sync `--key id`: a record may name its tenant row by `id` (then its e-mail may change, or be left out). */
  matchById?: boolean;
}

/** A record's `id` (sync `--key id`): a whole number, or a problem. */
function idOf(value: unknown, at: (message: string) => void): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  at('The id field must be an integer.');
  return undefined;
}

/**
 * The desired records of one kind from raw records (possibly of several files), and the problems
 * found. A record with problems is left out, so a plan is made only when `problems` is empty.
 */
export function desiredOf(kind: Kind, raws: readonly RawRecord[], problems: Problem[], options: DesiredOptions = {}): Desired[] {
  const keyField = KEY_FIELD[kind];
  const seen = new Map<string, RawRecord>();
  const seenIds = new Map<number, RawRecord>();
  const out: Desired[] = [];
  for (const raw of raws) {
    const at = (field: string | undefined, key: string | undefined, message: string) =>
      problems.push({ file: raw.file, line: field ? raw.lineOf(field) : raw.line, key, field, message });
    if (!raw.value || typeof raw.value !== 'object' || Array.isArray(raw.value)) {
      at(undefined, undefined, 'a record must be a mapping of keys to values');
      continue;
    }
    const fields = { ...(raw.value as Record_) };
    const rawId = fields.id;
    if (options.matchById) delete fields.id;
    const keyValue = fields[keyField];
    const before = problems.length;
    const id = options.matchById ? idOf(rawId, (message) => at('id', typeof keyValue === 'string' ? keyValue : undefined, message)) : undefined;
    const key = typeof keyValue === 'string' && keyValue ? keyValue : id !== undefined ? `id ${id}` : undefined;
    for (const name of Object.keys(fields)) {
      if (!ALLOWED[kind].includes(name)) at(name, key, `The ${name} field is unknown (${kind} take ${ALLOWED[kind].join(', ')}).`);
    }
    for (const name of REQUIRED[kind]) {
      const v = fields[name];
      // A sync record needs its key; with --key id, a record naming its row by id may leave the e-mail out.
      const needed = !options.partial || (name === keyField && (!options.matchById || rawId === undefined || rawId === null));
      if (v === undefined ? needed : v === null || v === '') at(name, key, `The ${name} field is required.`);
    }
    const known = Object.fromEntries(Object.entries(fields).filter(([k, v]) => ALLOWED[kind].includes(k) && v !== undefined && !(REQUIRED[kind].includes(k) && (v === null || v === ''))));
    for (const [path, messages] of Object.entries(valueErrors(kind, known))) for (const m of messages) at(path, key, m);
    if (typeof keyValue === 'string' && keyValue) {
      const folded = foldKey(keyValue);
      const first = seen.get(folded);
      if (first) at(keyField, key, `The ${keyField} has already been taken (also at ${first.file}:${first.lineOf(keyField)}).`);
      else seen.set(folded, raw);
    }
    if (id !== undefined) {
      const first = seenIds.get(id);
      if (first) at('id', key, `The id has already been taken (also at ${first.file}:${first.lineOf('id')}).`);
      else seenIds.set(id, raw);
    }
    if (problems.length > before || !key) continue;
    if (!options.partial) for (const name of ALLOWED[kind]) if (!(name in fields) && !USER_CREATE_ONLY.includes(name as never)) fields[name] = name === 'attendees' ? [] : null;
    // The record itself as its place: a YAML record finds its line only when a problem asks (files.ts).
    out.push({ key, fields, where: raw, ...(options.partial && { partial: true }), ...(id !== undefined && { id }) });
  }
  return out;
}

/** One problem as a line: `users.yaml:12: ann@example.com: email: The email field must be … .` */
export function problemLine(p: Problem): string {
  const place = p.file ? `${p.file}${p.line ? `:${p.line}` : ''}: ` : '';
  return `${place}${p.key ? `${p.key}: ` : ''}${p.field ? `${p.field}: ` : ''}${p.message}`;
}
