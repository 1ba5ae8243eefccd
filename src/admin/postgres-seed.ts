/**
 * `admin seed --database` and `serve --database --demo`: the seeders (seed/bulk.ts,
 * seed/demo.ts) in one PostgreSQL transaction, under a lock named after the tenant so that two
 * seeds of one tenant take turns (bulk rows are numbered one after the other; a second demo
 * finds the first's marker user and adds nothing).
 */
import type { PoolClient } from 'pg';
import { pgBulkInsert } from '../store/postgres/bulk.js';
import type { PostgresStore } from '../store/postgres/index.js';
import { inTransaction } from '../store/postgres/pool.js';
import { pgStepStore } from '../store/postgres/step-store.js';
import { lockName } from '../store/postgres/units.js';
import { bulkCustomers, bulkDraws, bulkPlanSteps, bulkUsers } from './seed/bulk.js';
import { type DemoSummary, demoSteps, writeDemoFiles } from './seed/demo.js';
import { runStepsAsync } from './steps.js';

function seedTransaction<T>(target: PostgresStore, tenantId: number, work: (tx: PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(target.pool, async (tx) => {
    await lockName(tx, `seed:${tenantId}`);
    return work(tx);
  });
}

/**
 * Bulk users and customers: the rows `seedBulk` stores on SQLite, in batches (store/postgres/bulk.ts);
 * then ANALYZE, so the planner knows the new rows before autovacuum does (as `admin copy` does).
 */
export async function seedBulkPg(target: PostgresStore, tenantId: number, counts: { users: number; customers: number }): Promise<{ users: number; customers: number }> {
  await seedTransaction(target, tenantId, async (tx) => {
    const plan = await runStepsAsync(pgStepStore(tx), bulkPlanSteps(tenantId));
    const rnd = bulkDraws(tenantId);
    await pgBulkInsert(tx, 'users', tenantId, counts.users, bulkUsers(rnd, plan, counts.users));
    await pgBulkInsert(tx, 'customers', tenantId, counts.customers, bulkCustomers(rnd, plan, counts.customers));
  });
  await target.pool.query('ANALYZE users, customers');
  return { users: counts.users, customers: counts.customers };
}

/** The demo set into the tenant (skipped where it is), then its recording files into `mediaDir`, as `seedDemo` does on SQLite. */
export async function seedDemoPg(target: PostgresStore, tenantId: number, options: { mediaDir: string }): Promise<DemoSummary> {
  const { summary, files } = await target.atomic(demoSteps(tenantId), { locks: [`seed:${tenantId}`] });
  writeDemoFiles(options.mediaDir, files);
  return summary;
}
