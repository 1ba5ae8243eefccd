/**
 * Per-kind rules of `admin import`: the record schema, the checks against the tenant and the
 * rest of the file (references, uniqueness), and the insert. Checks only read; `write` runs after
 * every record of the file has passed.
 */
import type { z } from 'zod';
import type { TypeName } from '../contract/common.js';
import { USER_STATUS } from '../contract/resources.js';
import { addError, type FieldErrors } from '../contract/validation.js';
import type { Store } from '../store/types.js';
import { emitEvent } from './events.js';
import * as S from './import-schemas.js';

const SELECTED_INVALID = 'The selected :attribute is invalid.';
const TAKEN = 'The :attribute has already been taken.';

/** State shared by the records of one import (duplicates within the file, caches). */
export class ImportContext {
  readonly seen = new Set<string>();
  private departments?: Map<string, number>;
  private providers = new Map<string, number>();

  constructor(
    readonly store: Store,
    readonly tenantId: number,
  ) {}

  /** True the second time the same key is seen in this file. */
  duplicate(key: string): boolean {
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    return false;
  }

  ownerExists(type: TypeName, id: number): boolean {
    return type === 'User' ? !!this.store.users.get(this.tenantId, id) : !!this.store.customers.get(this.tenantId, id);
  }

  /** Department id by name (case-insensitive), including ones this import created. */
  departmentByName(name: string): number | undefined {
    this.departments ??= new Map(this.store.departments.list(this.tenantId).map((d) => [d.name.toLowerCase(), d.id]));
    return this.departments.get(name.toLowerCase());
  }

  ensureDepartment(name: string): number {
    const found = this.departmentByName(name);
    if (found !== undefined) return found;
    const created = this.store.departments.create(this.tenantId, name);
    this.departments!.set(name.toLowerCase(), created.id);
    return created.id;
  }

  ensureProvider(name: string): number {
    let id = this.providers.get(name);
    if (id === undefined) this.providers.set(name, (id = this.store.providers.ensure(name).id));
    return id;
  }
}

export interface KindSpec<T = any> {
  schema: z.ZodType<T>;
  /** Adds reference and uniqueness errors of one well-formed record. */
  check(row: T, ctx: ImportContext, errors: FieldErrors): void;
  write(row: T, ctx: ImportContext): void;
}

function checkOwner(row: { owner_type: TypeName; owner_id: number }, ctx: ImportContext, errors: FieldErrors): void {
  if (!ctx.ownerExists(row.owner_type, row.owner_id)) addError(errors, 'owner_id', SELECTED_INVALID);
}

const departments: KindSpec<S.DepartmentImport> = {
  schema: S.DepartmentImport,
  check(row, ctx, errors) {
    if (ctx.duplicate(row.name.toLowerCase()) || ctx.departmentByName(row.name) !== undefined) addError(errors, 'name', TAKEN);
  },
  write: (row, ctx) => void ctx.store.departments.create(ctx.tenantId, row.name),
};

const users: KindSpec<S.UserImport> = {
  schema: S.UserImport,
  check(row, ctx, errors) {
    const { store, tenantId } = ctx;
    if (ctx.duplicate(row.email.toLowerCase()) || store.users.emailTaken(tenantId, row.email)) addError(errors, 'email', TAKEN);
    if (row.department_id != null && !store.departments.get(tenantId, row.department_id)) addError(errors, 'department_id', SELECTED_INVALID);
    if (row.department_id != null && row.department != null) {
      const named = ctx.departmentByName(row.department);
      if (named !== row.department_id) addError(errors, 'department', SELECTED_INVALID);
    }
    if (row.role != null && !store.roles.exists(tenantId, row.role)) addError(errors, 'role', SELECTED_INVALID);
  },
  write(row, ctx) {
    const { department, department_id, status, ...rest } = row;
    const departmentId = department_id ?? (department != null ? ctx.ensureDepartment(department) : null);
    ctx.store.users.insert(ctx.tenantId, { ...rest, department_id: departmentId, status: status ?? USER_STATUS.active });
  },
};

const customers: KindSpec<S.CustomerImport> = {
  schema: S.CustomerImport,
  check(row, ctx, errors) {
    if (ctx.duplicate(row.email.toLowerCase()) || ctx.store.customers.emailTaken(ctx.tenantId, row.email)) addError(errors, 'email', TAKEN);
  },
  write: (row, ctx) => void ctx.store.customers.insert(ctx.tenantId, row),
};

const conferenceAccounts: KindSpec<S.ConferenceAccountImport> = {
  schema: S.ConferenceAccountImport,
  check(row, ctx, errors) {
    checkOwner(row, ctx, errors);
    if (row.connected_account_id != null && !ctx.store.connectedAccounts.get(ctx.tenantId, row.connected_account_id)) {
      addError(errors, 'connected_account_id', SELECTED_INVALID);
    }
  },
  write: (row, ctx) => void ctx.store.conferenceAccounts.insert(ctx.tenantId, row),
};

const connectedAccounts: KindSpec<S.ConnectedAccountImport> = {
  schema: S.ConnectedAccountImport,
  check: checkOwner,
  write(row, ctx) {
    const { provider, ...rest } = row;
    ctx.store.connectedAccounts.insert(ctx.tenantId, { ...rest, provider_id: ctx.ensureProvider(provider) });
  },
};

const calendars: KindSpec<S.CalendarImport> = {
  schema: S.CalendarImport,
  check: checkOwner,
  write: (row, ctx) => void ctx.store.calendars.insert(ctx.tenantId, row),
};

const events: KindSpec<S.EventImport> = {
  schema: S.EventImport,
  check(row, ctx, errors) {
    const { store, tenantId } = ctx;
    if (!store.calendars.get(tenantId, row.calendar_id)) addError(errors, 'calendar_id', SELECTED_INVALID);
    if (Date.parse(row.end) <= Date.parse(row.start)) addError(errors, 'end', 'The :attribute field must be a date after start.');
    (row.attendees ?? []).forEach((a, i) => {
      if (a.customer_id != null && !store.customers.get(tenantId, a.customer_id)) addError(errors, `attendees.${i}.customer_id`, SELECTED_INVALID);
      if (a.calendar_id != null && !store.calendars.get(tenantId, a.calendar_id)) addError(errors, `attendees.${i}.calendar_id`, SELECTED_INVALID);
    });
    if ((row.canceled_by_id == null) !== (row.canceled_by_type == null)) {
      const missing = row.canceled_by_id == null ? 'canceled_by_id' : 'canceled_by_type';
      const other = missing === 'canceled_by_id' ? 'canceled_by_type' : 'canceled_by_id';
      addError(errors, missing, `The :attribute field is required when ${other} is present.`);
    } else if (row.canceled_by_id != null && !ctx.ownerExists(row.canceled_by_type!, row.canceled_by_id)) {
      addError(errors, 'canceled_by_id', SELECTED_INVALID);
    }
    if (row.customer_id != null && !store.customers.get(tenantId, row.customer_id)) addError(errors, 'customer_id', SELECTED_INVALID);
  },
  write(row, ctx) {
    const attendees = (row.attendees ?? []).map((a) => ({
      email: a.email,
      name: a.name ?? null,
      status: a.status ?? 0,
      is_organizer: a.is_organizer ?? false,
      customer_id: a.customer_id ?? null,
      calendar_id: a.calendar_id ?? null,
    }));
    emitEvent(ctx.store, ctx.tenantId, 'events.created', ctx.store.events.insert(ctx.tenantId, { ...row, attendees }));
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
