/** A small tenant snapshot and helpers to read desired state from text, for the planning core's tests. */
import { desiredOf } from '../../../src/cli/tenant/desired.js';
import { type FileFormat, readRecordsOf } from '../../../src/cli/tenant/files.js';
import type { Desired, Kind, Problem, Snapshot, TenantConference, TenantUser } from '../../../src/cli/tenant/model.js';

export const NO_HOURS = { sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
export const OFFICE = { ...NO_HOURS, monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 0, second: 0 } }] };

export const user = (id: number, email: string, over: Partial<TenantUser> = {}): TenantUser => ({
  id,
  email,
  first_name: 'F',
  last_name: 'L',
  department_id: 1,
  department_name: 'Engineering',
  timezone: 'UTC',
  work_hours: OFFICE,
  role: 'Member',
  ...over,
});

export const conference = (id: number, publicId: string, over: Partial<TenantConference> = {}): TenantConference => ({
  id,
  public_id: publicId,
  title: 'T',
  is_public: true,
  account_id: 10,
  started: false,
  host: { user_id: 1, email: 'ann@x.test', account: 'Ann room' },
  host_attendee_id: 100,
  attendees: [{ id: 101, email: 'bob@x.test', name: 'Bob' }],
  ...over,
});

export function snapshot(over: Partial<Snapshot> = {}): Snapshot {
  return {
    users: [user(1, 'ann@x.test'), user(2, 'bob@x.test', { timezone: null, work_hours: null }), user(3, 'cy@x.test', { department_id: null, department_name: null })],
    departments: [{ id: 1, name: 'Engineering' }, { id: 2, name: 'Sales' }, { id: 3, name: 'Twin' }, { id: 4, name: 'twin' }],
    roles: ['Admin', 'Manager', 'Member'],
    customers: [{ id: 7, email: 'cat@c.test', first_name: 'Cat', middle_name: null, last_name: 'C', contact_number: null, address: null }],
    conferences: [conference(50, 'weekly')],
    accounts: new Map([[1, [{ id: 10, name: 'Ann room' }]], [3, [{ id: 11, name: 'A' }, { id: 12, name: 'B' }]]]),
    ...over,
  };
}

/** Desired records of `kind` from `text` (a file named after its kind); problems collected. */
export function read(kind: Kind, text: string, format: FileFormat = 'yaml', partial = false): { desired: Desired[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const name = `${kind}.${format}`;
  const desired = desiredOf(kind, readRecordsOf({ name, text }, format, problems), problems, { partial });
  return { desired, problems };
}
