import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeGracefully, createServer, type ConfServer } from '../../src/server/index.js';
import { ensureDefaultRoles } from '../../src/admin/seed/index.js';
import { tempDir } from '../tmp.js';
import { listen } from './conferences-fixture.js';
import { API } from './fixtures.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

/**
 * A deleted attendee (`deleted_at` set, as attendee removal does) gets no new token, and its
 * issued token stops opening the page (decisions §11). The row is changed through a second
 * connection to the database file, so the test needs no removal operation of its own.
 */
let store: SqliteStore;
let app: ConfServer;
let origin: string;
let file: string;
let headers: Record<string, string>;
let conf: number;
let attendee: number;

beforeAll(async () => {
  file = join(tempDir('confctl-join-'), 'confctl.db');
  store = openStore(file);
  const tenant = store.tenants.create('localhost', ['127.0.0.1']);
  atOnce(ensureDefaultRoles(store, tenant.id));
  const { record, secret } = store.keys.create({ tenant_id: tenant.id, name: 'test', permissions: ['*'] });
  headers = { 'x-access-key-id': record.id, 'x-access-key-secret': secret, 'content-type': 'application/json' };
  const owner = store.users.insert(tenant.id, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.test' });
  const account = store.conferenceAccounts.insert(tenant.id, { owner_type: 'User', owner_id: owner.id, name: 'Ada room' });
  conf = store.conferences.insert(tenant.id, { online_conference_account_id: account.id, public_id: 'weekly', title: 'Weekly', is_public: false }).id;
  attendee = store.attendees.insert(conf, { email: 'grace@acme.test', name: 'Grace', attendee_type: null, attendee_id: null }).id;
  app = createServer({ store, signingSecret: 'test-secret', mediaDir: tempDir(), rateLimit: null });
  origin = await listen(app.server);
});
afterAll(async () => {
  await closeGracefully(app.server, 1000);
  store.close();
});

const issue = () => fetch(`${origin}${API}/online_conferences/${conf}/attendees/${attendee}/join_token`, { method: 'POST', headers, body: '{}' });
/** The join URL of a successful answer. */
const joinUrl = async (res: Response) => ((await res.json()) as { data: { join_url: string } }).data.join_url;

it('a deleted attendee: its token stops working and no new one is issued', async () => {
  const res = await issue();
  expect(res.status).toBe(200);
  const join_url = await joinUrl(res);
  expect((await fetch(join_url)).status).toBe(200);

  const db = new Database(file);
  db.prepare('UPDATE conference_attendees SET deleted_at = ? WHERE id = ?').run('2026-03-01T12:00:00.000Z', attendee);
  db.close();

  const page = await fetch(join_url);
  expect([page.status, await page.text()]).toEqual([403, 'Invalid token.']);
  const again = await issue();
  expect([again.status, await again.text()]).toEqual([404, 'Resource object does not exist.']);
});

it('a deleted conference: the tokens of its attendees stop working', async () => {
  attendee = store.attendees.insert(conf, { email: 'ada@acme.test', name: 'Ada', attendee_type: null, attendee_id: null }).id;
  const join_url = await joinUrl(await issue());
  expect((await fetch(join_url)).status).toBe(200);
  const db = new Database(file);
  db.prepare('UPDATE conferences SET deleted_at = ? WHERE id = ?').run('2026-03-01T12:00:00.000Z', conf);
  db.close();
  expect((await fetch(join_url)).status).toBe(403);
});
