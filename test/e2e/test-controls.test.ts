import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

let sandbox: Sandbox;
afterEach(async () => sandbox.dispose());

const listing = (origin: string, token?: string) =>
  fetch(`${origin}/_confctl`, { headers: token === undefined ? {} : { 'X-Confctl-Control-Token': token } });

describe('serve --test-controls', () => {
  it('prints a fresh token at start that opens /_confctl, and keeps it out of the access log', async () => {
    sandbox = new Sandbox();
    const { baseUrl, output } = await sandbox.serve(['--no-profile', '--test-controls', '--log', 'json']);
    const origin = new URL(baseUrl).origin;
    const m = /Test controls on (\S+) \(loopback only\), with the header X-Confctl-Control-Token: (\S+)/.exec(output());
    expect(m?.[1]).toBe(`${origin}/_confctl`);
    const token = m![2];
    const ok = await listing(origin, token);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { data: unknown[] }).data[0]).toEqual({ method: 'GET', path: '/_confctl', summary: 'lists the control routes' });
    const refused = await listing(origin, 'not-the-token-0123456789');
    expect([refused.status, await refused.text()]).toEqual([401, 'Invalid or missing control token.']);
    expect((await listing(origin)).status).toBe(401);
    // The access log (stderr) has the three requests, and the token only on the start-up line of stdout.
    await expect.poll(() => output().split('\n').filter((l) => l.includes('"path":"/_confctl"')).length).toBe(3);
    expect(output().split(token).length - 1).toBe(1);
  });

  it('reads the token from --control-token-file, and never prints it', async () => {
    sandbox = new Sandbox();
    const file = join(sandbox.root, 'token');
    const token = 'file-token-abcdefghijklmnop';
    writeFileSync(file, `${token}\n`);
    const { baseUrl, output } = await sandbox.serve(['--no-profile', '--test-controls', '--control-token-file', file]);
    const origin = new URL(baseUrl).origin;
    expect(output()).toContain(`X-Confctl-Control-Token: the token in ${file}`);
    expect(output()).not.toContain(token);
    expect((await listing(origin, token)).status).toBe(200);
  });

  it('refuses an unreadable or malformed token file with exit 2, naming no content', async () => {
    sandbox = new Sandbox();
    const missing = await sandbox.run(['serve', '--port', '0', '--no-profile', '--test-controls', '--control-token-file', join(sandbox.root, 'none')]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('cannot read --control-token-file')]);
    const short = join(sandbox.root, 'short');
    writeFileSync(short, 'tiny secret');
    const bad = await sandbox.run(['serve', '--port', '0', '--no-profile', '--test-controls', '--control-token-file', short]);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('must hold one token of 16 to 512 visible ASCII characters')]);
    expect(bad.stderr).not.toContain('tiny secret');
    const alone = await sandbox.run(['serve', '--port', '0', '--no-profile', '--control-token-file', short]);
    expect([alone.code, alone.stderr]).toEqual([2, expect.stringContaining('--control-token-file needs --test-controls')]);
  });

  it('without the flag, /_confctl is an unknown route', async () => {
    sandbox = new Sandbox();
    const { baseUrl } = await sandbox.serve(['--no-profile']);
    const res = await listing(new URL(baseUrl).origin, 'any-token-0123456789abc');
    expect([res.status, await res.text()]).toEqual([404, 'Resource object does not exist.']);
  });
});
