import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DemoSummary, ensureDefaultRoles, seedBulk, seedDemo } from '../../../src/admin/seed/index.js';
import type { DataStore } from '../../../src/store/port.js';
import { openStore } from '../../../src/store/sqlite/index.js';
import { atOnce } from '../../at-once.js';
import { q } from '../../store/contract/fixtures.js';
import { tempDir } from '../../tmp.js';
import { storeBackends } from '../backends.js';

/**
 * The seeders store on PostgreSQL (`serve --database --demo`, `admin seed --database`) exactly
 * what they store on SQLite: each case seeds both stores and compares what either answers
 * through the port, stamps included. (What holds on each store alone is in demo.test.ts and the
 * store contract's seeds.)
 */
const open = storeBackends();
const page = { page_size: 50, page_number: 1 };

/** Every row of the demo a client can read, write-time stamps included, through the port either store implements. */
async function snapshot(s: DataStore, tenantId: number, summary: DemoSummary) {
  const all = q({ with_trashed: true, page_size: 100 });
  const { ids } = summary;
  const conferences = ['conference_not_started', 'conference_planning', 'conference_running', 'conference_ended'].map((k) => ids[k]);
  const events = [];
  for (let i = 0; i < summary.events; i++) events.push(await s.events.get(tenantId, ids.calendar + Math.floor(i / 3), ids.event + i));
  return {
    users: (await s.users.list(tenantId, all)).rows,
    customers: (await s.customers.list(tenantId, all)).rows,
    accounts: (await s.conferenceAccounts.listByOwner(tenantId, 'User', ids.user, page)).rows,
    connected: (await s.connectedAccounts.listByOwner(tenantId, 'User', ids.user, page)).rows,
    events,
    conferences: await Promise.all(conferences.map((id) => s.conferences.get(tenantId, id))),
    attendees: await Promise.all(conferences.map(async (id) => (await s.attendees.listByConference(id, page)).rows)),
    recordings: await Promise.all(conferences.map(async (id) => (await s.recordings.listByConference(id, page)).rows)),
    meetingLinks: await s.meetingLinks.list(tenantId),
  };
}

describe('seedDemo on PostgreSQL and on SQLite', () => {
  it('writes the rows and files that seedDemo writes on SQLite, stamps included', async () => {
    const pg = await open('postgres');
    const pgTenant = (await pg.tenants.create('localhost')).id;
    const sqlite = openStore(':memory:');
    const sqliteTenant = sqlite.tenants.create('localhost').id;
    atOnce(ensureDefaultRoles(sqlite, sqliteTenant));
    const [pgMedia, sqliteMedia] = [tempDir('confctl-pg-demo-'), tempDir('confctl-sqlite-demo-')];
    try {
      const summary = await seedDemo(pg, pgTenant, { mediaDir: pgMedia });
      expect(summary).toEqual(atOnce(seedDemo(sqlite, sqliteTenant, { mediaDir: sqliteMedia })));
      expect(summary).toMatchObject({ skipped: false, users: 25, customers: 30, conferences: 4, recordings: 5, meetingLinks: 3 });
      expect(await snapshot(pg, pgTenant, summary)).toEqual(await snapshot(sqlite, sqliteTenant, summary));
      expect(await pg.roles.list(pgTenant)).toEqual(['Admin', 'Manager', 'Member']);
      for (const rel of summary.files) expect(readFileSync(path.join(pgMedia, rel))).toEqual(readFileSync(path.join(sqliteMedia, rel)));
    } finally {
      sqlite.close();
    }
  });

});

describe('seedBulk on PostgreSQL and on SQLite', () => {
  it('stores the rows, JSON text and departments seedBulk stores on SQLite, across batches, and numbers a second seed after the first', async () => {
    const pg = await open('postgres');
    const pgTenant = (await pg.tenants.create('bulk.test')).id;
    const sqlite = openStore(':memory:');
    const sqliteTenant = sqlite.tenants.create('bulk.test').id;
    const all = q({ with_trashed: true, page_size: 100_000 });
    const rows = async (s: DataStore, t: number) => ({
      users: (await s.users.list(t, all)).rows,
      json: (await s.users.listJson(t, all)).rows,
      customers: (await s.customers.list(t, all)).rows,
      departments: await s.departments.list(t),
    });
    try {
      expect(pgTenant).toBe(sqliteTenant);
      for (const counts of [{ users: 6_000, customers: 5_500 }, { users: 10, customers: 0 }]) {
        expect(await seedBulk(pg, pgTenant, counts)).toEqual(atOnce(seedBulk(sqlite, sqliteTenant, counts)));
      }
      const expected = await rows(sqlite, sqliteTenant);
      expect(expected.users).toHaveLength(6_010);
      expect(expected.customers).toHaveLength(5_500);
      expect(expected.departments).toHaveLength(50);
      expect(await rows(pg, pgTenant)).toEqual(expected);
      expect(expected.json[0]).toBe(JSON.stringify(expected.users[0]));
    } finally {
      sqlite.close();
    }
  });
});
