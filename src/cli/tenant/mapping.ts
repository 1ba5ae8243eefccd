/**
 * `sync`: records exported by another system (an HR roster, a CRM) turned into desired users or
 * customers. A mapping names which column gives which field (`Work Email=email`); without one,
 * columns named like fields are taken as they are and others ignored. A mapped column that the
 * file does not have is refused at once. Records match the tenant's rows by e-mail, or by the
 * API's id (`--key id`): the only two keys the API keeps unique. Defaults fill what a created
 * record needs and the file lacks. No I/O.
 */
import { ADDRESS_PARTS } from '../../contract/resource-fields.js';
import { DAYS } from '../../contract/resource-fields.js';
import { at } from '../output/values.js';
import { type RawRecord, typedCsv } from './files.js';
import { CUSTOMER_KEYS, type Record_, USER_CREATE_ONLY, USER_KEYS } from './model.js';

export type SyncKind = 'users' | 'customers';

/** The fields a sync can set, by kind (customers' address by its parts). */
export const SYNC_FIELDS: Record<SyncKind, readonly string[]> = {
  users: [...USER_KEYS, ...USER_CREATE_ONLY],
  customers: CUSTOMER_KEYS.flatMap((k) => (k === 'address' ? ADDRESS_PARTS.map((p) => `address.${p}`) : [k])),
};

/** What a user to be created gets when the file and `--defaults` give nothing. */
export const USER_DEFAULTS: Record_ = {
  timezone: 'UTC',
  role: 'Member',
  work_hours: Object.fromEntries(DAYS.map((d) => [d, []])),
  department: null,
  activate: false,
};

export type Mapping = ReadonlyArray<readonly [column: string, field: string]>;

/**
 * The field a sync matches records by. Users and customers are unique in the API by `email`
 * (ignoring case) and by `id`; no other field is (there is no field for an employee number).
 */
export type SyncKey = 'email' | 'id';
export const SYNC_KEYS: readonly SyncKey[] = ['email', 'id'];

/** Why a mapping or defaults cannot be used (exit 2 in the command). */
export class MappingError extends Error {}

/** `Work Email=email,Given Name=first_name` → pairs; each field must be one `kind` takes. */
export function parseMapSpec(spec: string, kind: SyncKind): Mapping {
  return checkMapping(
    spec.split(',').filter((p) => p.trim()).map((part) => {
      const eq = part.lastIndexOf('=');
      if (eq <= 0) throw new MappingError(`--map takes COLUMN=field pairs separated by commas, not '${part}'`);
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()] as const;
    }),
    kind,
  );
}

/** A mapping file's object (`{"Work Email": "email"}`) → pairs. */
export function mappingOf(value: unknown, kind: SyncKind): Mapping {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new MappingError('a mapping file holds one object: {"COLUMN": "field", …}');
  return checkMapping(Object.entries(value).map(([column, field]) => [column, String(field)] as const), kind);
}

function checkMapping(pairs: Mapping, kind: SyncKind): Mapping {
  const unknown = pairs.filter(([, field]) => !SYNC_FIELDS[kind].includes(field) && field !== 'id');
  if (unknown.length) throw new MappingError(`the mapping names ${unknown.map(([, f]) => `'${f}'`).join(', ')}, not a field of ${kind} (${SYNC_FIELDS[kind].join(', ')})`);
  return pairs;
}

/**
 * `--key`: a key field (`email`, `id`), or a column the mapping maps to one (`--key "Staff Id"`
 * with `Staff Id=id`). Any other field cannot match: the API keeps it unique nowhere.
 */
export function syncKeyOf(raw: string | undefined, mapping: Mapping | undefined, kind: SyncKind): SyncKey {
  if (raw === undefined) return 'email';
  const field = mapping?.find(([column]) => column === raw)?.[1] ?? mapping?.find(([column]) => column.toLowerCase() === raw.toLowerCase())?.[1] ?? raw;
  if (SYNC_KEYS.includes(field as SyncKey)) return field as SyncKey;
  const what = field === raw ? `'${raw}'` : `'${raw}' (mapped to ${field})`;
  throw new MappingError(`--key ${what} cannot match ${kind}: the API keeps ${kind} unique only by email (ignoring case) and by id, so only those can match a record to one of them (--key email or --key id)`);
}

