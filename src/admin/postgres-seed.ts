/**
 * `admin seed --users N --customers N --database`: the bulk seeder's steps (seed/bulk.ts) in one
 * PostgreSQL transaction, under a lock named after the tenant so that two seeds of one tenant
 * number their rows one after the other; then ANALYZE, so the planner knows the new rows before
 * autovacuum does (as `admin copy` does).
 */
import { inTransaction } from '../store/postgres/pool.js';
import { lockName } from '../store/postgres/units.js';
import { pgStepStore } from './postgres-import.js';
import type { PgTarget } from './postgres-changes.js';
import { bulkSteps } from './seed/bulk.js';
import { runStepsAsync } from './steps.js';

export async function seedBulkPg(target: PgTarget, tenantId: number, counts: { users: number; customers: number }): Promise<{ users: number; customers: number }> {
  const result = await inTransaction(target.pool, async (tx) => {
    await lockName(tx, `seed.bulk:${tenantId}`);
    return runStepsAsync(pgStepStore(tx), bulkSteps(tenantId, counts));
  });
  await target.pool.query('ANALYZE users, customers');
  return result;
}
