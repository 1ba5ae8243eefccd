import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedDemo } from '../../../src/admin/seed/index.js';
import { wavDurationSeconds } from '../../../src/media/wav.js';
import { BACKENDS } from '../../e2e/harness.js';
import { tempDir } from '../../tmp.js';
import { storeBackends, tenantRows } from '../backends.js';

/** The demo seeder on either store, through the port: into a tenant that has data already, and twice at once. */
const open = storeBackends();
const page = { page_size: 50, page_number: 1 };

describe.each(BACKENDS)('seedDemo (%s)', (backend) => {
  it('adds the demo to a tenant that already has data, its files to the media directory; a second run adds nothing', async () => {
    const store = await open(backend);
    const tenant = (await store.tenants.create('localhost')).id;
    const other = (await store.tenants.create('other.example')).id;
    await store.users.insert(tenant, { first_name: 'Own', last_name: 'User', email: 'own@example.com' });
    await store.customers.insert(tenant, { first_name: 'Own', last_name: 'Customer', email: 'own@customers.example.com' });
    const media = tempDir('confctl-store-demo-');

    const summary = await seedDemo(store, tenant, { mediaDir: media });
    expect(summary).toMatchObject({ skipped: false, users: 25, customers: 30 });
    expect(await tenantRows(store, tenant)).toEqual({ users: 26, customers: 31, conferences: 4, recordings: 5, meeting_links: 3 });
    expect(await tenantRows(store, other)).toEqual({ users: 0, customers: 0, conferences: 0, recordings: 0, meeting_links: 0 });
    expect((await store.users.get(tenant, summary.ids.user))?.email).toBe('ada.lovelace@demo.example.com');
    const finished = (await store.recordings.listByConference(summary.ids.conference_ended, page)).rows.filter((r) => r.path);
    expect(finished.map((r) => r.path)).toEqual(summary.files);
    expect(readdirSync(path.join(media, 'recordings')).sort()).toEqual(finished.map((r) => r.file_name).sort());
    for (const r of finished) {
      expect(wavDurationSeconds(readFileSync(path.join(media, r.path!)))).toBe((Date.parse(r.stopped_at!) - Date.parse(r.started_at!)) / 1000);
    }

    expect(await seedDemo(store, tenant, { mediaDir: media })).toMatchObject({ skipped: true, users: 0, files: [] });
    expect(await tenantRows(store, tenant)).toEqual({ users: 26, customers: 31, conferences: 4, recordings: 5, meeting_links: 3 });
    expect(readdirSync(path.join(media, 'recordings'))).toHaveLength(2);
  });

  it('two seeds of one tenant at once take turns: one loads the demo, the other finds it', async () => {
    const store = await open(backend);
    const tenant = (await store.tenants.create('localhost')).id;
    const media = tempDir('confctl-store-demo-');
    const both = await Promise.all([seedDemo(store, tenant, { mediaDir: media }), seedDemo(store, tenant, { mediaDir: media })]);
    expect(both.map((s) => s.skipped).sort()).toEqual([false, true]);
    expect(await tenantRows(store, tenant)).toEqual({ users: 25, customers: 30, conferences: 4, recordings: 5, meeting_links: 3 });
  });
});
