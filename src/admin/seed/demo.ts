import path from 'node:path';
import type { User } from '../../contract/index.js';
import { generateWav } from '../../media/wav.js';
import { writePrivateFile } from '../../media/files.js';
import type { Store } from '../../store/types.js';
import { at, DELETED_CUSTOMERS, DELETED_USERS, DEMO_CUSTOMERS, DEMO_DEPARTMENTS, DEMO_DOMAIN, DEMO_USERS, WORK_PATTERNS } from './demo-data.js';
import { emailPart, PLACES, STREETS, TIMEZONES } from './names.js';
import { ensureDefaultRoles } from './roles.js';
import { withClock } from '../../store/util.js';
import { seedDemoConferences } from './demo-conferences.js';

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

export const demoEmail = (first: string, last: string) => `${emailPart(first)}.${emailPart(last)}@${DEMO_DOMAIN}`;

/** The e-mail of the demo's first user: a tenant that has it has the demo data. */
export const DEMO_MARKER_EMAIL = demoEmail(...DEMO_USERS[0]);

/** True when the tenant already has the demo data (its first user), so `seedDemo` would skip. */
export function hasDemoData(store: Store, tenantId: number): boolean {
  return Boolean(store.users.findByEmail(tenantId, DEMO_MARKER_EMAIL));
}

/**
 * Fills a tenant with the deterministic demo set (decisions §8): departments, users (mixed
 * statuses, roles, timezones, work hours, some soft-deleted), customers in several countries
 * (some soft-deleted), providers, connected and conference accounts, calendars and events with
 * attendees, conferences not started / running / ended with attendees, recordings in every
 * status, and meeting links (booking pages) on two calendars; Finished ones get a short WAV file in `mediaDir`. No randomness: the same input gives
 * the same rows (ids depend only on what the database held before). Idempotent: when the demo's
 * first user exists in the tenant, it returns `skipped: true` and changes nothing.
 */
/** What `seedDemo` answers for a tenant that already had the demo data: nothing added. */
export const skippedDemo = (): DemoSummary => ({ skipped: true, departments: 0, users: 0, customers: 0, connectedAccounts: 0, conferenceAccounts: 0,
  calendars: 0, events: 0, conferences: 0, attendees: 0, recordings: 0, meetingLinks: 0, files: [], ids: {} });

export function seedDemo(store: Store, tenantId: number, options: { mediaDir: string }): DemoSummary {
  if (hasDemoData(store, tenantId)) return skippedDemo();
  const files: { rel: string; seconds: number }[] = [];
  // Rows the demo does not date itself are stamped at the anchor, so two runs give equal rows.
  const summary = withClock(() => at(0), () => store.transaction(() => {
    ensureDefaultRoles(store, tenantId);
    const departments = DEMO_DEPARTMENTS.map((name) => store.departments.create(tenantId, name));
    const users: User[] = DEMO_USERS.map(([first, last], i) => {
      const created = at(-60 * 24 * 30 + i * 90);
      return store.users.insert(tenantId, {
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
      });
    });
    const customers = DEMO_CUSTOMERS.map(([first, middle, last], i) => {
      const place = PLACES[i % PLACES.length];
      const created = at(-60 * 24 * 20 + i * 60);
      return store.customers.insert(tenantId, {
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
      });
    });
    const rest = seedDemoConferences(store, tenantId, users.filter((_, i) => !DELETED_USERS.has(i)),
      customers.filter((_, i) => !DELETED_CUSTOMERS.has(i)), files);
    return { ...rest, skipped: false, departments: departments.length, users: users.length, customers: customers.length };
  }));
  for (const f of files) {
    const target = path.join(options.mediaDir, f.rel);
    writePrivateFile(target, generateWav({ seconds: f.seconds }));
  }
  return { ...summary, files: files.map((f) => f.rel) };
}
