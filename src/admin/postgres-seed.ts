/**
 * `admin seed --database` and `serve --database --demo`: the seeders' steps (seed/bulk.ts,
 * seed/demo.ts) in one PostgreSQL transaction, under a lock named after the tenant so that two
 * seeds of one tenant take turns (bulk rows are numbered one after the other; a second demo
 * finds the first's marker user and adds nothing).
 */
import { inTransaction } from '../store/postgres/pool.js';
import { lockName } from '../store/postgres/units.js';
import { pgStepStore } from '../store/postgres/step-store.js';
import type { PgTarget } from './postgres-changes.js';
import { bulkSteps } from './seed/bulk.js';
import { type DemoSummary, demoSteps, writeDemoFiles } from './seed/demo.js';
import { runStepsAsync, type Steps } from './steps.js';

function seedTransaction<T>(target: PgTarget, tenantId: number, steps: Steps<T>): Promise<T> {
  return inTransaction(target.pool, async (tx) => {
    await lockName(tx, `seed:${tenantId}`);
    return runStepsAsync(pgStepStore(tx), steps);
  });
}

/** Bulk users and customers; then ANALYZE, so the planner knows the new rows before autovacuum does (as `admin copy` does). */
export async function seedBulkPg(target: PgTarget, tenantId: number, counts: { users: number; customers: number }): Promise<{ users: number; customers: number }> {
  const result = await seedTransaction(target, tenantId, bulkSteps(tenantId, counts));
  await target.pool.query('ANALYZE users, customers');
  return result;
}

/** The demo set into the tenant (skipped where it is), then its recording files into `mediaDir`, as `seedDemo` does on SQLite. */
export async function seedDemoPg(target: PgTarget, tenantId: number, options: { mediaDir: string }): Promise<DemoSummary> {
  const { summary, files } = await seedTransaction(target, tenantId, demoSteps(tenantId));
  writeDemoFiles(options.mediaDir, files);
  return summary;
}
