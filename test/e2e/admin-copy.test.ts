import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../pg/database.js';
import { Sandbox } from './harness.js';

/**
 * Moving a local instance to PostgreSQL through the built bin, as "Moving a local instance to
 * PostgreSQL" in docs/instances-and-postgresql.md says: `admin init` and `admin seed --demo`, a
 * SQLite `serve` that signs a recording URL and a join link, `admin copy` while it runs, then
 * `serve --database`: the copied key reads the same data, the URLs signed before work, and `admin keys revoke --database` is
 * refused by the running `serve --database` on its next request.
 */
describe('e2e: admin copy into PostgreSQL, then serve --database', () => {
  const box = new Sandbox();
  const sharedMedia = join(box.root, 'shared-media');
  let db: TestDatabase;
  /** The database's URL with a password (the test server trusts local connections): it must never be printed. */
  let url: string;
  let key: { key_id: string; secret: string };
  const auth = (k: { key_id: string; secret: string }) => ({ 'x-access-key-id': k.key_id, 'x-access-key-secret': k.secret, 'content-type': 'application/json' });
  const get = async (base: string, path: string, k = key) => {
    const res = await fetch(`${base}${path}`, { headers: auth(k) });
    const text = await res.text();
    return { status: res.status, text, body: (res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : {}) as { data: unknown } };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    const withPassword = new URL(db.url);
    withPassword.password = 'hunter2';
    url = withPassword.href;
  });
  afterAll(async () => {
    await box.dispose();
    await db?.drop();
  });

  /** What the SQLite serve answered before the copy, compared with the PostgreSQL serve's answers after. */
  const before = new Map<string, unknown>();
  const signed: { recording?: URL; join?: URL; bytes?: Buffer } = {};
  const READS = ['/users?per_page=100', '/users/3', '/customers?per_page=100&sort=-email', '/online_conferences?per_page=100', '/online_conferences/4/recordings', '/online_conferences/3/attendees'];

  it('copies a running SQLite instance: rows, signing secret and media files', async () => {
    key = await box.json(['admin', 'init', '--no-profile']);
    expect((await box.run(['admin', 'seed', '--demo'])).code).toBe(0);
    const sqlite = await box.serve(['--rate-limit', 'off', '--no-profile']);
    const created = await fetch(`${sqlite.baseUrl}/customers`, { method: 'POST', headers: auth(key), body: JSON.stringify({ first_name: 'Moved', last_name: 'Along', email: 'moved@example.com' }) });
    expect(created.status).toBe(200);
    for (const path of READS) {
      const r = await get(sqlite.baseUrl, path);
      expect(r.status, path).toBe(200);
      before.set(path, r.body.data);
    }
    const link = await fetch(`${sqlite.baseUrl}/online_conferences/4/recordings/1/url?expiry=3600`, { headers: auth(key) });
    signed.recording = new URL(((await link.json()) as { data: { url: string } }).data.url);
    signed.bytes = Buffer.from(await (await fetch(signed.recording)).arrayBuffer());
    expect(signed.bytes.length).toBeGreaterThan(1000);
    const attendees = before.get('/online_conferences/3/attendees') as { id: number }[];
    const token = await fetch(`${sqlite.baseUrl}/online_conferences/3/attendees/${attendees[0].id}/join_token`, { method: 'POST', headers: auth(key), body: '{}' });
    expect(token.status).toBe(200);
    signed.join = new URL(((await token.json()) as { data: { join_url: string } }).data.join_url);
    expect((await fetch(signed.join)).status).toBe(200);

    const copied = await box.run(['admin', 'copy', '--from', box.dataDir, '--to', url, '--media-to', sharedMedia, '-o', 'json']);
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
    const summary = JSON.parse(copied.stdout);
    expect(summary).toMatchObject({ from: box.dataDir, replaced: false, signing_secret: true, media: { from: join(box.dataDir, 'media'), to: sharedMedia, files: 2 } });
    expect(summary.to).toMatch(/^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/confctl_test_\w+$/);
    expect(summary.tables.find((t: { table: string }) => t.table === 'customers')).toEqual({ table: 'customers', rows: 31 });
    expect(copied.stdout).not.toContain('hunter2');

    const again = await box.run(['admin', 'copy', '--from', box.dataDir, '--to', url, '--media-to', sharedMedia]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('already holds confctl data (1 tenant); pass --replace to empty it first.');
    sqlite.child.kill('SIGTERM');
  }, 120_000);

  it('serve --database answers the copied key with the copied data; URLs signed before the copy work', async () => {
    const served = await box.serve(['--database', url, '--no-profile', '--rate-limit', 'off', '--media', sharedMedia]);
    expect(served.output()).not.toContain('Created tenant');
    expect(served.output()).toMatch(/Listening on \S+ \(data: postgres:\/\/postgres:\*\*\*@/);
    expect(served.output()).not.toContain('hunter2');
    for (const path of READS) {
      const r = await get(served.baseUrl, path);
      expect(r.status, path).toBe(200);
      expect(r.body.data, path).toEqual(before.get(path));
    }
    const moved = new URL(signed.recording!.pathname + signed.recording!.search, served.baseUrl);
    const download = await fetch(moved);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(signed.bytes);
    const altered = new URL(moved);
    altered.searchParams.set('expires', String(Number(altered.searchParams.get('expires')) + 1));
    expect((await fetch(altered)).status).toBe(403);
    const joined = await fetch(new URL(signed.join!.pathname + signed.join!.search, served.baseUrl));
    expect(joined.status).toBe(200);
    expect(await joined.text()).toContain('<h1>');

    // Ids go on past the copied ones.
    const created = await fetch(`${served.baseUrl}/customers`, { method: 'POST', headers: auth(key), body: JSON.stringify({ first_name: 'After', last_name: 'Copy', email: 'after@example.com' }) });
    expect(created.status).toBe(200);
    expect(((await created.json()) as { data: { id: number } }).data.id).toBe(32);
  }, 60_000);

  it('a key revoked with admin keys revoke --database is refused by the running serve --database on its next request', async () => {
    const served = await box.serve(['--database', url, '--no-profile', '--rate-limit', 'off', '--media', sharedMedia]);
    const made = await box.json<{ id: string; secret: string }>(['admin', 'keys', 'create', '--name', 'short-lived', '--permissions', 'users.read.*', '--database', url]);
    const short = { key_id: made.id, secret: made.secret };
    expect((await get(served.baseUrl, '/users/1', short)).status).toBe(200);
    expect((await get(served.baseUrl, '/users/1', short)).status).toBe(200);
    // CONFCTL_DATABASE_URL names the database as --database does.
    const listed = await box.json<{ id: string; revoked_at: string | null }[]>(['admin', 'keys', 'list'], { env: { CONFCTL_DATABASE_URL: url } });
    expect(listed.find((k) => k.id === made.id)?.revoked_at).toBeNull();
    const revoked = await box.run(['admin', 'keys', 'revoke', made.id, '--database', url, '-o', 'json']);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout).revoked_at).toEqual(expect.any(String));
    const refused = await get(served.baseUrl, '/users/1', short);
    expect([refused.status, refused.text]).toEqual([401, 'Invalid or missing access key.']);
    // The copied key still works.
    expect((await get(served.baseUrl, '/users/1')).status).toBe(200);
  }, 60_000);
});
