/**
 * `admin seed --database` and `serve --database --demo`: the seeders' steps (seed/bulk.ts,
 * seed/demo.ts) in one PostgreSQL transaction, under a lock named after the tenant so that two
 * seeds of one tenant take turns (bulk rows are numbered one after the other; a second demo
 * finds the first's marker user and adds nothing).
 */
import type { PostgresStore } from '../store/postgres/index.js';
import { bulkSteps } from './seed/bulk.js';
import { type DemoSummary, demoSteps, writeDemoFiles } from './seed/demo.js';
import type { Steps } from './steps.js';

const seedTransaction = <T>(target: PostgresStore, tenantId: number, steps: Steps<T>) => target.atomic(steps, { locks: [`seed:${tenantId}`] });

/** Bulk users and customers; then ANALYZE, so the planner knows the new rows before autovacuum does (as `admin copy` does). */
export async function seedBulkPg(target: PostgresStore, tenantId: number, counts: { users: number; customers: number }): Promise<{ users: number; customers: number }> {
  const result = await seedTransaction(target, tenantId, bulkSteps(tenantId, counts));
  await target.pool.query('ANALYZE users, customers');
  return result;
}

/** The demo set into the tenant (skipped where it is), then its recording files into `mediaDir`, as `seedDemo` does on SQLite. */
export async function seedDemoPg(target: PostgresStore, tenantId: number, options: { mediaDir: string }): Promise<DemoSummary> {
  const { summary, files } = await seedTransaction(target, tenantId, demoSteps(tenantId));
  writeDemoFiles(options.mediaDir, files);
  return summary;
}
