import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/contract/index.js';
import { createServer } from '../../src/server/index.js';
import { type CommitGroups } from '../../src/store/index.js';
import { API, setup, type Fixture } from './fixtures.js';
import { tempDir } from '../tmp.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';

const customer = (email: string) => ({ first_name: 'Ada', last_name: 'Lovelace', email });
const emails = (store: SqliteStore, tenantId: number) =>
  store.customers.list(tenantId, { page_size: 100, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).rows.map((c) => c.email);

describe('requests handled together on the SQLite store', () => {
  let f: Fixture;
  afterEach(() => f.store.close());

  it('share one commit group; a duplicate e-mail fails alone and a read in the batch answers', async () => {
    f = setup();
    const before = f.store.commits.mark();
    const answers = await Promise.all([
      f.call('POST', '/customers', { body: customer('a@example.com') }),
      f.call('POST', '/customers', { body: customer('b@example.com') }),
      f.call('POST', '/customers', { body: customer('A@example.com') }),
      f.call('POST', '/customers', { body: customer('c@example.com') }),
      f.call('GET', '/customers'),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 400, 200, 200]);
    expect(answers[2].json()).toEqual({ message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } });
    // One group opened (and committed) for the whole batch.
    expect(f.store.commits.mark() - before).toBe(1);
    expect(emails(f.store, f.tenant.id)).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
  });
});

/** Commit groups whose one group the test commits or fails by hand. */
function manualCommits() {
  let joins = 0;
  let joined!: () => void;
  const firstJoin = new Promise<void>((resolve) => (joined = resolve));
  let settle!: { resolve: () => void; reject: (err: Error) => void };
  const group = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  const commits: CommitGroups = {
    join() {
      joins++;
      joined();
    },
    read: () => undefined,
    mark: () => 1,
    settled: () => (joins ? group : undefined),
  };
  return { commits, firstJoin, settle, joins: () => joins };
}

describe('answers and the COMMIT of their group', () => {
  let store: SqliteStore;
  afterEach(() => store.close());

  function start() {
    store = openStore(':memory:');
    const tenant = store.tenants.create('localhost');
    const { record, secret } = store.keys.create({ tenant_id: tenant.id, name: 't', permissions: ['*'] });
    const manual = manualCommits();
    const app = createServer({ store: { ...store, commits: manual.commits }, signingSecret: 's', mediaDir: '/nonexistent', rateLimit: null, log: 'off' });
    const headers = { 'x-access-key-id': record.id, 'x-access-key-secret': secret };
    const answered: number[] = [];
    const send = (method: string, path: string, body?: unknown) =>
      app.request({ method, path: API + path, headers, body }).then((r) => {
        answered.push(r.status);
        return r;
      });
    return { ...manual, send, answered, tenant };
  }

  /** Lets every pending callback run (timers of 0 ms and immediates included) without a clock. */
  const drain = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('a write joins the group and a read that ran while it was open waits for it too; both answer once it commits', async () => {
    const s = start();
    const post = s.send('POST', '/customers', customer('a@example.com'));
    await s.firstJoin;
    const get = s.send('GET', '/customers');
    await drain();
    expect(s.answered).toEqual([]);
    s.settle.resolve();
    expect((await post).status).toBe(200);
    expect((await get).json().data.map((c: { email: string }) => c.email)).toEqual(['a@example.com']);
    expect(s.joins()).toBe(1);
  });

  it('a failed COMMIT answers every request of the group with the 500, never a success', async () => {
    const s = start();
    const post = s.send('POST', '/customers', customer('a@example.com'));
    await s.firstJoin;
    const duplicate = s.send('POST', '/customers', customer('a@example.com'));
    const get = s.send('GET', '/customers');
    await drain();
    expect(s.answered).toEqual([]);
    s.settle.reject(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }));
    for (const r of await Promise.all([post, duplicate, get])) {
      expect(r.status).toBe(500);
      expect(r.body).toBe(MESSAGES.unexpected);
    }
  });
});

describe('reads of requests handled together on a SQLite file', () => {
  const stores: SqliteStore[] = [];
  afterEach(() => stores.splice(0).forEach((s) => s.close()));

  it('requests begun in one synchronous run read one snapshot; the next request reads what another process committed meanwhile', async () => {
    const file = join(tempDir('confctl-shared-reads-'), 'confctl.db');
    const store = openStore(file);
    const admin = openStore(file);
    stores.push(store, admin);
    const tenant = store.tenants.create('localhost');
    const { record, secret } = store.keys.create({ tenant_id: tenant.id, name: 't', permissions: ['*'] });
    const app = createServer({ store, signingSecret: 's', mediaDir: '/nonexistent', rateLimit: null, log: 'off' });
    const get = (id: number) => app.request({ path: `${API}/users/${id}`, headers: { 'x-access-key-id': record.id, 'x-access-key-secret': secret } });

    const first = get(1);
    // Another process commits after the first request's reads began, before the second request is sent.
    const added = admin.users.insert(tenant.id, { first_name: 'New', last_name: 'User', email: 'new@example.com' });
    const second = get(added.id);
    expect([(await first).status, (await second).status]).toEqual([404, 404]);
    const third = await get(added.id);
    expect(third.status).toBe(200);
    expect(third.json().data).toMatchObject({ id: added.id, email: 'new@example.com' });
  });
});
