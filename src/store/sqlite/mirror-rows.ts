/**
 * Rows written verbatim into a SQLite data directory for `confctl mirror`: the same ids and
 * timestamps as the source answered, so a mirror lists, filters and orders exactly as its source.
 * Every insert is `ON CONFLICT DO NOTHING`, so a resumed mirror may write a page again. Each call
 * is one IMMEDIATE transaction. The users' JSON column is kept by migration 8's triggers.
 */
import type { OnlineConference, OnlineConferenceAccount, OnlineConferenceAttendee, OnlineConferenceRecording, ConnectedAccount, Customer, User } from '../../contract/resources.js';
import { type Db, immediate, openDatabase } from './db.js';

export interface MirrorRows {
  /** Creates the roles and departments (id and name) that do not exist yet. */
  ensureRoles(tenantId: number, names: readonly string[], at: string): void;
  ensureDepartments(tenantId: number, departments: readonly { id: number; name: string }[], at: string): void;
  /** Providers are known only by id through the API: named `provider-<id>`. */
  ensureProviders(ids: readonly number[], at: string): void;
  users(tenantId: number, rows: readonly User[]): void;
  customers(tenantId: number, rows: readonly Customer[]): void;
  connectedAccounts(tenantId: number, rows: readonly ConnectedAccount[]): void;
  conferenceAccounts(tenantId: number, rows: readonly OnlineConferenceAccount[]): void;
  /** `backer_event_id` is written as null: calendar events are not mirrored. */
  conferences(tenantId: number, rows: readonly OnlineConference[]): void;
  attendees(rows: readonly OnlineConferenceAttendee[]): void;
  recordings(rows: readonly OnlineConferenceRecording[]): void;
  /** Which of `ids` exist in `table` (one of the mirrored tables). */
  existing(table: 'users' | 'customers' | 'connected_accounts' | 'conference_accounts' | 'conferences', ids: readonly number[]): Set<number>;
  close(): void;
}

const bool = (b: boolean) => (b ? 1 : 0);

/** Opens the database file of a data directory (migrated, as every opener does) for mirrored rows. */
export function openMirrorRows(location: string): MirrorRows {
  const db: Db = openDatabase(location);
  const prepare = (sql: string) => db.prepare(sql);
  const role = prepare('INSERT INTO roles (tenant_id, name, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const department = prepare('INSERT INTO departments (id, tenant_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING');
  const provider = prepare('INSERT INTO providers (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const user = prepare(`INSERT INTO users (id, tenant_id, department_id, first_name, last_name, email, timezone, work_hours, role, status,
    avatar_url, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const customer = prepare(`INSERT INTO customers (id, tenant_id, first_name, middle_name, last_name, email, contact_number, line_1, line_2,
    city, region, region_code, country, country_code, postal_code, created_at, updated_at, deleted_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const connected = prepare(`INSERT INTO connected_accounts (id, tenant_id, owner_type, owner_id, provider_id, provider_uid, provider_email,
    created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const account = prepare(`INSERT INTO conference_accounts (id, tenant_id, owner_type, owner_id, connected_account_id, name, created_at,
    updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const conference = prepare(`INSERT INTO conferences (id, tenant_id, online_conference_account_id, public_id, title, is_public,
    backer_event_id, started_at, ended_at, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const attendee = prepare(`INSERT INTO conference_attendees (id, online_conference_id, email, name, attendee_type, attendee_id, joined_at,
    created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const recording = prepare(`INSERT INTO recordings (id, online_conference_id, status, file_name, path, started_at, stopped_at, created_at,
    updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const each = <T>(write: (row: T) => void) => immediate(db, (rows: readonly T[]) => rows.forEach(write));
  const existsIn = Object.fromEntries(
    (['users', 'customers', 'connected_accounts', 'conference_accounts', 'conferences'] as const).map((t) => [t, prepare(`SELECT 1 FROM ${t} WHERE id = ?`).pluck()]),
  );

  return {
    ensureRoles: (tenantId, names, at) => each((name: string) => role.run(tenantId, name, at))(names),
    ensureDepartments: (tenantId, rows, at) => each((d: { id: number; name: string }) => department.run(d.id, tenantId, d.name, at, at))(rows),
    ensureProviders: (ids, at) => each((id: number) => provider.run(id, `provider-${id}`, at))(ids),
    users: (tenantId, rows) =>
      each((u: User) =>
        user.run(u.id, tenantId, u.department_id, u.first_name, u.last_name, u.email, u.timezone, u.work_hours === null ? null : JSON.stringify(u.work_hours),
          u.role, u.status, u.avatar_url, u.created_at, u.updated_at, u.deleted_at),
      )(rows),
    customers: (tenantId, rows) =>
      each((c: Customer) => {
        const a = c.address;
        customer.run(c.id, tenantId, c.first_name, c.middle_name, c.last_name, c.email, c.contact_number, a?.line_1 ?? null, a?.line_2 ?? null,
          a?.city ?? null, a?.region ?? null, a?.region_code ?? null, a?.country ?? null, a?.country_code ?? null, a?.postal_code ?? null,
          c.created_at, c.updated_at, c.deleted_at);
      })(rows),
    connectedAccounts: (tenantId, rows) =>
      each((r: ConnectedAccount) =>
        connected.run(r.id, tenantId, r.owner_type, r.owner_id, r.provider_id, r.provider_uid, r.provider_email, r.created_at, r.updated_at, r.deleted_at),
      )(rows),
    conferenceAccounts: (tenantId, rows) =>
      each((r: OnlineConferenceAccount) =>
        account.run(r.id, tenantId, r.owner_type, r.owner_id, r.connected_account_id, r.name, r.created_at, r.updated_at, r.deleted_at),
      )(rows),
    conferences: (tenantId, rows) =>
      each((c: OnlineConference) =>
        conference.run(c.id, tenantId, c.online_conference_account_id, c.public_id, c.title, bool(c.is_public), c.started_at, c.ended_at,
          c.created_at, c.updated_at, c.deleted_at),
      )(rows),
    attendees: (rows) =>
      each((a: OnlineConferenceAttendee) =>
        attendee.run(a.id, a.online_conference_id, a.email, a.name, a.attendee_type, a.attendee_id, a.joined_at, a.created_at, a.updated_at, a.deleted_at),
      )(rows),
    recordings: (rows) =>
      each((r: OnlineConferenceRecording) =>
        recording.run(r.id, r.online_conference_id, r.status, r.file_name, r.path, r.started_at, r.stopped_at, r.created_at, r.updated_at, r.deleted_at),
      )(rows),
    existing: (table, ids) => new Set(ids.filter((id) => existsIn[table].get(id) !== undefined)),
    close: () => db.close(),
  };
}
