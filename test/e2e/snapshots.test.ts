import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresStore } from '../../src/store/postgres/index.js';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * `admin snapshot` and the snapshot control routes against a running `serve --demo
 * --test-controls` on each store: a restore by another process or over HTTP is what serve
 * answers from the next request on, lists and their totals included, with the recording files;
 * requests in flight during a restore answer 200 or 503, never a 500 or a mixed list.
 */
describe.each(BACKENDS)('snapshots on %s', (backend) => {
  const box = new Sandbox(backend);
  let api: string;
  let origin: string;
  let token: string;
  let key: Record<string, string>;

  beforeAll(async () => {
    const { baseUrl, output } = await box.serve(['--demo', '--test-controls', '--rate-limit', 'off', '--no-profile']);
    api = baseUrl;
    origin = new URL(baseUrl).origin;
    token = /X-Confctl-Control-Token: (\S+)/.exec(output())![1];
    key = { 'x-access-key-id': /key id: (\S+)/.exec(output())![1], 'x-access-key-secret': /secret: (\S+)/.exec(output())![1] };
  }, 60_000);
  afterAll(() => box.dispose());

  const customers = async () => {
    const res = await fetch(`${api}/customers?page_size=100`, { headers: key });
    const body = (await res.json()) as { data: { email: string }[]; total: number };
    return { emails: body.data.map((c) => c.email), total: body.total };
  };
  const addCustomer = (email: string) =>
    fetch(`${api}/customers`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify({ first_name: 'Snap', last_name: 'Shot', email, contact_number: null, address: null }) });
  const control = (method: string, path: string) => fetch(`${origin}/_confctl${path}`, { method, headers: { 'X-Confctl-Control-Token': token } });
  const recording = () => readFileSync(join(box.dataDir, 'media', 'recordings', 'rec-1.wav'));

  it('admin snapshot restore by another process is what serve answers next, rows, totals and files', async () => {
    const saved = await box.json(['admin', 'snapshot', 'save', 'clean']);
    expect(saved).toMatchObject({ name: 'clean', media_files: 2 });
    const before = await customers();
    const wav = recording();

    expect((await addCustomer('extra@example.com')).status).toBe(200);
    writeFileSync(join(box.dataDir, 'media', 'recordings', 'rec-1.wav'), 'overwritten');
    // serve caches the list's total: it must not survive the restore.
    expect(await customers()).toEqual({ emails: [...before.emails, 'extra@example.com'], total: before.total + 1 });

    const restored = await box.json(['admin', 'snapshot', 'restore', 'clean']);
    expect(restored).toMatchObject({ name: 'clean', media_written: 1, media_removed: 0 });
    expect(await customers()).toEqual(before);
    expect(recording().equals(wav)).toBe(true);
    expect((await box.json(['admin', 'snapshot', 'list'])).map((s: { name: string }) => s.name)).toEqual(['clean']);
  }, 60_000);

  it('POST /_confctl/snapshots/NAME/restore while requests are in flight: each answers 200 or 503 with a consistent list, and the state after is the snapshot', async () => {
    const before = await customers();
    for (let i = 0; i < 5; i++) expect((await addCustomer(`flight${i}@example.com`)).status).toBe(200);
    const traffic = Array.from({ length: 40 }, (_, i) =>
      i % 4 === 0
        ? addCustomer(`during${i}@example.com`).then((r) => ({ status: r.status, consistent: true }))
        : fetch(`${api}/customers?page_size=100`, { headers: key }).then(async (r) => {
            if (r.status !== 200) return { status: r.status, consistent: true };
            const body = (await r.json()) as { data: unknown[]; total: number };
            return { status: r.status, consistent: body.data.length === body.total };
          }),
    );
    const restore = await control('POST', '/snapshots/clean/restore');
    const answers = await Promise.all(traffic);
    expect(restore.status).toBe(200);
    for (const a of answers) {
      expect([200, 503]).toContain(a.status);
      expect(a.consistent).toBe(true);
    }
    const after = await customers();
    // Writes that were answered 200 after the restore stay; nothing from before it does.
    expect(after.emails.slice(0, before.emails.length)).toEqual(before.emails);
    expect(after.emails.filter((e) => e.startsWith('flight'))).toEqual([]);
    expect((await control('POST', '/snapshots/clean/restore')).status).toBe(200);
    expect(await customers()).toEqual(before);
  }, 60_000);

  it('refuses a bad name, an unknown one and one of a newer schema with exit 2 (400 over HTTP), changing nothing', async () => {
    expect((await addCustomer('kept@example.com')).status).toBe(200);
    for (const args of [['restore', '../etc'], ['save', 'a/b'], ['restore', 'unknown'], ['delete', 'unknown']]) {
      const r = await box.run(['admin', 'snapshot', ...args]);
      expect([args, r.code]).toEqual([args, 2]);
      expect(r.stderr).toMatch(/snapshot name '.*' is invalid|There is no snapshot named 'unknown'/);
    }
    await box.json(['admin', 'snapshot', 'save', 'newer']);
    await makeNewer(box, 'newer');
    const r = await box.run(['admin', 'snapshot', 'restore', 'newer']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('newer than this confctl')]);
    const http = await control('POST', '/snapshots/newer/restore');
    expect([http.status, ((await http.json()) as { errors: object }).errors]).toEqual([400, { name: [expect.stringContaining('newer than this confctl')] }]);
    const taken = await box.run(['admin', 'snapshot', 'save', 'clean']);
    expect([taken.code, taken.stderr]).toEqual([5, expect.stringContaining('--force')]);
    expect((await customers()).emails).toContain('kept@example.com');
    expect(existsSync(join(box.dataDir, 'etc'))).toBe(false);
  }, 60_000);
});

/** Marks the snapshot `name` as saved by a newer schema than this build's. */
async function makeNewer(box: Sandbox, name: string): Promise<void> {
  if (box.backend === 'sqlite') {
    const db = new Database(join(box.dataDir, 'snapshots', `${name}.db`));
    db.pragma('user_version = 999');
    db.close();
    return;
  }
  const store = (await box.openStore()) as PostgresStore;
  try {
    await store.pool.query(`UPDATE "confctl_snapshot_${name}".confctl_snapshot SET value = '999' WHERE key = 'schema_version'`);
  } finally {
    await store.close();
  }
}
