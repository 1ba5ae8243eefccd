import type { WorkHours } from '../../contract/index.js';
import type { Store } from '../../store/types.js';
import { FIRST_NAMES, emailPart, LAST_NAMES, PLACES, STREETS, TIMEZONES } from './names.js';
import { Prng } from './prng.js';
import { DEFAULT_ROLES, defaultRoleSteps } from './roles.js';
import { ask, runSteps, type Steps } from '../steps.js';

const DAY = { start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 0, second: 0 } };
const OFFICE: WorkHours = { sunday: [], monday: [DAY], tuesday: [DAY], wednesday: [DAY], thursday: [DAY], friday: [DAY], saturday: [] };
const BASE = Date.UTC(2024, 0, 1);

/**
 * The rows of `seedBulk` as steps (../steps.ts), for either store: run them in one transaction.
 * Deterministic for a given starting state; emails are unique (numbered after the rows already
 * present, deleted ones included). About 5% of the rows are soft-deleted, users are spread over
 * the tenant's departments and the default roles, half have no timezone.
 */
export function* bulkSteps(tenantId: number, counts: { users: number; customers: number }): Steps<{ users: number; customers: number }> {
  const rnd = new Prng(0xb01c + tenantId);
  const all = { page_size: 1, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc' as const, filter: null };
  yield* defaultRoleSteps(tenantId);
  const departments = (yield* ask((s) => s.departments.list(tenantId))).map((d) => d.id);
  const userBase = (yield* ask((s) => s.users.list(tenantId, all))).total;
  for (let i = 0; i < counts.users; i++) {
    const n = userBase + i + 1;
    const first = rnd.pick(FIRST_NAMES);
    const last = rnd.pick(LAST_NAMES);
    const created = new Date(BASE + n * 60_000).toISOString();
    const user = {
      first_name: first,
      last_name: last,
      email: `${emailPart(first)}.${emailPart(last)}.${n}@bulk.example.com`,
      department_id: departments.length && rnd.chance(0.9) ? rnd.pick(departments) : null,
      timezone: rnd.chance(0.5) ? rnd.pick(TIMEZONES) : null,
      work_hours: rnd.chance(0.5) ? OFFICE : null,
      role: rnd.pick(DEFAULT_ROLES),
      status: rnd.chance(0.8) ? 1 : 0,
      created_at: created,
      updated_at: created,
      deleted_at: rnd.chance(0.05) ? new Date(BASE + n * 60_000 + 86_400_000).toISOString() : null,
    };
    yield* ask((s) => s.users.insert(tenantId, user));
  }
  const customerBase = (yield* ask((s) => s.customers.list(tenantId, all))).total;
  for (let i = 0; i < counts.customers; i++) {
    const n = customerBase + i + 1;
    const first = rnd.pick(FIRST_NAMES);
    const last = rnd.pick(LAST_NAMES);
    const place = rnd.pick(PLACES);
    const created = new Date(BASE + n * 60_000).toISOString();
    const customer = {
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
    yield* ask((s) => s.customers.insert(tenantId, customer));
  }
  return { users: counts.users, customers: counts.customers };
}

/**
 * Inserts `users` users and `customers` customers into a tenant in one transaction, for load
 * tests and benchmarks (see `bulkSteps`; on PostgreSQL, src/admin/postgres-seed.ts runs them).
 */
export function seedBulk(store: Store, tenantId: number, counts: { users: number; customers: number }): { users: number; customers: number } {
  return store.transaction(() => runSteps(store, bulkSteps(tenantId, counts)));
}
