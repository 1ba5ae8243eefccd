/**
 * Rows for the list compiler's tests, written alike into PostgreSQL and SQLite (same schema, same
 * values), chosen so that every operator has a distinguishing row: case variants and ties,
 * non-ASCII letters, `%`, `_` and `\` in values, nulls, soft-deleted rows, derived and joined
 * attributes, and a second tenant whose rows must never show.
 */
import type pg from 'pg';
import type { Db } from '../../../src/store/sqlite/db.js';

const T = (d: string) => `2025-${d}.000Z`;
type Row = Record<string, string | number | null>;

const tenants: Row[] = [
  { id: 1, created_at: T('01-01T00:00:00') },
  { id: 2, created_at: T('01-01T00:00:00') },
];
const roles: Row[] = [
  { id: 1, tenant_id: 1, name: 'Admin', created_at: T('01-01T00:00:00') },
  { id: 2, tenant_id: 1, name: 'Member', created_at: T('01-01T00:00:00') },
  { id: 3, tenant_id: 2, name: 'Admin', created_at: T('01-01T00:00:00') },
];
const departments: Row[] = [
  { id: 1, tenant_id: 1, name: 'Engineering', deleted_at: null },
  { id: 2, tenant_id: 1, name: 'sales', deleted_at: null },
  { id: 3, tenant_id: 1, name: 'Éclair', deleted_at: T('06-01T00:00:00') },
  { id: 4, tenant_id: 2, name: 'Engineering', deleted_at: null },
].map((d) => ({ ...d, created_at: T('01-01T00:00:00'), updated_at: T('01-01T00:00:00') }));

const user = (id: number, first: string, last: string, email: string, over: Row = {}): Row => ({
  id,
  tenant_id: 1,
  department_id: null,
  first_name: first,
  last_name: last,
  email,
  timezone: null,
  role: null,
  status: 1,
  created_at: T(`01-${String(id).padStart(2, '0')}T00:00:00`),
  updated_at: T('07-01T00:00:00'),
  deleted_at: null,
  ...over,
});
const users: Row[] = [
  user(1, 'Ann', 'Zed', 'ann@a.example', { timezone: 'Europe/Paris', role: 'Admin', department_id: 1 }),
  user(2, 'bob', 'young', 'BOB@a.example', { status: 0, department_id: 2, created_at: T('02-01T10:00:00') }),
  user(3, 'Cy', '50% off', 'cy@a.example', { timezone: 'UTC', role: 'Member', status: 2, created_at: T('03-01T00:00:00') }),
  user(4, 'Di', '50 off', 'di_x@a.example', { role: 'Member', department_id: 1, created_at: T('03-01T00:00:00') }),
  user(5, 'Ed', 'Éclair', 'ed@a.example', { timezone: 'utc', department_id: 3 }),
  user(6, 'Fi', 'éclair', 'diax@a.example', { timezone: 'Asia/Tokyo', role: 'Admin', status: 3, created_at: T('05-01T10:10:10') }),
  user(7, 'Gus', 'Back\\slash', 'gus@a.example', { department_id: 2 }),
  user(8, 'Hal', 'ZED', 'hal@a.example', { timezone: 'UTC', role: 'Admin', department_id: 1, deleted_at: T('07-01T00:00:00') }),
  user(9, 'Ivy', 'zed', 'ivy@a.example', { timezone: 'Zulu', status: 10, department_id: 2 }),
  user(10, 'ann', 'a_b', 'ann2@a.example', { timezone: 'f' }),
  user(11, 'Jo', 'ab', 'jo@a.example', { timezone: 'é' }),
  user(12, 'Ann', 'Zed', 'ann@a.example', { tenant_id: 2, department_id: 4, role: 'Admin' }),
];

const customer = (id: number, first: string, last: string, over: Row = {}): Row => ({
  id,
  tenant_id: 1,
  first_name: first,
  middle_name: null,
  last_name: last,
  email: `${first.toLowerCase()}@c.example`,
  contact_number: null,
  line_1: null,
  line_2: null,
  city: null,
  region: null,
  region_code: null,
  country: null,
  country_code: null,
  postal_code: null,
  created_at: T(`01-${String(id).padStart(2, '0')}T00:00:00`),
  updated_at: T('07-01T00:00:00'),
  deleted_at: null,
  ...over,
});
const customers: Row[] = [
  customer(1, 'Ann', 'Zed', { contact_number: '+100', line_1: '1 Main St', city: 'Paris', country: 'France', postal_code: '75001' }),
  customer(2, 'Bob', 'Y', { middle_name: '', email: 'BOB@c.example' }),
  customer(3, 'Cy', 'Z', { middle_name: 'Q', contact_number: '+200', line_1: '', city: 'Berlin' }),
  customer(4, 'Dee', 'Gone', { city: 'Éze', country: 'France', deleted_at: T('03-01T00:00:00') }),
  customer(5, 'Eve', 'a_b', { line_1: '50% Rd', city: 'a_b', country: 'b', middle_name: 'É' }),
  customer(6, 'Fay', 'zed', { tenant_id: 2, city: 'Paris', country: 'France' }),
];

const accounts: Row[] = [
  { id: 1, tenant_id: 1, owner_type: 'User', owner_id: 1, name: 'a', created_at: T('01-01T00:00:00'), updated_at: T('01-01T00:00:00') },
  { id: 2, tenant_id: 2, owner_type: 'User', owner_id: 12, name: 'b', created_at: T('01-01T00:00:00'), updated_at: T('01-01T00:00:00') },
];
const conference = (id: number, publicId: string, title: string, isPublic: number, over: Row = {}): Row => ({
  id,
  tenant_id: 1,
  online_conference_account_id: 1,
  public_id: publicId,
  title,
  is_public: isPublic,
  started_at: null,
  ended_at: null,
  created_at: T(`01-${String(id).padStart(2, '0')}T00:00:00`),
  updated_at: T('07-01T00:00:00'),
  deleted_at: null,
  ...over,
});
const conferences: Row[] = [
  conference(1, 'abc', 'Standup', 1),
  conference(2, 'ABC', 'standup', 0, { started_at: T('01-01T09:00:00'), ended_at: T('01-01T10:00:00') }),
  conference(3, 'x_y', 'Retro 100%', 1, { started_at: T('02-01T00:00:00'), deleted_at: T('03-01T00:00:00') }),
  conference(4, 'xay', 'Éval', 0),
  conference(5, 'abc', 'Other', 1, { tenant_id: 2, online_conference_account_id: 2 }),
];

const TABLES: [string, Row[]][] = [
  ['tenants', tenants],
  ['roles', roles],
  ['departments', departments],
  ['users', users],
  ['customers', customers],
  ['conference_accounts', accounts],
  ['conferences', conferences],
];

export async function fillPostgres(client: pg.ClientBase): Promise<void> {
  for (const [table, rows] of TABLES) {
    for (const row of rows) {
      const cols = Object.keys(row);
      await client.query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
    }
  }
}

export function fillSqlite(db: Db): void {
  for (const [table, rows] of TABLES) {
    for (const row of rows) {
      const cols = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...Object.values(row));
    }
  }
}
