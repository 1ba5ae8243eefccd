/**
 * Users and customers: desired records against the tenant's rows, keyed by e-mail (ASCII case
 * folded), or by id where a sync record gives one (`--key id`). A difference in a managed field
 * is an update with a complete body (decisions §12); a key the tenant lacks is a create; a tenant
 * row no record names is unmanaged (never deleted: the API cannot). No I/O.
 */
import { COMPLETE_BODIES } from '../../contract/complete-bodies.js';
import type { Change, Desired, Problem, Record_, TenantCustomer, TenantUser } from './model.js';
import { foldKey, normalAddress, same } from './values.js';

export interface PeopleDiff {
  changes: Change[];
  unmanaged: string[];
}

/** A user in the files' vocabulary: the department by name. */
export const userView = (u: TenantUser): Record_ => ({
  email: u.email,
  first_name: u.first_name,
  last_name: u.last_name,
  department: u.department_name,
  role: u.role,
  timezone: u.timezone,
  work_hours: u.work_hours,
});

export const customerView = (c: TenantCustomer): Record_ => ({
  email: c.email,
  first_name: c.first_name,
  middle_name: c.middle_name,
  last_name: c.last_name,
  contact_number: c.contact_number,
  address: normalAddress(c.address),
});

/** E-mails and department names compare as the server compares them (ASCII case folded); addresses by their parts. */
export function fieldEqual(field: string, a: unknown, b: unknown): boolean {
  if ((field === 'department' || field === 'email') && typeof a === 'string' && typeof b === 'string') return foldKey(a) === foldKey(b);
  return field === 'address' ? same(normalAddress(a), normalAddress(b)) : same(a, b);
}

/** The managed fields of `want` that differ from `view`. */
function changedFields(want: Record_, view: Record_): string[] {
  return Object.keys(view).filter((f) => f in want && !fieldEqual(f, want[f], view[f]));
}

const pick = (r: Record_, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, r[k] ?? null]));

/** A kind's live rows by id and by folded e-mail. */
interface Rows<T> {
  byId: Map<number, T>;
  byKey: Map<string, T>;
}

const rowsOf = <T extends { id: number; email: string }>(tenant: readonly T[]): Rows<T> => ({ byId: new Map(tenant.map((r) => [r.id, r])), byKey: new Map(tenant.map((r) => [foldKey(r.email), r])) });

/**
 * The row `d` names: by its id (sync `--key id`), else by its e-mail; undefined when none (a
 * create). Null, with the problem named, when its id is no live row's, or when the e-mail it
 * gives a row is another row's (the server would refuse it as taken).
 */
function matchRow<T extends { id: number; email: string }>(d: Desired, rows: Rows<T>, noun: string, problem: (field: string, message: string) => void): T | undefined | null {
  if (d.id === undefined) return rows.byKey.get(foldKey(d.key));
  const row = rows.byId.get(d.id);
  if (!row) {
    problem('id', `The selected id is invalid: no ${noun} of the tenant (not deleted) has id ${d.id}, and the API makes ids itself.`);
    return null;
  }
  const email = d.fields.email;
  const holder = typeof email === 'string' ? rows.byKey.get(foldKey(email)) : undefined;
  if (holder && holder.id !== row.id) {
    problem('email', `The email has already been taken (by ${noun} id ${holder.id}).`);
    return null;
  }
  return row;
}

/** What users need besides the records: the tenant's departments and roles (seen on users, or declared). */
export interface UserContext {
  departments: ReadonlyArray<{ id: number; name: string }>;
  roles: readonly string[];
}

/** The API lists neither departments nor roles: those known are the ones users show, and those declared. */
const UNKNOWN_DEPARTMENT = 'The selected department is invalid: no user of the tenant is in a department of this name (the API cannot list departments; declare one with --department NAME=ID).';
const UNKNOWN_ROLE = 'The selected role is invalid: no user of the tenant holds it (the API cannot list roles; declare one with --role NAME).';

/** Department ids by folded name (a name may be shared). */
function departmentIndex(departments: UserContext['departments']): Map<string, number[]> {
  const index = new Map<string, number[]>();
  for (const d of departments) {
    const ids = index.get(foldKey(d.name)) ?? [];
    if (!ids.includes(d.id)) ids.push(d.id);
    index.set(foldKey(d.name), ids);
  }
  return index;
}

/** A required value the body needs and neither the record nor the tenant (nor a default) gives. */
const missing = (body: Record_, keys: readonly string[]) => keys.filter((k) => body[k] === null || body[k] === undefined || body[k] === '');

