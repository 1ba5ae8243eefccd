import { afterEach, describe, expect, it } from 'vitest';
import { parseFaultRule } from '../../src/contract/faults.js';
import { initFirstTenant } from '../../src/local/init.js';
import { createServer } from '../../src/server/index.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { createMigratedDatabase, type TestDatabase } from '../pg/database.js';

/**
 * Injected faults on PostgreSQL, in process: what a request costs the database without rules
 * (the rules' token is read with the tenancy token, in one statement), and the rules one instance
 * adds reaching another's next request.
 */
describe('injected faults on PostgreSQL', () => {
  let db: TestDatabase;
  const stores: PostgresStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    await db.drop();
  });

  async function instance() {
    const store = await openPostgresStore(db.url);
    stores.push(store);
    const statements: string[] = [];
    const query = store.pool.query.bind(store.pool) as (...args: unknown[]) => unknown;
    (store.pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      statements.push(String(typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text));
      return query(...args);
    };
    const app = createServer({ store, signingSecret: 's', mediaDir: '/nonexistent', rateLimit: null });
    return { store, app, statements };
  }

  it('reads the change counters once per request, and the rules only when they changed', async () => {
    db = await createMigratedDatabase();
    const a = await instance();
    const b = await instance();
    const { key } = (await initFirstTenant(a.store))!;
    const headers = { 'x-access-key-id': key.id, 'x-access-key-secret': key.secret };
    // A read by id (a list also reads the counters for its total).
    const get = (app: typeof a.app) => app.request({ method: 'GET', path: '/api/public/v2.0/customers/1', headers });
    expect((await get(a.app)).status).toBe(404);
    a.statements.length = 0;
    expect((await get(a.app)).status).toBe(404);
    const counters = (s: string[]) => s.filter((q) => q.includes('FROM confctl_changes')).length;
    const ruleReads = (s: string[]) => s.filter((q) => q.includes('FROM fault_rules')).length;
    expect([counters(a.statements), ruleReads(a.statements)]).toEqual([1, 0]);

    const parsed = parseFaultRule({ route: 'GET /customers/{customer_id}', status: '503', times: '1' });
    if (!('rule' in parsed)) throw new Error('refused');
    const rule = await b.store.faults.add({ ...parsed.rule, tenant_id: null });
    a.statements.length = 0;
    const faulted = await get(a.app);
    expect([faulted.status, faulted.headers['x-confctl-fault']]).toEqual([503, String(rule.id)]);
    expect([counters(a.statements), ruleReads(a.statements)]).toEqual([1, 1]);
    expect((await get(b.app)).status).toBe(404);
    expect(await a.store.faults.get(rule.id)).toMatchObject({ matched: 1, remaining: 0 });
  });
});
