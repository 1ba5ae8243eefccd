import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORDING_STATUS } from '../../../src/contract/index.js';
import { wavDurationSeconds } from '../../../src/media/wav.js';
import { ensureDefaultRoles, seedBulk, seedDemo } from '../../../src/admin/seed/index.js';
import { q } from './fixtures.js';
import { tempDir } from '../../tmp.js';
import { type SqliteStore } from '../../../src/store/sqlite/index.js';
import { atOnce } from '../../at-once.js';

/** Everything the demo holds, write-time stamps included (the demo fixes those too). */
function snapshot(store: SqliteStore, tenantId: number, ids: Record<string, number>) {
  const all = q({ with_trashed: true, page_size: 100 });
  const page = { page_size: 50, page_number: 1 };
  return {
    users: store.users.list(tenantId, all).rows,
    customers: store.customers.list(tenantId, all).rows,
    accounts: store.conferenceAccounts.listByOwner(tenantId, 'User', ids.user, page).rows,
    connected: store.connectedAccounts.listByOwner(tenantId, 'User', ids.user, page).rows,
    event: store.events.get(tenantId, ids.calendar, ids.event),
    conferences: ['conference_not_started', 'conference_planning', 'conference_running', 'conference_ended'].map((k) => store.conferences.get(tenantId, ids[k])),
    attendees: store.attendees.listByConference(ids.conference_running, page).rows,
    recordings: store.recordings.listByConference(ids.conference_ended, page).rows,
    meetingLinks: store.meetingLinks.list(tenantId),
  };
}

/**
 * Opens a fresh SQLite store. These cases call the seeders on the synchronous SQLite `SqliteStore`: this
 * part of the contract runs for the SQLite factories only. On PostgreSQL the same seeders run on
 * its store (test/admin/seed/postgres-like-sqlite.test.ts proves the rows equal).
 */
export interface SqliteStoreFactory {
  name: string;
  open(): SqliteStore;
}

export function seedContract(factory: SqliteStoreFactory) {
  describe(`${factory.name}: seeds`, () => {
    it('seedDemo is deterministic, idempotent, covers every state and writes the finished recordings', () => {
      const runs = [0, 1].map(() => {
        const store = factory.open();
        const media = tempDir('confctl-media-');
        const tenant = store.tenants.create('localhost').id;
        atOnce(ensureDefaultRoles(store, tenant));
        const summary = atOnce(seedDemo(store, tenant, { mediaDir: media }));
        return { store, tenant, media, summary, snap: snapshot(store, tenant, summary.ids) };
      });
      const [one, two] = runs;
      expect(one.summary).toEqual(two.summary);
      expect(one.snap).toEqual(two.snap);
      const { store, tenant, media, summary } = one;
      expect(summary).toMatchObject({ skipped: false, departments: 4, users: 25, customers: 30, conferences: 4, meetingLinks: 3 });
      expect(store.meetingLinks.list(tenant).map((l) => [l.calendar_id, l.name, l.duration_minutes])).toEqual([
        [summary.ids.calendar, 'Intro call', 30],
        [summary.ids.calendar, 'Product demo', 45],
        [summary.ids.calendar + 1, 'Office hours', 20],
      ]);
      const users = store.users.list(tenant, q({ with_trashed: true, page_size: 100 })).rows;
      expect(users.filter((u) => u.deleted_at).length).toBe(3);
      expect(new Set(users.map((u) => u.status))).toEqual(new Set([0, 1]));
      expect(new Set(users.map((u) => u.role))).toEqual(new Set(['Admin', 'Manager', 'Member']));
      expect(new Set(users.map((u) => u.timezone)).size).toBeGreaterThan(5);
      expect(store.customers.list(tenant, q({ with_trashed: true })).total).toBe(30);
      expect(store.customers.list(tenant, q()).total).toBe(27);
      expect(new Set(store.customers.list(tenant, q({ page_size: 100 })).rows.map((c) => c.address?.country_code)).size).toBeGreaterThan(4);
      // Conferences in each state.
      const conf = (k: string) => store.conferences.get(tenant, summary.ids[k])!;
      expect(conf('conference_not_started')).toMatchObject({ is_occurred: false, started_at: null });
      expect(conf('conference_running')).toMatchObject({ is_occurred: true, ended_at: null });
      expect(conf('conference_ended').ended_at! > conf('conference_ended').started_at!).toBe(true);
      expect(store.attendees.listByConference(conf('conference_running').id, { page_size: 50, page_number: 1 }).rows.map((a) => a.attendee_type)).toEqual(['User', 'Customer', 'Customer', 'User', null]);
      // Event attendees in every status.
      const statuses = new Set<number>();
      for (let e = 1; e <= summary.events; e++) for (const c of [1, 2, 3, 4]) store.events.get(tenant, c, e)?.attendees.forEach((a) => statuses.add(a.status));
      expect(statuses).toEqual(new Set([0, 1, 2, 3]));
      // Recordings in every status; finished ones are WAV files as long as their recording.
      const recs = [summary.ids.conference_running, summary.ids.conference_ended].flatMap((c) => store.recordings.listByConference(c, { page_size: 50, page_number: 1 }).rows);
      expect(new Set(recs.map((r) => r.status))).toEqual(new Set(Object.values(RECORDING_STATUS)));
      const finished = recs.filter((r) => r.status === RECORDING_STATUS.Finished);
      expect(finished.length).toBe(2);
      expect(summary.files).toEqual(finished.map((r) => r.path));
      for (const r of finished) {
        expect(r.file_name).toBe(`rec-${r.id}.wav`);
        const file = path.join(media, r.path!);
        expect(existsSync(file)).toBe(true);
        const seconds = wavDurationSeconds(readFileSync(file));
        expect(seconds).toBe((Date.parse(r.stopped_at!) - Date.parse(r.started_at!)) / 1000);
      }
      // Second run on the same tenant: skipped, nothing added.
      expect(atOnce(seedDemo(store, tenant, { mediaDir: media })).skipped).toBe(true);
      expect(store.users.list(tenant, q({ with_trashed: true })).total).toBe(25);
      for (const r of runs) r.store.close();
    });

    it('seedBulk inserts the requested counts with unique emails, also when run twice', () => {
      const store = factory.open();
      const tenant = store.tenants.create('bulk.example').id;
      store.departments.create(tenant, 'Ops');
      expect(atOnce(seedBulk(store, tenant, { users: 1500, customers: 300 }))).toEqual({ users: 1500, customers: 300 });
      expect(atOnce(seedBulk(store, tenant, { users: 500, customers: 0 }))).toEqual({ users: 500, customers: 0 });
      const users = store.users.list(tenant, q({ with_trashed: true, page_size: 100 }));
      expect(users.total).toBe(2000);
      expect(store.customers.list(tenant, q({ with_trashed: true })).total).toBe(300);
      const live = store.users.list(tenant, q()).total;
      expect(live).toBeLessThan(2000);
      expect(live).toBeGreaterThan(1800);
      const emails: string[] = [];
      for (let p = 1; p <= 20; p++) emails.push(...store.users.list(tenant, q({ with_trashed: true, page_size: 100, page_number: p })).rows.map((u) => u.email.toLowerCase()));
      expect(new Set(emails).size).toBe(2000);
      store.close();
    });
  });
}
