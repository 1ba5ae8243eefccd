import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initFirstTenant } from '../../../src/local/init.js';
import { createServer } from '../../../src/server/index.js';
import { laneLists, LIST_LANE_DEFAULTS, type ListLaneOptions } from '../../../src/store/postgres/list-lane.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js';
import { createMigratedDatabase, type TestDatabase } from '../../pg/database.js';
import { connect } from './databases.js';

const API = '/api/public/v2.0';

/**
 * The list lane on a real database, through the server in process: lists held by a lock on the
 * customers table fill the lane (a test client holds `LOCK TABLE customers` in a transaction, so
 * they wait inside PostgreSQL, with no timing involved), while reads by id and writes on the main
 * pool are answered.
 */
describe('PostgreSQL list lane', () => {
  let db: TestDatabase;
  let store: PostgresStore;
  let locker: pg.Client | undefined;
  afterEach(async () => {
    await locker?.end();
    locker = undefined;
    await store.close();
    await db.drop();
  });

  it("serve's lane (docs/instances-and-postgresql.md): 2 lists at once (1 on a machine of 2 cores or fewer) and one more whose total is cached, on as many connections beside the 10 others, 16 waiting, Retry-After 1, statements cancelled after 30 s, planned for cached data, never JIT-compiled", async () => {
    expect([1, 2, 3, 4, 16].map((cores) => laneLists(cores))).toEqual([1, 1, 2, 2, 2]);
    const lists = laneLists(availableParallelism());
    expect(LIST_LANE_DEFAULTS).toEqual({ lists, quick: 1, queue: 16, retryAfterSeconds: 1, statementTimeoutMs: 30_000 });
    const doc = readFileSync(new URL('../../../docs/instances-and-postgresql.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain('at most 2 lists run at once (1 on a machine of 2 cores or fewer), and one more whose total is cached, and 16 wait');
    db = await createMigratedDatabase();
    store = await openPostgresStore(db.url);
    expect([store.pool.options.max, store.lists.pool.options.max]).toEqual([10, lists + 1]);
    const timeout = await store.lists.run((lane) => lane.query<{ statement_timeout: string }>('SHOW statement_timeout'));
    expect(timeout.rows[0].statement_timeout).toBe('30s');
    const cost = await store.lists.run((lane) => lane.query<{ random_page_cost: string }>('SHOW random_page_cost'));
    expect(cost.rows[0].random_page_cost).toBe('1.1');
    const jit = await store.lists.run((lane) => lane.query<{ jit: string }>('SHOW jit'));
    expect(jit.rows[0].jit).toBe('off');
    expect((await store.pool.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0].statement_timeout).toBe('0');
  });

  async function setup(lane: Partial<ListLaneOptions>) {
    db = await createMigratedDatabase();
    store = await openPostgresStore(db.url, { lists: { lists: 1, quick: 0, queue: 1, retryAfterSeconds: 3, statementTimeoutMs: 30_000, ...lane } });
    const { key, tenant } = (await initFirstTenant(store))!;
    const user = await store.users.insert(tenant.id, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    await store.customers.insert(tenant.id, { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
    const app = createServer({ store, signingSecret: 's', mediaDir: '/nonexistent', rateLimit: null });
    const headers = { 'x-access-key-id': key.id, 'x-access-key-secret': key.secret };
    const call = (method: string, path: string, body?: unknown) => app.request({ method, path: API + path, headers, body });
    return { user, tenant, call, app, key };
  }

  /** Holds an ACCESS EXCLUSIVE lock on customers until `release()`: every statement reading them waits. */
  async function lockCustomers() {
    locker = await connect(db.url);
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE customers IN ACCESS EXCLUSIVE MODE');
    const client = locker;
    return { release: () => client.query('COMMIT') };
  }

  /** Resolves once `n` statements of the lane's pool wait for a lock. */
  async function waitingOnLock(n: number) {
    const watcher = await connect(db.url);
    try {
      for (;;) {
        const { rows } = await watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
        if (rows[0].n >= n) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await watcher.end();
    }
  }

  it('answers reads by id and writes while the lane is full, refuses one list more with 503 and Retry-After, then answers the held lists', async () => {
    const { user, call } = await setup({});
    const lock = await lockCustomers();
    // One list runs (its count waits for the lock); then one waits for its place (queued at once,
    // as the call is made).
    const running = call('GET', '/customers');
    await waitingOnLock(1);
    const waiting = store.lists.run((lane) => lane.query<{ n: number }>('SELECT count(*) AS n FROM customers'));

    const byId = await call('GET', `/users/${user.id}`);
    expect(byId.status).toBe(200);
    expect(byId.json().data.email).toBe('ada@example.com');
    const week = { sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
    const alan = { department_id: null, first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', timezone: 'UTC', work_hours: week, role: 'Member', activate: true, is_silent: true };
    const created = await call('POST', '/users', alan);
    expect(created.status, created.body).toBe(200);

    // The lane is shared by every list: one of users is refused too, at once.
    const refused = await call('GET', '/users');
    expect(refused.status).toBe(503);
    expect(refused.body).toBe('Service busy, try again.');
    expect(refused.headers['retry-after']).toBe('3');

    await lock.release();
    const answered = await running;
    expect(answered.status).toBe(200);
    expect(answered.json().total).toBe(1);
    expect((await waiting).rows[0].n).toBe(1);
    // Its places free again, the lane answers lists, the new user counted.
    const users = await call('GET', '/users');
    expect(users.status).toBe(200);
    expect(users.json().data.map((u: { email: string }) => u.email)).toEqual(['ada@example.com', 'alan@example.com']);
    expect(users.json().total).toBe(2);
  });

  it('reads identical lists asked for in one turn once, on one connection of the lane', async () => {
    const { tenant } = await setup({ lists: 2 });
    let acquired = 0;
    store.lists.pool.on('acquire', () => acquired++);
    const query = { page_size: 15, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null } as const;
    const [one, two, other] = await Promise.all([store.users.list(tenant.id, query), store.users.list(tenant.id, query), store.users.list(tenant.id, { ...query, page_size: 1 })]);
    expect(one).toEqual(two);
    expect(one.rows.map((u) => u.email)).toEqual(['ada@example.com']);
    expect(other.total).toBe(1);
    expect(acquired).toBe(2);
  });

  it('lets identical lists asked for while one waits join it, so a flood of one list takes one place in the queue', async () => {
    const { call } = await setup({});
    const lock = await lockCustomers();
    const running = call('GET', '/customers');
    await waitingOnLock(1);
    // The same list asked for once it waits for the place (the queue of 1 is full): it joins.
    const same = [call('GET', '/customers?page_size=1')];
    while (store.lists.waitingLists < 1) await new Promise((resolve) => setImmediate(resolve));
    same.push(call('GET', '/customers?page_size=1'), call('GET', '/customers?page_size=1'));
    // Another list is refused: the queue is still full.
    expect((await call('GET', '/customers?page_size=2')).status).toBe(503);
    expect(store.lists.waitingLists).toBe(1);
    await lock.release();
    const answers = await Promise.all([running, ...same]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.json().total)).toEqual([1, 1, 1, 1]);
  });

  it('writes the answers of a joined list from the bytes they share, each with its Content-Length, over real sockets', async () => {
    const { tenant, app, key } = await setup({});
    await store.customers.insert(tenant.id, { first_name: 'Zoë', last_name: 'Ørsted', email: 'zoe@example.com' });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    const ends = vi.spyOn(http.ServerResponse.prototype, 'end');
    try {
      const { port } = app.server.address() as AddressInfo;
      const get = () => fetch(`http://127.0.0.1:${port}${API}/customers?page_size=5`, { headers: { 'x-access-key-id': key.id, 'x-access-key-secret': key.secret } });
      const lock = await lockCustomers();
      const running = get();
      await waitingOnLock(1);
      const same = [get()];
      while (store.lists.waitingLists < 1) await new Promise((resolve) => setTimeout(resolve, 5));
      same.push(get(), get());
      await lock.release();
      const answers = await Promise.all([running, ...same]);
      const texts = await Promise.all(answers.map((a) => a.text()));
      for (const [i, a] of answers.entries()) {
        expect(a.status).toBe(200);
        expect(a.headers.get('content-length')).toBe(String(Buffer.byteLength(texts[i])));
      }
      expect(new Set(texts.slice(1)).size).toBe(1);
      expect(JSON.parse(texts[1]).data.map((c: { first_name: string }) => c.first_name)).toEqual(['Grace', 'Zoë']);
      expect(ends.mock.calls.filter(([body]) => Buffer.isBuffer(body)).length).toBeGreaterThanOrEqual(1);
    } finally {
      ends.mockRestore();
      await new Promise((resolve) => app.server.close(resolve));
    }
  });

  it('answers the askers of a joined list 256 per turn of the event loop: those past the first 256 a turn later per 256', async () => {
    const { tenant } = await setup({ queue: 2 });
    const query = { page_size: 15, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null } as const;
    const lock = await lockCustomers();
    const running = store.customers.list(tenant.id, { ...query, page_size: 2 });
    await waitingOnLock(1);
    const answered: number[] = [];
    // How many were answered when the event loop next turned after the first answer.
    let answeredByNextTurn: number | undefined;
    const ask = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        Promise.resolve(store.customers.list(tenant.id, query)).then((page) => {
          if (!answered.length) setImmediate(() => (answeredByNextTurn = answered.length));
          answered.push(from + i);
          return page;
        }),
      );
    // One turn's askers wait for a place together; two later turns' join them.
    const first = ask(0, 300);
    while (store.lists.waitingLists < 1) await new Promise((resolve) => setImmediate(resolve));
    const second = ask(300, 10);
    await new Promise((resolve) => setImmediate(resolve));
    const third = ask(310, 250);
    await new Promise((resolve) => setImmediate(resolve));
    await lock.release();
    const pages = await Promise.all([running, ...first, ...second, ...third]);
    expect(new Set(pages.slice(1)).size).toBe(1);
    expect(pages[1]).toMatchObject({ total: 1 });
    // The 300 that asked first at once; the others, joined at 300 and at 310 askers, a turn later.
    expect(answered.slice(0, 300)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(new Set(answered.slice(300))).toEqual(new Set(Array.from({ length: 260 }, (_, i) => 300 + i)));
    expect(answeredByNextTurn).toBe(300);
    const doc = readFileSync(new URL('../../../docs/instances-and-postgresql.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain('the askers that joined past its first 256 get the answer one turn of the event loop later per 256');
  });

  it('answers a list whose total is cached in the quick place while the lane is full; once a write moved its table, it waits for a place', async () => {
    const { call } = await setup({ quick: 1 });
    expect((await call('GET', '/users')).json().total).toBe(1);
    const lock = await lockCustomers();
    const running = call('GET', '/customers');
    await waitingOnLock(1);
    const quick = await call('GET', '/users');
    expect(quick.status).toBe(200);
    expect([quick.json().total, store.lists.waitingLists]).toEqual([1, 0]);
    const week = { sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
    const alan = { department_id: null, first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', timezone: 'UTC', work_hours: week, role: 'Member', activate: true, is_silent: true };
    expect((await call('POST', '/users', alan)).status).toBe(200);
    // Its cached total is no longer current: the list needs a count, and waits for the lane's place.
    const counted = call('GET', '/users');
    while (store.lists.waitingLists < 1) await new Promise((resolve) => setImmediate(resolve));
    await lock.release();
    const answers = await Promise.all([running, counted]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.json().total)).toEqual([1, 2]);
    expect(answers[1].json().data.map((u: { email: string }) => u.email)).toEqual(['ada@example.com', 'alan@example.com']);
  });

  it('refuses a list whose statement runs past the lane\'s statement timeout with 503, and keeps answering', async () => {
    const { user, call } = await setup({ statementTimeoutMs: 100 });
    const lock = await lockCustomers();
    const timedOut = await call('GET', '/customers');
    expect(timedOut.status).toBe(503);
    expect(timedOut.headers['retry-after']).toBe('3');
    expect((await call('GET', `/users/${user.id}`)).status).toBe(200);
    await lock.release();
    const after = await call('GET', '/customers');
    expect(after.status).toBe(200);
    expect(after.json().total).toBe(1);
  });
});
