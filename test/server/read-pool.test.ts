import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureDefaultRoles, seedBulk } from '../../src/admin/seed/index.js';
import { createServer } from '../../src/server/index.js';
import type { DataStore } from '../../src/store/port.js';
import { MAIN_THREAD_COUNT_ROWS, MAIN_THREAD_ROWS, SMALL_TENANT_ROWS } from '../../src/store/sqlite/list-query.js';
import { spawnReadWorker, type ReadTask } from '../../src/store/sqlite/read-pool.js';
import { withReadPool } from '../../src/store/sqlite/served.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';
import { connect } from './socket-helpers.js';

const API = '/api/public/v2.0';
/** Rows of the large tenant's users and customers: more than a small tenant may have, with live pages to spare past MAIN_THREAD_ROWS. */
const LARGE = SMALL_TENANT_ROWS + 500;

/**
 * `serve`'s SQLite store: bounded lists on the main thread, the others on read workers (one worker
 * here); what a request sees, and how the bounded pool answers a flood and a worker that dies.
 * `spawn` wraps the real worker's start, so a test can see which lists were sent to a worker
 * (the routing rule, MAIN_THREAD_ROWS in list-query.ts), hold them, or stop a worker.
 */
describe('lists on the main thread and on read workers', () => {
  let dir: string;
  let store: SqliteStore;
  let served: DataStore;
  afterEach(async () => {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A store with a large tenant `localhost` (LARGE users and customers) and a small one
   * `small.test` (40 of each), served with one worker. `countRows` (MAIN_THREAD_COUNT_ROWS in
   * `serve`): by default the large tenant's cold Equal counts go to a worker, as a tenant past
   * MAIN_THREAD_COUNT_ROWS rows would (seeding one takes seconds). `add` adds a tenant.
   */
  function setup(queue: number, spawn: (file: string) => Worker = spawnReadWorker, countRows = SMALL_TENANT_ROWS) {
    dir = mkdtempSync(join(tmpdir(), 'confctl-read-pool-'));
    store = openStore(join(dir, 'confctl.db'));
    const key = (host: string, users: number, customers = users) => {
      const tenant = store.tenants.create(host);
      atOnce(ensureDefaultRoles(store, tenant.id));
      store.departments.create(tenant.id, 'Engineering');
      atOnce(seedBulk(store, tenant.id, { users, customers }));
      return { tenant, ...store.keys.create({ tenant_id: tenant.id, name: 't', permissions: ['*'] }) };
    };
    const large = key('localhost', LARGE);
    const small = key('small.test', 40);
    store.optimize();
    const all = { page_size: 1, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null } as const;
    // The bulk seed soft-deletes some rows: the live totals a list answers.
    const live = { users: store.users.list(large.tenant.id, all).total, customers: store.customers.list(large.tenant.id, all).total, small: store.users.list(small.tenant.id, all).total };
    served = withReadPool(store, { workers: 1, queue, retryAfterSeconds: 2, spawn, countRows });
    const app = createServer({ store: served, signingSecret: 's', mediaDir: dir, rateLimit: null });
    const caller =
      ({ record, secret }: typeof large, host: string) =>
      (method: string, path: string, body?: unknown) =>
        app.request({ method, path: API + path, headers: { host, 'x-access-key-id': record.id, 'x-access-key-secret': secret }, body });
    const add = (host: string, users: number, customers: number) => caller(key(host, users, customers), host);
    return { app, large, small, tenant: large.tenant, live, add, call: caller(large, 'localhost'), callSmall: caller(small, 'small.test') };
  }

  /** A spawn whose workers' starts and reads are recorded, and reads held until `release()` while `holding`. */
  function recording() {
    const sent: ReadTask[] = [];
    const held: (() => void)[] = [];
    const control = { sent, started: 0, holding: false, release: () => held.splice(0).forEach((post) => post()) };
    const spawn = (file: string) => {
      control.started++;
      const worker = spawnReadWorker(file);
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (task: ReadTask) => {
        sent.push(task);
        if (control.holding) held.push(() => post(task));
        else post(task);
      };
      return worker;
    };
    return { control, spawn };
  }

  /** Sends `path` and answers whether a worker ran it (the worker's reads before and after), after checking it answered 200. */
  const onWorker = async (control: { sent: ReadTask[] }, send: (method: string, path: string) => Promise<{ status: number; body: string }>, path: string) => {
    const before = control.sent.length;
    const answer = await send('GET', path);
    expect(answer.status, `${path}: ${answer.body}`).toBe(200);
    return control.sent.length > before;
  };

  it("a small tenant's lists all run on the main thread, cold or warm, whatever their filter, order or page", async () => {
    const { control, spawn } = recording();
    const { callSmall } = setup(4, spawn);
    for (const path of [
      '/users',
      '/users?filter_attribute=last_name&filter_operator=Contains&filter_value=son',
      '/users?order_by=timezone&order_direction=desc&page_number=2&page_size=7',
      '/users?with_trashed=true&filter_attribute=created_at&filter_operator=GreaterThan&filter_value=2020-01-01',
      '/customers?filter_attribute=address&filter_operator=Contains&filter_value=main&order_by=address',
      '/online_conferences',
    ]) {
      expect(await onWorker(control, callSmall, path), path).toBe(false);
    }
    expect(control.sent).toEqual([]);
  });

  it("a large tenant's id-ordered page runs on the main thread once its total is known: unfiltered at once and at any depth (the row counters), an Equal filter after a worker counted it and no deeper than MAIN_THREAD_ROWS", async () => {
    // The rule as docs/local-server.md ("Durability and concurrency") states it, with these numbers.
    const doc = readFileSync(new URL('../../docs/local-server.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain('on the main thread only when what SQLite reads for it is bounded, known before it runs');
    expect(doc).toContain(`the tenant has at most ${SMALL_TENANT_ROWS.toLocaleString('en')} rows in that table`);
    expect(doc).toContain(`no more than ${MAIN_THREAD_ROWS.toLocaleString('en')} rows deep`);
    expect(doc).toContain('unfiltered, at any depth');
    const { control, spawn } = recording();
    const { call, tenant } = setup(4, spawn);
    // Unfiltered, the total is the table's row counter: a shallow page stays here, cold or warm.
    expect(await onWorker(control, call, '/users')).toBe(false);
    expect(await onWorker(control, call, '/users')).toBe(false);
    expect(await onWorker(control, call, '/users?page_number=2&order_direction=desc')).toBe(false);
    expect(MAIN_THREAD_ROWS % 100).toBe(0);
    expect(await onWorker(control, call, `/users?page_size=100&page_number=${MAIN_THREAD_ROWS / 100}`)).toBe(false);
    // Deeper, an unfiltered page is walked from its counter bucket: here too, at any depth.
    expect(await onWorker(control, call, `/users?page_size=100&page_number=${MAIN_THREAD_ROWS / 100 + 1}`)).toBe(false);
    expect(await onWorker(control, call, `/users?page_size=100&page_number=${MAIN_THREAD_ROWS / 100 + 2}&order_direction=desc`)).toBe(false);
    const deep = { page_size: 100, page_number: MAIN_THREAD_ROWS / 100 + 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null } as const;
    const expected = store.users.list(tenant.id, deep);
    expect(expected.rows.length).toBe(100);
    const answered = (await call('GET', `/users?page_size=100&page_number=${deep.page_number}`)).json();
    expect({ total: answered.total, ids: answered.data.map((u: { id: number }) => u.id) }).toEqual({ total: expected.total, ids: expected.rows.map((u) => u.id) });
    // An Equal filter in id order: cold on a worker, then here, but deeper than MAIN_THREAD_ROWS.
    expect(await onWorker(control, call, '/users?filter_attribute=status&filter_value=0')).toBe(true);
    expect(await onWorker(control, call, '/users?filter_attribute=status&filter_value=0&page_number=2')).toBe(false);
    expect(await onWorker(control, call, `/users?filter_attribute=status&filter_value=0&page_size=100&page_number=${MAIN_THREAD_ROWS / 100 + 1}`)).toBe(true);
    // The customers' Equal walks (last_name, id, tenant, deleted_at), whose entries of a value are
    // every tenant's (migration 15): how many it steps over is not known, so it stays on a worker.
    expect(await onWorker(control, call, '/customers?filter_attribute=last_name&filter_value=Smith')).toBe(true);
    expect(await onWorker(control, call, '/customers?filter_attribute=last_name&filter_value=Smith&page_number=2')).toBe(true);
    // Lists whose page may read the whole tenant stay on workers, warm or not: a Contains (the
    // head-of-line case), another order, trashed rows, another operator.
    for (const path of [
      '/users?filter_attribute=last_name&filter_operator=Contains&filter_value=son',
      '/users?order_by=last_name',
      '/users?with_trashed=true',
      '/users?filter_attribute=status&filter_operator=NotEqual&filter_value=0',
    ]) {
      expect(await onWorker(control, call, path), `${path} cold`).toBe(true);
      expect(await onWorker(control, call, path), `${path} warm`).toBe(true);
    }
    expect(control.sent.map((t) => t.op)).toContain('customers.list');
  });

  it(`a cold Equal filter of a tenant of at most ${MAIN_THREAD_COUNT_ROWS.toLocaleString('en')} rows is counted on the main thread and starts no worker; a larger tenant's goes to a worker`, async () => {
    // The rule as docs/local-server.md ("Durability and concurrency") states it, with this number.
    const doc = readFileSync(new URL('../../docs/local-server.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain(`the tenant has at most ${MAIN_THREAD_COUNT_ROWS.toLocaleString('en')} rows in that table`);
    const { control, spawn } = recording();
    const { call, add, tenant } = setup(4, spawn, MAIN_THREAD_COUNT_ROWS);
    const status0 = '/users?filter_attribute=status&filter_value=0';
    const expected = store.users.list(tenant.id, { page_size: 15, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: { attribute: 'status', type: 'integer', operator: 'Equal', value: 0 } });
    const answer = await call('GET', status0);
    expect(answer.status, answer.body).toBe(200);
    expect(answer.json().total).toBe(expected.total);
    expect(answer.json().data.map((u: { id: number }) => u.id)).toEqual(expected.rows.map((u) => u.id));
    expect(await onWorker(control, call, '/users?filter_attribute=status&filter_value=1')).toBe(false);
    // Not bounded by a count: still on a worker, whatever the tenant's size. (The customers' Equal,
    // and the users' on a text attribute, count entries of every tenant's rows of the value,
    // migrations 15 and 17.)
    expect(control.started).toBe(0);
    expect(await onWorker(control, call, '/users?filter_attribute=last_name&filter_operator=Contains&filter_value=son')).toBe(true);
    expect(control.started).toBe(1);
    expect(await onWorker(control, call, '/customers?filter_attribute=last_name&filter_value=Turing')).toBe(true);
    expect(await onWorker(control, call, '/users?filter_attribute=last_name&filter_value=Turing')).toBe(true);
    const callHuge = add('huge.test', MAIN_THREAD_COUNT_ROWS + 1, 0);
    const sent = control.sent.length;
    expect(await onWorker(control, callHuge, status0)).toBe(true);
    expect(control.sent.slice(sent).map((t) => t.query.filter?.attribute)).toEqual(['status']);
  });

  it('a list sent after an acknowledged write sees it, its total too, on either thread', async () => {
    const { control, spawn } = recording();
    const { call, tenant, live } = setup(4, spawn);
    const byEmail = (email: string) => `/customers?filter_attribute=email&filter_value=${email}`;
    expect((await call('GET', '/customers')).json().total).toBe(live.customers);
    expect((await call('GET', byEmail('ada@example.com'))).json().total).toBe(0);
    const created = await call('POST', '/customers', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    expect(created.status, created.body).toBe(200);
    // Unfiltered, on the main thread: the row counter moved with the write.
    let sent = control.sent.length;
    const after = await call('GET', '/customers?order_direction=desc&page_size=1');
    expect(after.json().total).toBe(live.customers + 1);
    expect(after.json().data[0].email).toBe('ada@example.com');
    expect(control.sent.length).toBe(sent);
    // Filtered: the write moved the change token, the cached count is gone and runs again on a worker.
    const found = await call('GET', byEmail('ada@example.com'));
    expect(found.json()).toMatchObject({ total: 1, data: [{ email: 'ada@example.com' }] });
    expect(control.sent.length).toBe(sent + 1);
    // Another process's commit (an admin command beside serve) is seen by the next list on either thread.
    const admin = openStore(store.location);
    admin.customers.insert(tenant.id, { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
    admin.close();
    sent = control.sent.length;
    const seen = await call('GET', '/customers?order_direction=desc&page_size=1');
    expect(seen.json().total).toBe(live.customers + 2);
    expect(seen.json().data[0].email).toBe('grace@example.com');
    expect(control.sent.length).toBe(sent);
    expect((await call('GET', byEmail('grace@example.com'))).json()).toMatchObject({ total: 1, data: [{ email: 'grace@example.com' }] });
    expect(control.sent.length).toBe(sent + 1);
  });

  it("tenants stay apart on the main thread: one tenant's cached total is never another's", async () => {
    const { call, callSmall, live } = setup(4);
    expect((await call('GET', '/users')).json().total).toBe(live.users);
    const cached = (await call('GET', '/users')).json();
    expect(cached.total).toBe(live.users);
    const small = (await callSmall('GET', '/users')).json();
    expect(small.total).toBe(live.small);
    const ids = (page: { data: { id: number }[] }) => page.data.map((u) => u.id);
    expect(ids(small).filter((id) => ids(cached).includes(id))).toEqual([]);
    expect((await call('GET', '/users')).json().total).toBe(live.users);
  });

  /**
   * `npm run bench`'s list scenario against a listening server: 50 connections, each with 10
   * requests pipelined, all sent at once. Answers the statuses, in order per connection.
   */
  async function pipelined(port: number, request: string): Promise<number[]> {
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const socket = await connect(port);
        socket.setEncoding('latin1');
        return new Promise<number[]>((resolve, reject) => {
          let text = '';
          const got: number[] = [];
          socket.on('error', reject);
          socket.on('data', (chunk: string) => {
            text += chunk;
            // Each complete response: its status, then on to the next by its Content-Length.
            for (let end = text.indexOf('\r\n\r\n'); end !== -1; end = text.indexOf('\r\n\r\n')) {
              const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1]);
              if (text.length < end + 4 + length) break;
              got.push(Number(text.slice(9, 12)));
              text = text.slice(end + 4 + length);
            }
            if (got.length === 10) {
              socket.destroy();
              resolve(got);
            }
          });
          socket.write(request.repeat(10));
        });
      }),
    );
    return statuses.flat();
  }

  it("the benchmark's shape: 500 pipelined first pages at once all answer 200, of a small tenant cold, and of a large one once its filtered total is known", async () => {
    const { control, spawn } = recording();
    const { app, large, small } = setup(16, spawn);
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (app.server.address() as AddressInfo).port;
      const request = (host: string, { record, secret }: typeof large, query = '') =>
        `GET ${API}/users${query} HTTP/1.1\r\nHost: ${host}\r\nX-Access-Key-Id: ${record.id}\r\nX-Access-Key-Secret: ${secret}\r\n\r\n`;
      expect(await pipelined(port, request('small.test', small))).toEqual(Array(500).fill(200));
      // Unfiltered, the large tenant's total is its row counter: all on the main thread, cold too.
      expect(await pipelined(port, request('localhost', large))).toEqual(Array(500).fill(200));
      expect(control.sent).toEqual([]);
      // The bench's Equal filter: the first lists count on a worker; the 500 after them run on the main thread.
      const equal = '?filter_attribute=status&filter_value=0';
      const first = await pipelined(port, request('localhost', large, equal)).then(() => control.sent.length);
      expect(first).toBeGreaterThan(0);
      expect(await pipelined(port, request('localhost', large, equal))).toEqual(Array(500).fill(200));
      expect(control.sent.length).toBe(first);
    } finally {
      await new Promise((resolve) => app.server.close(resolve));
    }
  });

  it('past the bound a list is answered 503 with Retry-After at once; the reads admitted still answer', async () => {
    const { control, spawn } = recording();
    const { call } = setup(1, spawn);
    control.holding = true;
    const contains = '?filter_attribute=last_name&filter_operator=Contains&filter_value=';
    const answers = [call('GET', `/users${contains}son`), call('GET', `/customers${contains}son`), call('GET', `/users${contains}ber`)];
    // One worker busy and one read waiting: the third is refused without waiting for them.
    const refused = await Promise.race(answers);
    expect(refused.status).toBe(503);
    expect(refused.body).toBe('Service busy, try again.');
    expect(refused.headers['retry-after']).toBe('2');
    control.release();
    // The waiting read is posted to the worker once the first answered: hold no more.
    control.holding = false;
    const statuses = (await Promise.all(answers)).map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 503]);
  });

  it('a worker that dies is replaced; the list it was running gets 503, not a hang', async () => {
    const workers: Worker[] = [];
    const { call, live } = setup(4, (file) => {
      const worker = spawnReadWorker(file);
      // The first worker dies as its first read arrives.
      if (!workers.length) worker.postMessage = () => void worker.terminate();
      workers.push(worker);
      return worker;
    });
    const cold = '/users?order_by=last_name';
    const lost = await call('GET', cold);
    expect(lost.status).toBe(503);
    expect(lost.body).toBe('Service busy, try again.');
    expect(lost.headers['retry-after']).toBe('2');
    const next = await call('GET', cold);
    expect(next.status).toBe(200);
    expect(next.json().total).toBe(live.users);
    expect(workers).toHaveLength(2);
  });
});
