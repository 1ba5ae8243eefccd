/**
 * Per-kind rules of `admin import`: the record schema, the checks against the tenant and the
 * rest of the file (references, uniqueness), and the insert. Checks only read; `write` runs after
 * every record of the file has passed.
 *
 * The rules are written once for both stores as generators of steps (steps.ts): SQLite answers
 * each at once inside its IMMEDIATE transaction, PostgreSQL awaits each inside one transaction.
 */
import type { z } from 'zod';
import type { TypeName } from '../contract/common.js';
import { USER_STATUS } from '../contract/resource-fields.js';
import { addError, type FieldErrors } from '../contract/validation.js';
import { ask, type Steps } from './steps.js';
import { emitEvent } from './events.js';
import * as S from './import-schemas.js';

const SELECTED_INVALID = 'The selected :attribute is invalid.';
const TAKEN = 'The :attribute has already been taken.';

/** State shared by the records of one import (duplicates within the file, caches). */
export class ImportContext {
  readonly seen = new Set<string>();
  private departments?: Map<string, number>;
  private providers = new Map<string, number>();

  constructor(readonly tenantId: number) {}

  /** True the second time the same key is seen in this file. */
  duplicate(key: string): boolean {
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    return false;
  }

  *ownerExists(type: TypeName, id: number): Steps<boolean> {
    return !!(yield* ask((s) => (type === 'User' ? s.users.get(this.tenantId, id) : s.customers.get(this.tenantId, id))));
  }

  /** Department id by name (case-insensitive), including ones this import created. */
  *departmentByName(name: string): Steps<number | undefined> {
    this.departments ??= new Map((yield* ask((s) => s.departments.list(this.tenantId))).map((d) => [d.name.toLowerCase(), d.id]));
    return this.departments.get(name.toLowerCase());
  }

  *ensureDepartment(name: string): Steps<number> {
    const found = yield* this.departmentByName(name);
    if (found !== undefined) return found;
    const created = yield* ask((s) => s.departments.create(this.tenantId, name));
    this.departments!.set(name.toLowerCase(), created.id);
    return created.id;
  }

  *ensureProvider(name: string): Steps<number> {
    let id = this.providers.get(name);
    if (id === undefined) this.providers.set(name, (id = (yield* ask((s) => s.providers.ensure(name))).id));
    return id;
  }
}

export interface KindSpec<T = unknown> {
  schema: z.ZodType<T>;
  /** Adds reference and uniqueness errors of one well-formed record. */
  check(row: T, ctx: ImportContext, errors: FieldErrors): Steps<void>;
  write(row: T, ctx: ImportContext): Steps<void>;
  /**
   * Names of the locks a PostgreSQL import takes before its checks in the writing transaction, so
   * that writers of the same unique key take turns (the names the units of work use).
   */
  locks?(row: T, tenantId: number): string[];
}

function* checkOwner(row: { owner_type: TypeName; owner_id: number }, ctx: ImportContext, errors: FieldErrors): Steps<void> {
  if (!(yield* ctx.ownerExists(row.owner_type, row.owner_id))) addError(errors, 'owner_id', SELECTED_INVALID);
}

const departments: KindSpec<S.DepartmentImport> = {
  schema: S.DepartmentImport,
  *check(row, ctx, errors) {
    if (ctx.duplicate(row.name.toLowerCase()) || (yield* ctx.departmentByName(row.name)) !== undefined) addError(errors, 'name', TAKEN);
  },
  *write(row, ctx) {
    yield* ask((s) => s.departments.create(ctx.tenantId, row.name));
  },
  locks: (_row, tenantId) => [`departments:${tenantId}`],
};

const users: KindSpec<S.UserImport> = {
  schema: S.UserImport,
  *check(row, ctx, errors) {
    const { tenantId } = ctx;
    if (ctx.duplicate(row.email.toLowerCase()) || (yield* ask((s) => s.users.emailTaken(tenantId, row.email)))) addError(errors, 'email', TAKEN);
    if (row.department_id != null && !(yield* ask((s) => s.departments.get(tenantId, row.department_id!)))) addError(errors, 'department_id', SELECTED_INVALID);
    if (row.department_id != null && row.department != null) {
      const named = yield* ctx.departmentByName(row.department);
      if (named !== row.department_id) addError(errors, 'department', SELECTED_INVALID);
    }
    if (row.role != null && !(yield* ask((s) => s.roles.exists(tenantId, row.role!)))) addError(errors, 'role', SELECTED_INVALID);
  },
  *write(row, ctx) {
    const { department, department_id, status, ...rest } = row;
    const departmentId = department_id ?? (department != null ? yield* ctx.ensureDepartment(department) : null);
    yield* ask((s) => s.users.insert(ctx.tenantId, { ...rest, department_id: departmentId, status: status ?? USER_STATUS.active }));
  },
  locks: (row, tenantId) => [`users.email:${tenantId}:${row.email.toLowerCase()}`, ...(row.department != null ? [`departments:${tenantId}`] : [])],
};

