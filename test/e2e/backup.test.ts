import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

/**
 * A backup of a running instance under write load, then a restore into a new directory, through
 * the built bin: every write acknowledged before the backup started is in the copy, the copy's
 * integrity check is ok, and a signed media URL made before verifies against the restored instance.
 */
describe('e2e: admin backup and restore', () => {
  const box = new Sandbox();
  afterAll(() => box.dispose());

  it('backs up under write load and restores a whole, consistent instance', async () => {
    const key = await box.json<{ key_id: string; secret: string }>(['admin', 'init', '--no-profile']);
    await box.run(['admin', 'seed', '--demo']);
    const { baseUrl } = await box.serve(['--rate-limit', 'off', '--no-profile']);
    const headers = { 'x-access-key-id': key.key_id, 'x-access-key-secret': key.secret, 'content-type': 'application/json' };

    const signed = await fetch(`${baseUrl}/online_conferences/4/recordings/1/url?expiry=3600`, { headers });
    expect(signed.status).toBe(200);
    const url = new URL(((await signed.json()) as { data: { url: string } }).data.url);
    const original = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(original.length).toBeGreaterThan(1000);

    let writing = true;
    const acked: string[] = [];
    const statuses: number[] = [];
    const writer = async (name: string) => {
      for (let i = 0; writing; i++) {
        const email = `${name}-${i}@load.example.com`;
        const res = await fetch(`${baseUrl}/customers`, { method: 'POST', headers, body: JSON.stringify({ first_name: name, last_name: String(i), email }) });
        statuses.push(res.status);
        await res.arrayBuffer();
        if (res.status === 200) acked.push(email);
      }
    };
    const writers = [writer('a'), writer('b')];
    while (acked.length < 20) await new Promise((r) => setTimeout(r, 10));
    const ackedBefore = [...acked];
    const backupDir = join(box.root, 'backup');
    const backedUp = await box.run(['admin', 'backup', '--to', backupDir, '-o', 'json']);
    const ackedBeforeEnd = acked.length;
    writing = false;
    await Promise.all(writers);

    expect(backedUp.stderr).toBe('');
    expect(backedUp.code).toBe(0);
    expect(JSON.parse(backedUp.stdout)).toMatchObject({ backup: backupDir, format: 'confctl-backup', media_files: 2 });
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    const restoredDir = join(box.root, 'restored');
    const restored = await box.run(['admin', 'restore', '--from', backupDir, '--data', restoredDir, '-o', 'json']);
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ restored: restoredDir, media_files: 2 });

    const db = new Database(join(restoredDir, 'confctl.db'), { readonly: true });
    const emails = new Set(db.prepare("SELECT email FROM customers WHERE email LIKE '%@load.example.com'").pluck().all() as string[]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    expect(ackedBefore.filter((e) => !emails.has(e))).toEqual([]);
    // One snapshot: what the copy holds is a set of acknowledged writes, none beyond those acknowledged by its end.
    expect([...emails].filter((e) => !acked.includes(e))).toEqual([]);
    expect(emails.size).toBeLessThanOrEqual(ackedBeforeEnd);

    const again = await box.serve(['--rate-limit', 'off', '--no-profile', '--data', restoredDir]);
    const moved = new URL(url.pathname + url.search, again.baseUrl);
    const download = await fetch(moved);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(original);
    const altered = new URL(moved);
    altered.searchParams.set('expires', String(Number(altered.searchParams.get('expires')) + 1));
    expect((await fetch(altered)).status).toBe(403);
  }, 120_000);

  it('refuses an existing PATH (exit 5) unless --force, prints the plan of either under --dry-run, refuses a non-empty data directory (exit 5)', async () => {
    const target = join(box.root, 'second');
    const dry = await box.run(['--dry-run', 'admin', 'backup', '--to', target, '-o', 'json']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, to: target, replaces: false, media_files: 2 });
    expect((await box.run(['admin', 'restore', '--from', target, '--data', join(box.root, 'x')])).code).toBe(4);

    expect((await box.run(['admin', 'backup', '--to', target])).code).toBe(0);
    const again = await box.run(['admin', 'backup', '--to', target]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain(`${target} already exists; pass --force to replace it.`);
    expect((await box.run(['admin', 'backup', '--to', target, '--force'])).code).toBe(0);

    const planned = await box.run(['--dry-run', 'admin', 'restore', '--from', target, '--data', join(box.root, 'planned'), '-o', 'json']);
    expect(planned.code).toBe(0);
    expect(JSON.parse(planned.stdout)).toMatchObject({ dry_run: true, to: join(box.root, 'planned'), media_files: 2 });
    expect(existsSync(join(box.root, 'planned'))).toBe(false);

    const refused = await box.run(['admin', 'restore', '--from', target, '--data', box.dataDir]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`${box.dataDir} is not empty; restore into a new or empty directory.`);
  }, 60_000);
});
