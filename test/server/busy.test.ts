import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { BUSY_RETRY_BUDGET_MS, retryBusy } from '../../src/server/busy.js';
import { createServer } from '../../src/server/index.js';
import { ensureDefaultRoles } from '../../src/admin/seed/index.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

const API = '/api/public/v2.0';

/**
 * A write that meets another process's write lock: a raw connection holding `BEGIN IMMEDIATE`
 * stands for an admin command or a second `serve` in the middle of a transaction.
 */
describe('a busy database while serving', () => {
  let dir: string;
  let store: SqliteStore;
  let holder: Database.Database;
  afterEach(() => {
    if (holder.inTransaction) holder.exec('ROLLBACK');
    holder.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function setup(now?: () => number) {
    dir = mkdtempSync(join(tmpdir(), 'confctl-busy-'));
    store = openStore(join(dir, 'confctl.db'));
    const tenant = store.tenants.create('localhost');
    atOnce(ensureDefaultRoles(store, tenant.id));
    const { record, secret } = store.keys.create({ tenant_id: tenant.id, name: 't', permissions: ['*'] });
    const app = createServer({ store, signingSecret: 's', mediaDir: dir, rateLimit: null, now });
    holder = new Database(join(dir, 'confctl.db'));
    const post = (email: string) =>
      app.request({
        method: 'POST',
        path: `${API}/customers`,
        headers: { 'x-access-key-id': record.id, 'x-access-key-secret': secret },
        body: { first_name: 'Ada', last_name: 'L', email },
      });
    const stored = (email: string) => store.customers.emailTaken(tenant.id, email);
    return { post, stored };
  }

  it('retries the write asynchronously and succeeds once the lock is released', async () => {
    const { post, stored } = setup();
    holder.exec('BEGIN IMMEDIATE');
    const answer = post('waited@example.com');
    // The event loop stays free while the request waits: this timer runs, then releases the lock.
    await new Promise((done) => setTimeout(done, 100));
    expect(stored('waited@example.com')).toBe(false);
    holder.exec('COMMIT');
    const r = await answer;
    expect(r.status).toBe(200);
    expect(r.json().data.email).toBe('waited@example.com');
    expect(stored('waited@example.com')).toBe(true);
  });

  it('answers 503 "Service busy, try again." with Retry-After past the budget, having written nothing', async () => {
    // A clock that jumps a second at every reading: the budget runs out after a few attempts.
    let clock = Date.UTC(2026, 0, 1);
    const { post, stored } = setup(() => (clock += 1000));
    holder.exec('BEGIN IMMEDIATE');
    const r = await post('refused@example.com');
    expect(r.status).toBe(503);
    expect(r.body).toBe('Service busy, try again.');
    expect(r.headers['retry-after']).toBe('1');
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    holder.exec('COMMIT');
    expect(stored('refused@example.com')).toBe(false);
  });

  it('sets a short busy timeout on the served store, so one attempt blocks the event loop briefly', () => {
    setup();
    holder.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    expect(() => store.transaction(() => store.tenants.list())).toThrow(/locked/);
    // 20 ms of SQLite's busy wait; the bound leaves a busy machine a wide margin below 5 s.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('retryBusy', () => {
  const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

  it('pauses 10 ms doubling to 250 ms between attempts, then gives up with 503 at the budget', async () => {
    let clock = 0;
    const pauses: number[] = [];
    let attempts = 0;
    const err = await retryBusy(
      () => {
        attempts++;
        throw busy();
      },
      () => clock,
      async (ms) => {
        pauses.push(ms);
        clock += ms;
      },
    ).catch((e) => e);
    expect(err).toMatchObject({ status: 503, message: 'Service busy, try again.', headers: { 'Retry-After': '1' } });
    expect(pauses.slice(0, 7)).toEqual([10, 20, 40, 80, 160, 250, 250]);
    // The budget is 10 s: the pauses add up to just under it.
    expect(BUSY_RETRY_BUDGET_MS).toBe(10_000);
    expect(pauses.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000);
    expect(pauses.reduce((a, b) => a + b, 0)).toBeGreaterThan(10_000 - 250);
    expect(attempts).toBe(pauses.length + 1);
  });

  it('passes other errors through at once', async () => {
    const boom = new Error('boom');
    await expect(retryBusy(() => { throw boom; }, () => 0, async () => {})).rejects.toBe(boom);
  });
});