/** The columns of `raws`: every top-level key, in order of first appearance (dotted for nested CSV headers). */
function columnsOf(raws: readonly RawRecord[]): string[] {
  const columns = new Set<string>();
  const walk = (value: Record_, prefix: string) => {
    for (const [k, v] of Object.entries(value)) {
      if (v && typeof v === 'object' && !Array.isArray(v) && prefix === '' && k === 'address') walk(v as Record_, `${k}.`);
      else columns.add(prefix + k);
    }
  };
  for (const r of raws) if (r.value && typeof r.value === 'object') walk(r.value as Record_, '');
  return [...columns];
}

/**
 * The records with fields named as `kind` takes them. Each mapped column must exist in the file
 * (case-insensitive), else a `MappingError` at once; some column must give the key (`email`, or
 * `id` with `--key id`). An `id` is read only to match by, so only with `--key id`.
 */
export function mapRecords(raws: readonly RawRecord[], kind: SyncKind, mapping: Mapping | undefined, key: SyncKey = 'email'): RawRecord[] {
  const columns = columnsOf(raws);
  const takes = (field: string) => SYNC_FIELDS[kind].includes(field) || (key === 'id' && field === 'id');
  const pairs = mapping ?? columns.filter(takes).map((c) => [c, c] as const);
  if (pairs.some(([, field]) => !takes(field))) throw new MappingError(`the mapping gives id, which only matches records to the tenant's: add --key id`);
  const resolved = pairs.map(([column, field]) => {
    const found = columns.find((c) => c === column) ?? columns.find((c) => c.toLowerCase() === column.toLowerCase());
    return [found, field, column] as const;
  });
  const missing = resolved.filter(([found]) => found === undefined).map(([, , column]) => `'${column}'`);
  if (raws.length && missing.length) throw new MappingError(`the mapping names ${missing.length === 1 ? 'a column' : 'columns'} the file does not have: ${missing.join(', ')} (its columns: ${columns.join(', ')})`);
  if (raws.length && !resolved.some(([, field]) => field === key)) {
    const example = key === 'email' ? 'Work Email=email' : 'Staff Id=id';
    throw new MappingError(`no column gives ${key}, the key (the file's columns: ${columns.join(', ')}); map one, e.g. --map "${example}"`);
  }
  return raws.map((raw) => {
    const source = (raw.value ?? {}) as Record_;
    const fields: Record_ = {};
    for (const [column, field] of resolved) {
      const v = column! in source ? source[column!] : at(source, column!);
      if (v === undefined || v === '') continue;
      if (field === 'id') fields.id = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
      else if (field.startsWith('address.')) fields.address = { ...((fields.address) ?? {}), [field.slice(8)]: v };
      else fields[field] = v;
    }
    return { ...raw, value: typedCsv(fields), lineOf: () => raw.line };
  });
}

/** `--defaults k=v,…`: values that read as JSON (objects, booleans, null) are taken as JSON, the rest as text. */
export function parseDefaultsSpec(spec: string): Record_ {
  const out: Record_ = {};
  for (const part of spec.split(/,(?=[a-z_.]+=)/)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new MappingError(`--defaults takes field=value pairs separated by commas (or a file), not '${part}'`);
    const raw = part.slice(eq + 1).trim();
    let value: unknown = raw;
    if (/^[{[]|^(true|false|null)$/.test(raw)) {
      try {
        value = JSON.parse(raw) as unknown;
      } catch {
        throw new MappingError(`--defaults ${part.slice(0, eq)}: not valid JSON`);
      }
    }
    out[part.slice(0, eq).trim()] = value;
  }
  return out;
}

/** The defaults for `kind`: the built-in ones (users), then `given` over them; each key must be a field. */
export function defaultsFor(kind: SyncKind, given: Record_): Record_ {
  const unknown = Object.keys(given).filter((k) => !SYNC_FIELDS[kind].includes(k) && !(kind === 'customers' && k === 'address'));
  if (unknown.length) throw new MappingError(`--defaults names ${unknown.map((k) => `'${k}'`).join(', ')}, not a field of ${kind}`);
  return { ...(kind === 'users' ? USER_DEFAULTS : {}), ...given };
}