const customers: KindSpec<S.CustomerImport> = {
  schema: S.CustomerImport,
  *check(row, ctx, errors) {
    if (ctx.duplicate(row.email.toLowerCase()) || (yield* ask((s) => s.customers.emailTaken(ctx.tenantId, row.email)))) addError(errors, 'email', TAKEN);
  },
  *write(row, ctx) {
    yield* ask((s) => s.customers.insert(ctx.tenantId, row));
  },
  locks: (row, tenantId) => [`customers.email:${tenantId}:${row.email.toLowerCase()}`],
};

const conferenceAccounts: KindSpec<S.ConferenceAccountImport> = {
  schema: S.ConferenceAccountImport,
  *check(row, ctx, errors) {
    yield* checkOwner(row, ctx, errors);
    if (row.connected_account_id != null && !(yield* ask((s) => s.connectedAccounts.get(ctx.tenantId, row.connected_account_id!)))) {
      addError(errors, 'connected_account_id', SELECTED_INVALID);
    }
  },
  *write(row, ctx) {
    yield* ask((s) => s.conferenceAccounts.insert(ctx.tenantId, row));
  },
};

const connectedAccounts: KindSpec<S.ConnectedAccountImport> = {
  schema: S.ConnectedAccountImport,
  check: checkOwner,
  *write(row, ctx) {
    const { provider, ...rest } = row;
    const providerId = yield* ctx.ensureProvider(provider);
    yield* ask((s) => s.connectedAccounts.insert(ctx.tenantId, { ...rest, provider_id: providerId }));
  },
};

const calendars: KindSpec<S.CalendarImport> = {
  schema: S.CalendarImport,
  check: checkOwner,
  *write(row, ctx) {
    yield* ask((s) => s.calendars.insert(ctx.tenantId, row));
  },
};

const events: KindSpec<S.EventImport> = {
  schema: S.EventImport,
  *check(row, ctx, errors) {
    const { tenantId } = ctx;
    if (!(yield* ask((s) => s.calendars.get(tenantId, row.calendar_id)))) addError(errors, 'calendar_id', SELECTED_INVALID);
    if (Date.parse(row.end) <= Date.parse(row.start)) addError(errors, 'end', 'The :attribute field must be a date after start.');
    const attendees = row.attendees ?? [];
    for (let i = 0; i < attendees.length; i++) {
      const a = attendees[i];
      if (a.customer_id != null && !(yield* ask((s) => s.customers.get(tenantId, a.customer_id!)))) addError(errors, `attendees.${i}.customer_id`, SELECTED_INVALID);
      if (a.calendar_id != null && !(yield* ask((s) => s.calendars.get(tenantId, a.calendar_id!)))) addError(errors, `attendees.${i}.calendar_id`, SELECTED_INVALID);
    }
    if ((row.canceled_by_id == null) !== (row.canceled_by_type == null)) {
      const missing = row.canceled_by_id == null ? 'canceled_by_id' : 'canceled_by_type';
      const other = missing === 'canceled_by_id' ? 'canceled_by_type' : 'canceled_by_id';
      addError(errors, missing, `The :attribute field is required when ${other} is present.`);
    } else if (row.canceled_by_id != null && !(yield* ctx.ownerExists(row.canceled_by_type!, row.canceled_by_id))) {
      addError(errors, 'canceled_by_id', SELECTED_INVALID);
    }
    if (row.customer_id != null && !(yield* ask((s) => s.customers.get(tenantId, row.customer_id!)))) addError(errors, 'customer_id', SELECTED_INVALID);
  },
  *write(row, ctx) {
    const attendees = (row.attendees ?? []).map((a) => ({
      email: a.email,
      name: a.name ?? null,
      status: a.status ?? 0,
      is_organizer: a.is_organizer ?? false,
      customer_id: a.customer_id ?? null,
      calendar_id: a.calendar_id ?? null,
    }));
    const event = yield* ask((s) => s.events.insert(ctx.tenantId, { ...row, attendees }));
    yield* ask((s) => emitEvent(s, ctx.tenantId, 'events.created', event));
  },
};

/** The kinds `admin import` accepts, with their rules. */
export const IMPORT_KINDS = {
  users,
  departments,
  customers,
  'conference-accounts': conferenceAccounts,
  'connected-accounts': connectedAccounts,
  calendars,
  events,
} as const satisfies Record<string, KindSpec>;

export type ImportKind = keyof typeof IMPORT_KINDS;
