import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

/** The database URL's password never shows: not in serve's output, its errors, or the process list. */
describe('e2e: serve --database keeps the password to itself', () => {
  const box = new Sandbox('postgres');
  afterAll(() => box.dispose());

  it('prints the URL as user:***@host and hides --database from the process list', async () => {
    const url = new URL((await box.useDatabase())!);
    url.password = 'pw-never-shown';
    const s = await box.serve(['--no-profile', '--database', url.href]);
    expect(s.output()).toContain(`postgres://${url.username}:***@${url.host}${url.pathname}`);
    expect(s.output()).not.toContain('pw-never-shown');
    if (process.platform === 'linux') {
      const cmdline = readFileSync(`/proc/${s.child.pid}/cmdline`, 'utf8');
      expect(cmdline).not.toContain('pw-never-shown');
      expect(cmdline).toContain('confctl serve --database ***');
    }
  });

  it('an unreachable database is exit 8 with the URL masked', async () => {
    const r = await box.run(['serve', '--port', '0', '--no-profile', '--database', 'postgres://app:pw-never-shown@127.0.0.1:1/confctl']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('error: cannot open the database postgres://app:***@127.0.0.1:1/confctl: connect ECONNREFUSED');
    expect(r.stderr + r.stdout).not.toContain('pw-never-shown');
  });
});
