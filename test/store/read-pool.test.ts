import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { seedBulk } from '../../src/admin/seed/index.js';
import type { ListQuery } from '../../src/contract/list-query.js';
import { StoreBusy } from '../../src/store/index.js';
import { SMALL_TENANT_ROWS } from '../../src/store/sqlite/list-query.js';
import { atOnce } from '../at-once.js';
import { READ_POOL_DEFAULTS, ReadPool, spawnReadWorker, type ReadTask } from '../../src/store/sqlite/read-pool.js';
import { openStore } from '../../src/store/sqlite/index.js';
import { PRESTART_ROWS, withReadPool } from '../../src/store/sqlite/served.js';

let dir: string;
let pool: ReadPool;
afterEach(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const task = (tenantId: number): ReadTask => ({
  op: 'customers.list',
  tenantId,
  query: { page_size: 15, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null },
});

it("serve's pool (docs/local-server.md, Durability and concurrency): 2 lists run, 16 wait, the next is refused with Retry-After 1", async () => {
  expect(READ_POOL_DEFAULTS).toMatchObject({ workers: 2, queue: 16, retryAfterSeconds: 1 });
  dir = mkdtempSync(join(tmpdir(), 'confctl-read-pool-'));
  const store = openStore(join(dir, 'confctl.db'));
  const tenant = store.tenants.create('localhost');
  store.close();
  // The workers' reads are held until released: the pool sees them all running.
  const held: (() => void)[] = [];
  let holding = true;
  const spawn = (file: string) => {
    const worker = spawnReadWorker(file);
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message: unknown) => (holding ? void held.push(() => post(message)) : post(message));
    return worker;
  };
  pool = new ReadPool(join(dir, 'confctl.db'), { ...READ_POOL_DEFAULTS, spawn });
  const admitted = Array.from({ length: 18 }, () => pool.run(task(tenant.id)));
  const refused = await pool.run(task(tenant.id)).catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(StoreBusy);
  expect((refused as StoreBusy).retryAfterSeconds).toBe(1);
  expect(held).toHaveLength(2);
  // Released, every admitted read answers (the waiting ones go to the workers as they free up).
  holding = false;
  held.splice(0).forEach((post) => post());
  expect(await Promise.all(admitted)).toEqual(Array.from({ length: 18 }, () => ({ rows: [], total: 0 })));
});

it("a worker's total counted while a commit group waits to commit is not kept by the main thread", async () => {
  dir = mkdtempSync(join(tmpdir(), 'confctl-read-pool-'));
  const store = openStore(join(dir, 'confctl.db'));
  const tenant = store.tenants.create('localhost');
  atOnce(seedBulk(store, tenant.id, { users: SMALL_TENANT_ROWS + 1, customers: 0 }));
  // Filtered, so that its cold count runs on a worker (an unfiltered total is the row counter, read on the main thread).
  const query: ListQuery = { ...task(tenant.id).query, filter: { attribute: 'status', type: 'integer', operator: 'Equal', value: 0 } };
  const sent: ReadTask[] = [];
  const spawn = (file: string) => {
    const worker = spawnReadWorker(file);
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (t: ReadTask) => {
      sent.push(t);
      post(t);
    };
    return worker;
  };
  // A group's writes move the change token at once but reach a worker only at its COMMIT, which a
  // worker's read may precede: with a group open when the list is sent, its total is not kept.
  let groupOpen = true;
  const commits = { ...store.commits, settled: (mark: number) => (groupOpen ? new Promise<void>(() => undefined) : store.commits.settled(mark)) };
  // `countRows`: the tenant's cold count goes to a worker, as a tenant past MAIN_THREAD_COUNT_ROWS rows would.
  const served = withReadPool({ ...store, commits }, { ...READ_POOL_DEFAULTS, spawn, countRows: SMALL_TENANT_ROWS });
  pool = { close: () => served.close() } as ReadPool;
  const live = (await served.users.list(tenant.id, query)).total;
  expect(sent).toHaveLength(1);
  groupOpen = false;
  expect((await served.users.list(tenant.id, query)).total).toBe(live);
  expect(sent).toHaveLength(2);
  // Sent with no group open: the total is kept, and the next list stays on the main thread.
  expect((await served.users.list(tenant.id, query)).total).toBe(live);
  expect(sent).toHaveLength(2);
});

it('a worker starts with the pool when a tenant has more than prestartRows rows in a table, and the first list uses it; at or under that, the first list starts one', async () => {
  dir = mkdtempSync(join(tmpdir(), 'confctl-read-pool-'));
  const store = openStore(join(dir, 'confctl.db'));
  const tenant = store.tenants.create('localhost');
  const other = store.tenants.create('other.test');
  atOnce(seedBulk(store, tenant.id, { users: SMALL_TENANT_ROWS + 1, customers: 10 }));
  atOnce(seedBulk(store, other.id, { users: 5, customers: 20 }));
  const doc = readFileSync(new URL('../../docs/local-server.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  expect(doc).toContain(`The first worker starts with \`serve\` when a tenant has more than ${PRESTART_ROWS.toLocaleString('en')} rows`);
  // Every user of the tenant, deleted ones included (the bulk seed soft-deletes some).
  expect(store.largestTenantRows()).toBe(SMALL_TENANT_ROWS + 1);
  const query: ListQuery = { ...task(tenant.id).query, filter: { attribute: 'last_name', type: 'text', operator: 'Contains', value: 'son' } };
  const expected = store.users.list(tenant.id, query).total;
  store.close();
  // The database served (closing it closes the store), its worker starts counted.
  const served = (prestartRows: number) => {
    const control = { started: 0 };
    const spawn = (file: string) => {
      control.started++;
      return spawnReadWorker(file);
    };
    return { control, store: withReadPool(openStore(join(dir, 'confctl.db')), { ...READ_POOL_DEFAULTS, spawn, prestartRows }) };
  };

  const past = served(SMALL_TENANT_ROWS);
  pool = { close: () => past.store.close() } as ReadPool;
  expect(past.control.started).toBe(1);
  expect((await past.store.users.list(tenant.id, query)).total).toBe(expected);
  expect(past.control.started).toBe(1);
  await past.store.close();

  const atBound = served(SMALL_TENANT_ROWS + 1);
  pool = { close: () => atBound.store.close() } as ReadPool;
  expect(atBound.control.started).toBe(0);
  expect((await atBound.store.users.list(tenant.id, query)).total).toBe(expected);
  expect(atBound.control.started).toBe(1);
});
