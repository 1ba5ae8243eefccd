import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

/**
 * serve --database: the URL's password never shows (output, errors, process list), and the first
 * start asks before replacing a profile, as on SQLite.
 */
describe('e2e: serve --database, its URL and its first start', () => {
  const box = new Sandbox('postgres');
  afterAll(() => box.dispose());

  it('prints the URL as user:***@host and hides --database from the process list', async () => {
    const url = new URL((await box.useDatabase())!);
    url.password = 'pw-never-shown';
    // Its own process: the test reads that process's command line.
    const s = await box.serve(['--no-profile', '--database', url.href], { ownProcess: true });
    expect(s.output()).toContain(`postgres://${url.username}:***@${url.host}${url.pathname}`);
    expect(s.output()).not.toContain('pw-never-shown');
    if (process.platform === 'linux') {
      const cmdline = readFileSync(`/proc/${s.child.pid}/cmdline`, 'utf8');
      expect(cmdline).not.toContain('pw-never-shown');
      expect(cmdline).toContain('confctl serve --database ***');
    }
  });

  it('the first serve on an empty database replaces a profile pointing elsewhere only with --force, before creating anything', async () => {
    const fresh = new Sandbox('postgres');
    try {
      const saved = await fresh.run(['profile', 'add', 'local', '--domain', 'elsewhere.example', '--key-id', 'ak_elsewhere', '--secret-stdin'], { input: 'x\n' });
      expect(saved.code, saved.stderr).toBe(0);
      const url = (await fresh.useDatabase())!;
      const refused = await fresh.run(['serve', '--port', '0']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("error: profile 'local' (https://elsewhere.example/api/public/v2.0, key ak_elsewhere) already exists; not replacing it");
      // Nothing was created, the schema included: the database is as it was.
      const client = new pg.Client(url);
      await client.connect();
      try {
        expect((await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows[0].n).toBe(0);
      } finally {
        await client.end();
      }
      const forced = await fresh.serve(['--force']);
      expect(forced.output()).toContain(`Profile 'local' points at ${forced.baseUrl}`);
    } finally {
      await fresh.dispose();
    }
  });

  it('--data wins over CONFCTL_DATABASE_URL, as for admin commands; --data with --database, or a URL not PostgreSQL\'s, is exit 2', async () => {
    const url = (await box.useDatabase())!;
    const dir = join(box.root, 'explicit-data');
    const s = await box.serve(['--no-profile', '--data', dir]);
    expect(s.output()).toContain(`(data: ${dir})`);
    expect(existsSync(join(dir, 'confctl.db'))).toBe(true);
    s.child.kill('SIGTERM');
    const both = await box.run(['serve', '--port', '0', '--no-profile', '--data', dir, '--database', url]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('error: give --data (a SQLite data directory) or --database (PostgreSQL), not both');
    const notPg = await box.run(['serve', '--port', '0', '--no-profile'], { env: { CONFCTL_DATABASE_URL: 'mysql://app@db/confctl' } });
    expect(notPg.code).toBe(2);
    expect(notPg.stderr).toContain('error: CONFCTL_DATABASE_URL must be a PostgreSQL URL (postgres://user@host/db)');
  });

  it('an unreachable database is exit 8 with the URL masked', async () => {
    const r = await box.run(['serve', '--port', '0', '--no-profile', '--database', 'postgres://app:pw-never-shown@127.0.0.1:1/confctl']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('error: cannot open the database postgres://app:***@127.0.0.1:1/confctl: connect ECONNREFUSED');
    expect(r.stderr + r.stdout).not.toContain('pw-never-shown');
  });
});
