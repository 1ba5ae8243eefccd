import type { WorkHours } from '../../contract/index.js';
import type { CustomerInsert, UserInsert } from '../../store/types.js';
import { andThen } from '../../store/steps.js';
import type { Awaitable, DataStore } from '../../store/port.js';
import { BULK_DEPARTMENTS, FIRST_NAMES, emailPart, LAST_NAMES, PLACES, STREETS, TIMEZONES } from './names.js';
import { Prng } from './prng.js';
import { DEFAULT_ROLES, defaultRoleSteps, seedLock } from './roles.js';
import { ask, type Steps, withStepClock } from '../steps.js';

const DAY = { start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 0, second: 0 } };
const OFFICE: WorkHours = { sunday: [], monday: [DAY], tuesday: [DAY], wednesday: [DAY], thursday: [DAY], friday: [DAY], saturday: [] };
const BASE = Date.UTC(2024, 0, 1);

/** The share of the users with a department that belong to the first of the seeder's own departments. */
const MAIN_DEPARTMENT_SHARE = 0.6;

/** What the rows of one bulk seed depend on besides the draws: the tenant's departments and the rows already there. */
export interface BulkPlan {
  departments: number[];
  /** The departments are the seeder's own (BULK_DEPARTMENTS): most users go to the first. */
  skewed: boolean;
  userBase: number;
  customerBase: number;
}

/**
 * The seed's preparation as steps, for either store: the default roles; BULK_DEPARTMENTS when the
 * tenant has no department (stamped at BASE, so two runs give equal rows); the rows already
 * present (deleted ones included), after which the new rows are numbered.
 */
export function* bulkPlanSteps(tenantId: number): Steps<BulkPlan> {
  const all = { page_size: 1, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc' as const, filter: null };
  yield* defaultRoleSteps(tenantId);
  const departments = (yield* ask((s) => s.departments.list(tenantId))).map((d) => d.id);
  const skewed = departments.length === 0;
  if (skewed) {
    const stamp = new Date(BASE).toISOString();
    for (const name of BULK_DEPARTMENTS) departments.push((yield* withStepClock(() => stamp, ask((s) => s.departments.create(tenantId, name)))).id);
  }
  const userBase = (yield* ask((s) => s.users.list(tenantId, all))).total;
  const customerBase = (yield* ask((s) => s.customers.list(tenantId, all))).total;
  return { departments, skewed, userBase, customerBase };
}

/** One draw: evenly over `plan.departments`, or with `skewed` MAIN_DEPARTMENT_SHARE of it on the first and the rest evenly. */
function pickDepartment(rnd: Prng, plan: BulkPlan): number {
  const u = rnd.next();
  const { departments } = plan;
  if (!plan.skewed) return departments[Math.floor(u * departments.length)];
  return u < MAIN_DEPARTMENT_SHARE ? departments[0] : departments[Math.floor(((u - MAIN_DEPARTMENT_SHARE) / (1 - MAIN_DEPARTMENT_SHARE)) * departments.length)];
}

/** The draws of one seed of `tenantId`: users' draws first, then customers'. */
export const bulkDraws = (tenantId: number) => new Prng(0xb01c + tenantId);

/**
 * `count` users numbered after `plan.userBase`, deterministic for the draws `rnd`. Emails are
 * unique; about 5% are soft-deleted, 90% are in a department, half have no timezone.
 */
export function* bulkUsers(rnd: Prng, plan: BulkPlan, count: number): Generator<UserInsert> {
  for (let i = 0; i < count; i++) {
    const n = plan.userBase + i + 1;
    const first = rnd.pick(FIRST_NAMES);
    const last = rnd.pick(LAST_NAMES);
    const created = new Date(BASE + n * 60_000).toISOString();
    yield {
      first_name: first,
      last_name: last,
      email: `${emailPart(first)}.${emailPart(last)}.${n}@bulk.example.com`,
      department_id: plan.departments.length && rnd.chance(0.9) ? pickDepartment(rnd, plan) : null,
      timezone: rnd.chance(0.5) ? rnd.pick(TIMEZONES) : null,
      work_hours: rnd.chance(0.5) ? OFFICE : null,
      role: rnd.pick(DEFAULT_ROLES),
      status: rnd.chance(0.8) ? 1 : 0,
      created_at: created,
      updated_at: created,
      deleted_at: rnd.chance(0.05) ? new Date(BASE + n * 60_000 + 86_400_000).toISOString() : null,
    };
  }
}

/** `count` customers numbered after `plan.customerBase`, drawn from `rnd` after the users. */
export function* bulkCustomers(rnd: Prng, plan: BulkPlan, count: number): Generator<CustomerInsert> {
  for (let i = 0; i < count; i++) {
    const n = plan.customerBase + i + 1;
    const first = rnd.pick(FIRST_NAMES);
    const last = rnd.pick(LAST_NAMES);
    const place = rnd.pick(PLACES);
    const created = new Date(BASE + n * 60_000).toISOString();
    yield {
      first_name: first,
      middle_name: rnd.chance(0.2) ? rnd.pick(FIRST_NAMES) : null,
      last_name: last,
      email: `${emailPart(first)}.${emailPart(last)}.${n}@customers.example.com`,
      contact_number: rnd.chance(0.7) ? `+1555${String(n).padStart(7, '0').slice(-7)}` : null,
      address: rnd.chance(0.9)
        ? {
            line_1: `${rnd.int(1, 300)} ${rnd.pick(STREETS)}`,
            city: place.city,
            region: place.region,
            region_code: place.region_code,
            country: place.country,
            country_code: place.country_code,
            postal_code: place.postal,
          }
        : null,
      created_at: created,
      updated_at: created,
      deleted_at: rnd.chance(0.05) ? new Date(BASE + n * 60_000 + 86_400_000).toISOString() : null,
    };
  }
}

/**
 * Inserts `users` users and `customers` customers into a tenant in one transaction, for load
 * tests and benchmarks: `bulkUsers` and `bulkCustomers` after `bulkPlanSteps`, through the
 * store's bulk loader (`DataStore.bulkLoad`), under the tenant's seed lock.
 */
export const seedBulk = (store: DataStore, tenantId: number, counts: { users: number; customers: number }): Awaitable<{ users: number; customers: number }> =>
  andThen(
    store.bulkLoad({
      tenantId,
      locks: [seedLock(tenantId)],
      plan: bulkPlanSteps(tenantId),
      rows: (plan) => {
        const rnd = bulkDraws(tenantId);
        return {
          users: { count: counts.users, rows: bulkUsers(rnd, plan, counts.users) },
          customers: { count: counts.customers, rows: bulkCustomers(rnd, plan, counts.customers) },
        };
      },
    }),
    () => ({ users: counts.users, customers: counts.customers }),
  );
