import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDING_STATUS } from '../../src/contract/index.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { Sandbox, type ServeProcess } from './harness.js';

const API = '/api/public/v2.0';

/** One `serve --database` instance: its origin and process. */
interface Instance {
  origin: string;
  child: ServeProcess;
}

/**
 * Two `serve` processes on one PostgreSQL database act as one service (issue 12): shared rate
 * limits, a write on one read on the other at once, a revoked key refused by both, the attendee
 * maximum held across both, a media URL signed by one downloading from the other, and a SIGTERM
 * of one under load losing no acknowledged write.
 */
describe('e2e: two serve instances on one PostgreSQL database', () => {
  const box = new Sandbox('postgres');
  const media = join(box.root, 'shared-media');
  let store: PostgresStore;
  let key: { id: string; secret: string };
  let a: Instance;
  let b: Instance;

  const start = async (args: string[] = []): Promise<Instance> => {
    const s = await box.serve(['--no-profile', '--media', media, '--rate-limit', 'off', ...args]);
    return { origin: new URL(s.baseUrl).origin, child: s.child };
  };
  const call = (at: Instance, method: string, path: string, body?: unknown, as = key) =>
    fetch(at.origin + API + path, {
      method,
      headers: { 'x-access-key-id': as.id, 'x-access-key-secret': as.secret, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    mkdirSync(media, { recursive: true });
    const first = await box.serve(['--no-profile', '--media', media, '--rate-limit', 'off']);
    const out = first.output();
    key = { id: /key id: (\S+)/.exec(out)![1], secret: /secret: (\S+)/.exec(out)![1] };
    a = { origin: new URL(first.baseUrl).origin, child: first.child };
    b = await start();
    // The second instance found the first one's tenant: it created none.
    store = await openPostgresStore((await box.useDatabase())!);
    expect((await store.tenants.list()).length).toBe(1);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await box.dispose();
  });

  it('both answer /readyz from the database', async () => {
    for (const at of [a, b]) {
      const r = await fetch(`${at.origin}/readyz`);
      expect([r.status, await r.text()]).toEqual([200, 'ready\n']);
    }
  });

  it('a write on one instance is read on the other at once, and a key revoked with admin --database is refused by both on the next request', async () => {
    const created = await call(a, 'POST', '/customers', { first_name: 'Ann', last_name: 'Lee', email: 'ann@two.test' });
    expect(created.status).toBe(200);
    const { id } = ((await created.json()) as { data: { id: number } }).data;
    const read = await call(b, 'GET', `/customers/${id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: { email: string } }).data.email).toBe('ann@two.test');
    const taken = await call(b, 'POST', '/customers', { first_name: 'Ann', last_name: 'Lee', email: 'ANN@two.test' });
    expect(taken.status).toBe(400);

    const tenant = (await store.tenants.list())[0];
    const { record, secret } = await store.keys.create({ tenant_id: tenant.id, name: 'doomed', permissions: ['*'] });
    const doomed = { id: record.id, secret };
    // Both instances have the key in their caches before it is revoked.
    for (const at of [a, b]) expect((await call(at, 'GET', '/customers', undefined, doomed)).status).toBe(200);
    const revoked = await box.run(['admin', 'keys', 'revoke', record.id, '--database', (await box.useDatabase())!]);
    expect(revoked.code, revoked.stderr).toBe(0);
    for (const at of [a, b]) expect((await call(at, 'GET', '/customers', undefined, doomed)).status).toBe(401);
  });

  it('50 concurrent attendee additions spread over both never pass the maximum', async () => {
    const owner = ((await (await call(a, 'POST', '/customers', { first_name: 'Owen', last_name: 'Er', email: 'owner@two.test' })).json()) as { data: { id: number } }).data;
    const tenant = (await store.tenants.list())[0];
    const account = await store.conferenceAccounts.insert(tenant.id, { owner_type: 'Customer', owner_id: owner.id, name: 'Room' });
    const conf = await call(a, 'POST', '/online_conferences', { online_conference_account_id: account.id, public_id: 'race-1', title: 'Race', is_public: true });
    expect(conf.status).toBe(200);
    const conferenceId = ((await conf.json()) as { data: { id: number } }).data.id;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(i % 2 ? a : b, 'POST', `/online_conferences/${conferenceId}/attendees`, [{ email: `guest${i}@two.test`, name: `Guest ${i}` }])),
    );
    const statuses = answers.map((r) => r.status);
    // The default maximum is 5 besides the owner: 5 additions succeed, 45 are refused with 409.
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(45);
    expect(await store.attendees.count(conferenceId)).toBe(6);
  });

  it('a recording URL signed by one instance downloads from the other', async () => {
    const tenant = (await store.tenants.list())[0];
    const owner = await store.customers.insert(tenant.id, { first_name: 'Rec', last_name: 'Owner', email: 'rec@two.test' });
    const account = await store.conferenceAccounts.insert(tenant.id, { owner_type: 'Customer', owner_id: owner.id, name: 'Studio' });
    const conference = await store.conferences.insert(tenant.id, { online_conference_account_id: account.id, public_id: 'rec-1', title: 'Recorded', is_public: false });
    mkdirSync(join(media, 'two'), { recursive: true });
    writeFileSync(join(media, 'two', 'talk.wav'), 'RIFF-two-instances');
    const recording = await store.recordings.insert(conference.id, { status: RECORDING_STATUS.Finished, file_name: 'talk.wav', path: 'two/talk.wav' });
    const signed = await call(a, 'GET', `/online_conferences/${conference.id}/recordings/${recording.id}/url`);
    expect(signed.status).toBe(200);
    const url = new URL(((await signed.json()) as { data: { url: string } }).data.url);
    expect(url.origin).toBe(a.origin);
    const download = await fetch(b.origin + url.pathname + url.search);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('RIFF-two-instances');
  });

  it('the tenant limit of 10 requests a second holds for both instances together', async () => {
    const limited = [await start(['--rate-limit', '5/10']), await start(['--rate-limit', '5/10'])];
    const tenant = (await store.tenants.list())[0];
    const keys = await Promise.all([1, 2, 3, 4].map(async (n) => {
      const { record, secret } = await store.keys.create({ tenant_id: tenant.id, name: `burst-${n}`, permissions: ['*'] });
      return { id: record.id, secret };
    }));
    // 20 requests, 5 per key (each within its own limit of 5), alternating between the instances.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(limited[i % 2], 'GET', '/customers', undefined, keys[i % 4])));
    const ok = answers.filter((r) => r.status === 200).length;
    // The windows are the database's seconds: however the burst fell across them, each let at
    // most 10 of the tenant's requests through, counted for both instances together.
    const windows = await store.pool.query<{ count: number }>("SELECT count FROM confctl_rate_windows WHERE bucket = $1", [`tenant:${tenant.id}`]);
    expect(ok).toBe(windows.rows.reduce((sum, w) => sum + Math.min(w.count, 10), 0));
    expect(ok).toBeLessThanOrEqual(10 * windows.rows.length);
    expect(answers.filter((r) => r.status === 429).length).toBe(20 - ok);
    if (windows.rows.length === 1) expect(ok).toBe(10);
    for (const s of limited) s.child.kill('SIGTERM');
  });

  it('SIGTERM of one instance under load loses no acknowledged write, and the other keeps answering', async () => {
    const victim = await start();
    const acknowledged: number[] = [];
    // Four writers on the victim, one on the other; the victim gets SIGTERM after its 20th acknowledged write.
    let victimWrites = 0;
    const writer = async (at: Instance, name: string, n: number) => {
      for (let i = 0; i < n; i++) {
        const r = await call(at, 'POST', '/customers', { first_name: 'Load', last_name: `N${i}`, email: `load-${name}-${i}@two.test` }).catch(() => undefined);
        if (r?.status !== 200) {
          if (at === victim) return;
          throw new Error(`the other instance answered ${r?.status}`);
        }
        acknowledged.push(((await r.json()) as { data: { id: number } }).data.id);
        if (at === victim && ++victimWrites === 20) victim.child.kill('SIGTERM');
      }
    };
    await Promise.all([...[1, 2, 3, 4].map((w) => writer(victim, `v${w}`, 500)), writer(b, 'b', 60)]);
    const exit = victim.child.exitCode ?? (await new Promise<number | null>((done) => victim.child.once('exit', done)));
    expect(exit).toBe(0);
    const tenant = (await store.tenants.list())[0];
    for (const id of acknowledged) expect(await store.customers.get(tenant.id, id), `customer ${id}`).toBeDefined();
    expect((await call(b, 'GET', '/customers?page_size=1')).status).toBe(200);
  });
});
