import path from 'node:path';
import type { User } from '../../contract/index.js';
import { generateWav } from '../../media/wav.js';
import { writePrivateFile } from '../../media/files.js';
import type { DepartmentRecord } from '../../store/types.js';
import { andThen } from '../../store/steps.js';
import type { Awaitable, DataStore } from '../../store/port.js';
import { ask, type Steps, withStepClock } from '../steps.js';
import { at, DELETED_CUSTOMERS, DELETED_USERS, DEMO_CUSTOMERS, DEMO_DEPARTMENTS, DEMO_DOMAIN, DEMO_USERS, WORK_PATTERNS } from './demo-data.js';
import { emailPart, PLACES, STREETS, TIMEZONES } from './names.js';
import { defaultRoleSteps, seedLock } from './roles.js';
import { demoConferenceSteps } from './demo-conferences.js';

/** What `seedDemo` created, with ids worth showing (all zero / empty when `skipped`). */
export interface DemoSummary {
  /** True when the tenant already had the demo data; nothing was changed. */
  skipped: boolean;
  departments: number;
  users: number;
  customers: number;
  connectedAccounts: number;
  conferenceAccounts: number;
  calendars: number;
  events: number;
  conferences: number;
  attendees: number;
  recordings: number;
  /** Booking pages of the demo's calendars. */
  meetingLinks: number;
  /** Recording files written, relative to the media directory. */
  files: string[];
  ids: Record<string, number>;
}

/** A finished recording's WAV file: its path relative to the media directory and its length. */
export interface DemoFile {
  rel: string;
  seconds: number;
}

export const demoEmail = (first: string, last: string) => `${emailPart(first)}.${emailPart(last)}@${DEMO_DOMAIN}`;

/** The e-mail of the demo's first user: a tenant that has it has the demo data. */
export const DEMO_MARKER_EMAIL = demoEmail(...DEMO_USERS[0]);

/** True when the tenant already has the demo data (its first user), so `seedDemo` would skip. */
export const hasDemoData = (store: DataStore, tenantId: number): Awaitable<boolean> => andThen(store.users.findByEmail(tenantId, DEMO_MARKER_EMAIL), Boolean);

/** What `seedDemo` answers for a tenant that already had the demo data: nothing added. */
const skippedDemo = (): DemoSummary => ({ skipped: true, departments: 0, users: 0, customers: 0, connectedAccounts: 0, conferenceAccounts: 0,
  calendars: 0, events: 0, conferences: 0, attendees: 0, recordings: 0, meetingLinks: 0, files: [], ids: {} });

/**
 * The deterministic demo set (decisions §8) as steps (../steps.ts), for either store: departments,
 * users (mixed statuses, roles, timezones, work hours, some soft-deleted), customers in several
 * countries (some soft-deleted), providers, connected and conference accounts, calendars and
 * events with attendees, conferences not started / running / ended with attendees, recordings in
 * every status, and meeting links (booking pages) on two calendars. No randomness: the same
 * input gives the same rows (ids depend only on what the database held before). When the demo's
 * first user exists in the tenant it writes nothing and answers a skipped summary. Finished
 * recordings come back as `files`, to be written once the rows are committed (`writeDemoFiles`).
 */
export function demoSteps(tenantId: number): Steps<{ summary: DemoSummary; files: DemoFile[] }> {
  // Rows the demo does not date itself are stamped at the anchor, so two runs give equal rows.
  return withStepClock(() => at(0), demoRows(tenantId));
}

function* demoRows(tenantId: number): Steps<{ summary: DemoSummary; files: DemoFile[] }> {
  if (yield* ask((s) => s.users.findByEmail(tenantId, DEMO_MARKER_EMAIL))) return { summary: skippedDemo(), files: [] };
  yield* defaultRoleSteps(tenantId);
  const departments: DepartmentRecord[] = [];
  for (const name of DEMO_DEPARTMENTS) departments.push(yield* ask((s) => s.departments.create(tenantId, name)));
  const users: User[] = [];
  for (const [i, [first, last]] of DEMO_USERS.entries()) {
    const created = at(-60 * 24 * 30 + i * 90);
    users.push(yield* ask((s) => s.users.insert(tenantId, {
      first_name: first,
      last_name: last,
      email: demoEmail(first, last),
      department_id: i % 6 === 5 ? null : departments[i % departments.length].id,
      timezone: i % 8 === 7 ? null : TIMEZONES[i % TIMEZONES.length],
      work_hours: WORK_PATTERNS[i % WORK_PATTERNS.length],
      role: i === 0 ? 'Admin' : i % 4 === 1 ? 'Manager' : 'Member',
      status: i % 5 === 4 ? 0 : 1,
      avatar_url: i % 3 === 0 ? `https://avatars.example.com/${emailPart(first)}-${emailPart(last)}.png` : null,
      created_at: created,
      updated_at: at(-60 * 24 * 10 + i * 45),
      deleted_at: DELETED_USERS.has(i) ? at(-60 * 24 * 5 + i) : null,
    })));
  }
  const customers = [];
  for (const [i, [first, middle, last]] of DEMO_CUSTOMERS.entries()) {
    const place = PLACES[i % PLACES.length];
    const created = at(-60 * 24 * 20 + i * 60);
    customers.push(yield* ask((s) => s.customers.insert(tenantId, {
      first_name: first,
      middle_name: middle,
      last_name: last,
      // One address with `_` in it, to show that Contains treats `_` literally.
      email: i === 1 ? 'liam_smith@customers.example.org' : `${emailPart(first)}.${emailPart(last)}@customers.example.org`,
      contact_number: i % 4 === 3 ? null : `+4930${String(5550100 + i * 37)}`,
      address:
        i % 7 === 6
          ? null
          : {
              line_1: `${10 + i * 3} ${STREETS[i % STREETS.length]}`,
              line_2: i % 3 === 0 ? `Suite ${100 + i}` : null,
              city: place.city,
              region: i % 5 === 4 ? null : place.region,
              region_code: i % 5 === 4 ? null : place.region_code,
              country: place.country,
              country_code: place.country_code,
              postal_code: place.postal,
            },
      created_at: created,
      updated_at: created,
      deleted_at: DELETED_CUSTOMERS.has(i) ? at(-60 * 24 * 2 + i) : null,
    })));
  }
  const files: DemoFile[] = [];
  const rest = yield* demoConferenceSteps(tenantId, users.filter((_, i) => !DELETED_USERS.has(i)), customers.filter((_, i) => !DELETED_CUSTOMERS.has(i)), files);
  const summary = { ...rest, skipped: false, departments: departments.length, users: users.length, customers: customers.length, files: files.map((f) => f.rel) };
  return { summary, files };
}

/** Writes the demo's recording files into `mediaDir` (after their rows are committed). */
export function writeDemoFiles(mediaDir: string, files: readonly DemoFile[]): void {
  for (const f of files) writePrivateFile(path.join(mediaDir, f.rel), generateWav({ seconds: f.seconds }));
}

/**
 * Fills a tenant with the demo set (`demoSteps`) in one unit, under a lock named after the tenant
 * (two seeds of one tenant take turns: the second finds the first's marker user), then writes the
 * finished recordings' WAV files into `mediaDir`. Idempotent: a tenant that has the demo's first
 * user answers `skipped: true` and is not changed.
 */
export const seedDemo = (store: DataStore, tenantId: number, options: { mediaDir: string }): Awaitable<DemoSummary> =>
  andThen(store.atomic(demoSteps(tenantId), { locks: [seedLock(tenantId)] }), ({ summary, files }): DemoSummary => {
    writeDemoFiles(options.mediaDir, files);
    return summary;
  });
