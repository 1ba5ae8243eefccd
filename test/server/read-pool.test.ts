import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureDefaultRoles } from '../../src/admin/seed/index.js';
import { createServer } from '../../src/server/index.js';
import { withReadPool } from '../../src/store/index.js';
import type { DataStore } from '../../src/store/port.js';
import { spawnReadWorker } from '../../src/store/sqlite/read-pool.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

const API = '/api/public/v2.0';

/**
 * `serve`'s SQLite store with its lists on read workers (one worker here): what a request sees,
 * and how the bounded pool answers a flood and a worker that dies. `spawn` wraps the real
 * worker's start, so a test can count the reads sent to workers, hold them, or stop a worker.
 */
describe('lists on read workers', () => {
  let dir: string;
  let store: SqliteStore;
  let served: DataStore;
  afterEach(async () => {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function setup(queue: number, spawn: (file: string) => Worker = spawnReadWorker) {
    dir = mkdtempSync(join(tmpdir(), 'confctl-read-pool-'));
    store = openStore(join(dir, 'confctl.db'));
    const tenant = store.tenants.create('localhost');
    atOnce(ensureDefaultRoles(store, tenant.id));
    const { record, secret } = store.keys.create({ tenant_id: tenant.id, name: 't', permissions: ['*'] });
    served = withReadPool(store, { workers: 1, queue, retryAfterSeconds: 2, spawn });
    const app = createServer({ store: served, signingSecret: 's', mediaDir: dir, rateLimit: null });
    const call = (method: string, path: string, body?: unknown) =>
      app.request({ method, path: API + path, headers: { 'x-access-key-id': record.id, 'x-access-key-secret': secret }, body });
    return { tenant, call };
  }

  /** A spawn whose workers' reads are counted, and held until `release()` while `holding`. */
  function recording() {
    const sent: unknown[] = [];
    const held: (() => void)[] = [];
    const control = { sent, holding: false, release: () => held.splice(0).forEach((post) => post()) };
    const spawn = (file: string) => {
      const worker = spawnReadWorker(file);
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (task: unknown) => {
        sent.push(task);
        if (control.holding) held.push(() => post(task));
        else post(task);
      };
      return worker;
    };
    return { control, spawn };
  }

  it('a list sent after an acknowledged write sees it, its total too, though the worker had counted before', async () => {
    const { control, spawn } = recording();
    const { call, tenant } = setup(4, spawn);
    const before = await call('GET', '/customers?filter_attribute=last_name&filter_value=lovelace');
    expect(before.status).toBe(200);
    expect(before.json().total).toBe(0);
    const created = await call('POST', '/customers', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    expect(created.status, created.body).toBe(200);
    const after = await call('GET', '/customers?filter_attribute=last_name&filter_value=lovelace');
    expect(after.status).toBe(200);
    expect(after.json().total).toBe(1);
    expect(after.json().data.map((c: { email: string }) => c.email)).toEqual(['ada@example.com']);
    // Another process's commit (an admin command beside serve) is seen by the next list.
    const admin = openStore(store.location);
    admin.users.insert(tenant.id, { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
    admin.close();
    const users = await call('GET', '/users');
    expect(users.json().total).toBe(1);
    expect(users.json().data[0].email).toBe('grace@example.com');
    // Every list ran on the worker.
    expect(control.sent.map((t) => (t as { op: string }).op)).toEqual(['customers.list', 'customers.list', 'users.listJson']);
  });

  it('past the bound a list is answered 503 with Retry-After at once; the reads admitted still answer', async () => {
    const { control, spawn } = recording();
    const { call } = setup(1, spawn);
    control.holding = true;
    const answers = [call('GET', '/users'), call('GET', '/customers'), call('GET', '/users?page_number=2')];
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
    const { call } = setup(4, (file) => {
      const worker = spawnReadWorker(file);
      // The first worker dies as its first read arrives.
      if (!workers.length) worker.postMessage = () => void worker.terminate();
      workers.push(worker);
      return worker;
    });
    const lost = await call('GET', '/users');
    expect(lost.status).toBe(503);
    expect(lost.body).toBe('Service busy, try again.');
    expect(lost.headers['retry-after']).toBe('2');
    const next = await call('GET', '/users');
    expect(next.status).toBe(200);
    expect(next.json().total).toBe(0);
    expect(workers).toHaveLength(2);
  });
});