export function diffUsers(desired: readonly Desired[], tenant: readonly TenantUser[], context: UserContext, problems: Problem[]): PeopleDiff {
  const rows = rowsOf(tenant);
  const matched = new Set<number>();
  const departments = departmentIndex(context.departments);
  const roles = new Set(context.roles);
  const changes: Change[] = [];
  const notNull = COMPLETE_BODIES.updateUser.notNull;
  for (const d of desired) {
    const problem = (field: string, message: string) => problems.push({ file: d.where.file, line: d.where.lineOf(field), key: d.key, field, message });
    const before = problems.length;
    const row = matchRow(d, rows, 'user', problem);
    if (row === null) continue;
    if (row) matched.add(row.id);
    const view = row ? userView(row) : undefined;
    const fromDefaults = row ? [] : Object.keys(d.defaults ?? {}).filter((k) => d.fields[k] === undefined || (d.fields[k] === null && k !== 'department'));
    const want: Record_ = { ...d.fields, ...Object.fromEntries(fromDefaults.map((k) => [k, d.defaults![k]])) };
    const changed = view ? changedFields(want, view) : [];
    if (view && !changed.length) continue;
    let departmentId: number | null = row?.department_id ?? null;
    if ('department' in want && (!view || changed.includes('department'))) {
      const name = want.department;
      const ids = typeof name === 'string' ? departments.get(foldKey(name)) : [];
      if (typeof name === 'string' && !ids?.length) problem('department', UNKNOWN_DEPARTMENT);
      else if (ids && ids.length > 1) problem('department', `The department name is ambiguous: the tenant has departments ${ids.join(', ')} named so.`);
      else departmentId = ids?.[0] ?? null;
    }
    if (typeof want.role === 'string' && (!view || changed.includes('role')) && !roles.has(want.role)) problem('role', UNKNOWN_ROLE);
    const merged = { ...(view ?? {}), ...want };
    const body: Record_ = { department_id: departmentId, ...pick(merged, COMPLETE_BODIES.updateUser.keys.filter((k) => k !== 'department_id')) };
    for (const field of missing(body, notNull)) {
      const tenantLacks = view && (view[field] === null || view[field] === undefined);
      problem(field, tenantLacks ? `The ${field} field is required: the tenant's row has none, and an update sends every field.` : `The ${field} field is required.`);
    }
    if (problems.length > before) continue;
    if (!view) {
      changes.push({ kind: 'user', action: 'create', key: d.key, body: { ...body, activate: want.activate === true, is_silent: false }, ...(fromDefaults.length && { defaults: fromDefaults }) });
    } else {
      changes.push({ kind: 'user', action: 'update', key: row!.email, target_id: row!.id, before: view, after: pick(want, changed), body });
    }
  }
  return { changes, unmanaged: tenant.filter((u) => !matched.has(u.id)).map((u) => u.email) };
}

/** The body of a customer write: all six keys, `address` an object (`{}` for none). */
function customerBody(r: Record_): Record_ {
  return { ...pick(r, COMPLETE_BODIES.createCustomer.keys), address: normalAddress(r.address) ?? {} };
}

export function diffCustomers(desired: readonly Desired[], tenant: readonly TenantCustomer[], problems: Problem[]): PeopleDiff {
  const rows = rowsOf(tenant);
  const matched = new Set<number>();
  const changes: Change[] = [];
  for (const d of desired) {
    const problem = (field: string, message: string) => problems.push({ file: d.where.file, line: d.where.lineOf(field), key: d.key, field, message });
    const row = matchRow(d, rows, 'customer', problem);
    if (row === null) continue;
    if (!row) {
      const want: Record_ = { ...(d.defaults ?? {}), ...Object.fromEntries(Object.entries(d.fields).filter(([, v]) => v !== undefined)) };
      const absent = missing(want, ['first_name', 'last_name']);
      for (const field of absent) problem(field, `The ${field} field is required.`);
      if (!absent.length) changes.push({ kind: 'customer', action: 'create', key: d.key, body: customerBody(want) });
      continue;
    }
    matched.add(row.id);
    const view = customerView(row);
    // A sync record's address parts update those parts; a file's address is the whole address.
    const given = d.partial && d.fields.address && typeof d.fields.address === 'object' ? { ...d.fields, address: { ...(view.address ?? {}), ...(d.fields.address as Record_) } } : d.fields;
    const changed = changedFields(given, view);
    if (!changed.length) continue;
    const after = pick(given, changed);
    if ('address' in after) after.address = normalAddress(after.address);
    changes.push({ kind: 'customer', action: 'update', key: row.email, target_id: row.id, before: view, after, body: customerBody({ ...view, ...given }) });
  }
  return { changes, unmanaged: tenant.filter((c) => !matched.has(c.id)).map((c) => c.email) };
}
