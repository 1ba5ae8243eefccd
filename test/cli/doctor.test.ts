import { chmodSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/cli/commands/doctor/index.js';
import { NO_ID, PROBES, UNPROBED } from '../../src/cli/commands/doctor/probes.js';
import type { GlobalOptions } from '../../src/cli/context.js';
import { ALL_PERMISSIONS } from '../../src/contract/operations.js';
import { type Fake, fake, JSON_HEADERS, ORIGIN, page, SECRET, TEXT_HEADERS, withProfile } from './helpers.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const P = '/api/public/v2.0';
const GLOBALS: GlobalOptions = { raw: false, timeoutMs: 5000, verbose: false, dryRun: false, showSecret: false, output: 'json' };

/** Answers every probe: `denied` permissions get 401 Access denied., the others what the server would say. */
function answerProbes(denied: string[] = [], headers: Record<string, string> = {}) {
  const api = f.agent.get(ORIGIN);
  for (const p of PROBES) {
    const i = api.intercept({ path: P + p.path, method: p.method, headers: { 'x-access-key-secret': SECRET } });
    if (denied.includes(p.permission)) i.reply(401, 'Access denied.', TEXT_HEADERS);
    else if (p.method === 'GET' && !p.path.includes(NO_ID)) i.reply(200, page([]), { headers: { ...JSON_HEADERS.headers, ...headers } });
    else if (p.body !== undefined) i.reply(400, { message: 'x', errors: { x: ['x'] } }, JSON_HEADERS);
    else i.reply(404, 'Resource object does not exist.', TEXT_HEADERS);
  }
}
const rows = () => Object.fromEntries((JSON.parse(f.stdout()) as { check: string; status: string; detail: string }[]).map((r) => [r.check, r]));

describe('confctl doctor', () => {
  it('probes every permission of the contract but users.lock.*, writes only with bodies or ids that cannot succeed', () => {
    expect([...PROBES.map((p) => p.permission), ...UNPROBED.map((u) => u.permission)].sort()).toEqual([...ALL_PERMISSIONS]);
    expect(UNPROBED.map((u) => u.permission)).toEqual(['users.lock.*']);
    expect(PROBES.find((p) => p.permission === 'users.create.*')).toEqual({ permission: 'users.create.*', method: 'POST', path: '/users', body: {} });
    for (const p of PROBES.filter((x) => x.method !== 'GET')) expect(p.path.includes(NO_ID) || JSON.stringify(p.body) === '{}', p.permission).toBe(true);
  });

  it('a full key: every check ok, exit 0', async () => {
    f = await withProfile();
      answerProbes();
    expect(await f.run(['doctor', '-o', 'json'])).toBe(0);
    const r = rows();
    expect(r['config file'].detail).toMatch(/profiles\.json \(mode 0600\)$/);
    expect(r.profile.detail).toBe('acme (active)');
    expect(r.key.detail).toBe('ak_test, secret in the profile file');
    expect(r['key valid'].status).toBe('ok');
    for (const p of PROBES) expect(r[p.permission], p.permission).toMatchObject({ status: 'ok' });
    expect(r['customers.create.*'].detail).toBe('granted (answered 400)');
    expect(r['users.create.*'].detail).toBe('granted (answered 400)');
    expect(r['users.lock.*']).toEqual({ check: 'users.lock.*', status: 'skip', detail: expect.stringMatching(/^not probed: /) });
    expect(r['online_conferences.delete.*'].detail).toBe('granted (answered 404)');
    expect(f.stdout()).not.toContain(SECRET);
  });

  it('a read-users key: users ok, the rest denied, dependent probes unknown; still exit 0', async () => {
    f = await withProfile();
      answerProbes(PROBES.map((p) => p.permission).filter((p) => p !== 'users.read.*'));
    expect(await f.run(['doctor', '-o', 'json'])).toBe(0);
    const r = rows();
    expect(r['users.read.*'].status).toBe('ok');
    expect(r['customers.read.*']).toEqual({ check: 'customers.read.*', status: 'fail', detail: 'denied (401 Access denied.)' });
    expect(r['connected_accounts.read.*'].status).toBe('fail');
    expect(r['users.create.*']).toEqual({ check: 'users.create.*', status: 'fail', detail: 'denied (401 Access denied.)' });
    expect(r['users.lock.*'].status).toBe('skip');
    expect(r['online_conference_recordings.read.*']).toMatchObject({ status: 'warn', detail: 'unknown: the probe needs online_conferences.read.* too' });
  });

  it('a rejected key is exit 3 and stops there', async () => {
    f = await withProfile();
      f.agent.get(ORIGIN).intercept({ path: `${P}/users?page_size=1`, method: 'GET' }).reply(401, 'Invalid or missing access key.', TEXT_HEADERS);
    expect(await f.run(['doctor', '-o', 'json'])).toBe(3);
    expect(rows()['key valid']).toMatchObject({ status: 'fail', detail: 'rejected: Invalid or missing access key.' });
    expect(rows()['users.read.*']).toBeUndefined();
    expect(f.stderr()).toContain('error: the access key was rejected');
  });

  it('a host that names no tenant is exit 4 and stops there', async () => {
    f = await withProfile();
      f.agent.get(ORIGIN).intercept({ path: `${P}/users?page_size=1`, method: 'GET' }).reply(404, 'Unknown tenant.', TEXT_HEADERS);
    expect(await f.run(['doctor', '-o', 'json'])).toBe(4);
    expect(rows().tenant).toEqual({ check: 'tenant', status: 'fail', detail: 'Unknown tenant.: no tenant has this host name' });
    expect(rows()['key valid']).toBeUndefined();
    expect(f.stderr()).toContain('error: the base URL names no tenant');
  });

  it('an unreachable base URL is exit 8; no key at all is exit 2; a shared config file is a warning', async () => {
    f = await withProfile();
    expect(await f.run(['doctor', '-o', 'json', '--base-url', 'http://127.0.0.1:1/api'])).toBe(8);
    expect(rows().reachable).toMatchObject({ status: 'fail', detail: expect.stringContaining('ECONNREFUSED') });
    chmodSync((await f.ctx.config()).path, 0o644);
    const before = f.stdout().length;
    await f.run(['doctor', '-o', 'json', '--base-url', 'http://127.0.0.1:1/api']);
    expect(JSON.parse(f.stdout().slice(before))[0]).toMatchObject({ status: 'warn', detail: expect.stringMatching(/mode 0644: .*chmod 600/) });

    f = fake();
    expect(await f.run(['doctor', '-o', 'json'])).toBe(2);
    expect(rows()).toMatchObject({ 'base URL': { status: 'fail' }, key: { status: 'fail', detail: 'missing key id and secret' } });
  });

  it('waits for the next rate-limit window when one is used up', async () => {
    f = await withProfile();
      answerProbes([], { 'ratelimit-remaining': '0', 'ratelimit-reset': '1' });
    const waits: number[] = [];
    await runDoctor(GLOBALS, f.ctx, { sleep: async (ms) => void waits.push(ms) });
    expect(waits).toEqual([1000, 1000]); // after GET /users and GET /customers, the two lists
  });
});
