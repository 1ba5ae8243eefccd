import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type DemoSummary, ensureDefaultRoles, seedBulk, seedDemo } from '../../src/admin/seed/index.js';
import { wavDurationSeconds } from '../../src/media/wav.js';
import type { DataStore } from '../../src/store/port.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { q } from '../store/contract/fixtures.js';
import { createMigratedDatabase, type TestDatabase } from '../pg/database.js';
import { tempDir } from '../tmp.js';
import { openStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

/**
 * The seeders on PostgreSQL (`serve --database --demo`, `admin seed --database`): the demo's steps
 * and the bulk rows land as on SQLite, in a tenant that already has data too.
 */
let database: TestDatabase | undefined;
let store: PostgresStore | undefined;
afterEach(async () => {
  await store?.close();
  await database?.drop();
  store = database = undefined;
});

async function openDatabase(): Promise<PostgresStore> {
  database = await createMigratedDatabase();
  store = await openPostgresStore(database.url);
  return store;
}

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

/** Counts of the tenant's stored rows, straight from the tables. */
async function counts(s: PostgresStore, tenantId: number) {
  const { rows } = await s.pool.query(
    `SELECT (SELECT count(*)::int FROM users WHERE tenant_id = $1) AS users,
            (SELECT count(*)::int FROM customers WHERE tenant_id = $1) AS customers,
            (SELECT count(*)::int FROM conferences WHERE tenant_id = $1) AS conferences,
            (SELECT count(*)::int FROM recordings r JOIN conferences c ON c.id = r.online_conference_id WHERE c.tenant_id = $1) AS recordings,
            (SELECT count(*)::int FROM meeting_links WHERE tenant_id = $1) AS meeting_links`,
    [tenantId],
  );
  return rows[0];
}

describe('seedDemo on PostgreSQL', () => {
  it('writes the rows and files that seedDemo writes on SQLite, stamps included', async () => {
    const pg = await openDatabase();
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

  it('adds the demo to a tenant that already has data, its files to the media directory; a second run adds nothing', async () => {
    const pg = await openDatabase();
    const tenant = (await pg.tenants.create('localhost')).id;
    const other = (await pg.tenants.create('other.example')).id;
    await pg.users.insert(tenant, { first_name: 'Own', last_name: 'User', email: 'own@example.com' });
    await pg.customers.insert(tenant, { first_name: 'Own', last_name: 'Customer', email: 'own@customers.example.com' });
    const media = tempDir('confctl-pg-demo-');

    const summary = await seedDemo(pg, tenant, { mediaDir: media });
    expect(summary).toMatchObject({ skipped: false, users: 25, customers: 30 });
    expect(await counts(pg, tenant)).toEqual({ users: 26, customers: 31, conferences: 4, recordings: 5, meeting_links: 3 });
    expect(await counts(pg, other)).toEqual({ users: 0, customers: 0, conferences: 0, recordings: 0, meeting_links: 0 });
    expect((await pg.users.get(tenant, summary.ids.user))?.email).toBe('ada.lovelace@demo.example.com');
    const finished = (await pg.recordings.listByConference(summary.ids.conference_ended, page)).rows.filter((r) => r.path);
    expect(finished.map((r) => r.path)).toEqual(summary.files);
    expect(readdirSync(path.join(media, 'recordings')).sort()).toEqual(finished.map((r) => r.file_name).sort());
    for (const r of finished) {
      expect(wavDurationSeconds(readFileSync(path.join(media, r.path!)))).toBe((Date.parse(r.stopped_at!) - Date.parse(r.started_at!)) / 1000);
    }

    expect(await seedDemo(pg, tenant, { mediaDir: media })).toMatchObject({ skipped: true, users: 0, files: [] });
    expect(await counts(pg, tenant)).toEqual({ users: 26, customers: 31, conferences: 4, recordings: 5, meeting_links: 3 });
    expect(readdirSync(path.join(media, 'recordings'))).toHaveLength(2);
  });

  it('two seeds of one tenant at once take turns: one loads the demo, the other finds it', async () => {
    const pg = await openDatabase();
    const tenant = (await pg.tenants.create('localhost')).id;
    const media = tempDir('confctl-pg-demo-');
    const both = await Promise.all([seedDemo(pg, tenant, { mediaDir: media }), seedDemo(pg, tenant, { mediaDir: media })]);
    expect(both.map((s) => s.skipped).sort()).toEqual([false, true]);
    expect(await counts(pg, tenant)).toEqual({ users: 25, customers: 30, conferences: 4, recordings: 5, meeting_links: 3 });
  });
});

describe('seedBulk on PostgreSQL', () => {
  it('stores the rows, JSON text and departments seedBulk stores on SQLite, across batches, and numbers a second seed after the first', async () => {
    const pg = await openDatabase();
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
