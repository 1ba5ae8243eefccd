import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureDefaultRoles } from '../../../src/admin/seed/index.js';
import { createServer } from '../../../src/server/index.js';
import { tempDir } from '../../tmp.js';
import { openStore, type SqliteStore } from '../../../src/store/sqlite/index.js';
import { atOnce } from '../../at-once.js';

const TOKEN = 'snapshot-control-token-0123456789';
const API = '/api/public/v2.0';

let store: SqliteStore | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

/** A server with test controls over a SQLite file in a fresh data directory, with one recording file. */
function started() {
  const dir = tempDir();
  const mediaDir = join(dir, 'media');
  mkdirSync(join(mediaDir, 'recordings'), { recursive: true });
  writeFileSync(join(mediaDir, 'recordings', 'rec-1.wav'), 'first take');
  store = openStore(join(dir, 'confctl.db'));
  const tenant = store.tenants.create('localhost', ['127.0.0.1']);
  atOnce(ensureDefaultRoles(store, tenant.id));
  const { record, secret } = store.keys.create({ tenant_id: tenant.id, name: 'test', permissions: ['*'] });
  const app = createServer({ store, signingSecret: 'test-secret', mediaDir, rateLimit: null, testControls: { token: TOKEN } });
  const key = { 'x-access-key-id': record.id, 'x-access-key-secret': secret };
  const control = (method: string, path: string, body?: unknown) =>
    app.request({ method, path: `/_confctl${path}`, headers: { 'X-Confctl-Control-Token': TOKEN }, body });
  const customers = async () => (await app.request({ path: `${API}/customers`, headers: key })).json().data.map((c: { email: string }) => c.email);
  const addCustomer = (email: string) =>
    app.request({ method: 'POST', path: `${API}/customers`, headers: key, body: { first_name: 'A', last_name: 'B', email, contact_number: null, address: null } });
  return { dir, mediaDir, control, customers, addCustomer };
}

describe('test controls: snapshots', () => {
  it('saves, and restores the rows and the recording files while serving', async () => {
    const s = started();
    expect((await s.addCustomer('kept@example.com')).status).toBe(200);
    const saved = await s.control('POST', '/snapshots/clean');
    expect([saved.status, saved.json().data]).toEqual([200, { name: 'clean', created_at: expect.any(String), schema_version: expect.any(Number), media_files: 1 }]);

    expect((await s.addCustomer('later@example.com')).status).toBe(200);
    writeFileSync(join(s.mediaDir, 'recordings', 'rec-1.wav'), 'second take');
    writeFileSync(join(s.mediaDir, 'recordings', 'rec-2.wav'), 'new');
    expect(await s.customers()).toEqual(['kept@example.com', 'later@example.com']);

    const restored = await s.control('POST', '/snapshots/clean/restore');
    expect([restored.status, restored.json().data]).toEqual([200, expect.objectContaining({ name: 'clean', media_written: 1, media_removed: 1 })]);
    expect(await s.customers()).toEqual(['kept@example.com']);
    expect(readFileSync(join(s.mediaDir, 'recordings', 'rec-1.wav'), 'utf8')).toBe('first take');
    expect(existsSync(join(s.mediaDir, 'recordings', 'rec-2.wav'))).toBe(false);
    // The next id is the one the restored state gives.
    expect((await s.addCustomer('again@example.com')).json().data.id).toBe(2);

    expect((await s.control('GET', '/snapshots')).json().data.map((x: { name: string }) => x.name)).toEqual(['clean']);
    expect((await s.control('DELETE', '/snapshots/clean')).json().data).toEqual({ deleted: 'clean' });
    expect((await s.control('GET', '/snapshots')).json().data).toEqual([]);
  });

  it('answers bad input with 400 on name, a taken name with 409, and changes nothing', async () => {
    const s = started();
    await s.control('POST', '/snapshots/clean');
    await s.addCustomer('kept@example.com');
    const refusal = async (method: string, path: string, body?: unknown) => {
      const res = await s.control(method, path, body);
      return [res.status, res.status === 400 ? Object.keys(res.json().errors) : res.body];
    };
    for (const name of ['a%2Fb', '..', '%2E%2E%2Fetc', 'a%20b', 'x'.repeat(41)]) {
      expect(await refusal('POST', `/snapshots/${name}`)).toEqual([400, ['name']]);
      expect(await refusal('POST', `/snapshots/${name}/restore`)).toEqual([400, ['name']]);
    }
    expect(await refusal('POST', '/snapshots/unknown/restore')).toEqual([400, ['name']]);
    expect(await refusal('DELETE', '/snapshots/unknown')).toEqual([400, ['name']]);
    expect(await refusal('POST', '/snapshots/clean')).toEqual([409, "A snapshot named 'clean' exists already."]);
    expect(await refusal('POST', '/snapshots/clean', { replace: 'yes' })).toEqual([400, ['replace']]);
    expect(await s.customers()).toEqual(['kept@example.com']);
    expect((await s.control('POST', '/snapshots/clean', { replace: true })).status).toBe(200);
    expect(readdirSync(join(s.dir, 'snapshots'))).toEqual(['clean.db']);
  });

  it('refuses a snapshot of a newer schema, and one whose files would leave the media directory, before anything changes', async () => {
    const s = started();
    await s.control('POST', '/snapshots/newer');
    await s.control('POST', '/snapshots/escape');
    await s.addCustomer('kept@example.com');
    const edit = (name: string, sql: string) => {
      const db = new Database(join(s.dir, 'snapshots', `${name}.db`));
      db.exec(sql);
      db.close();
    };
    edit('newer', 'PRAGMA user_version = 999');
    edit('escape', "INSERT INTO confctl_snapshot_files (path, content) VALUES ('../outside.txt', x'00')");
    const newer = await s.control('POST', '/snapshots/newer/restore');
    expect([newer.status, newer.json().message]).toEqual([400, expect.stringContaining('newer than this confctl')]);
    const escape = await s.control('POST', '/snapshots/escape/restore');
    expect([escape.status, escape.json().message]).toEqual([400, expect.stringContaining('outside the media directory')]);
    expect(existsSync(join(s.dir, 'outside.txt'))).toBe(false);
    expect(await s.customers()).toEqual(['kept@example.com']);
  });
});
