/** The action of `confctl admin seed`, on a data directory or with `--database` on PostgreSQL (store-postgres.ts). */
import { hasDemoData } from '../../../admin/seed/demo.js';
import { seedBulk, seedDemo } from '../../../admin/seed/index.js';
import { UsageError } from '../../context.js';
import type { Row } from '../../output/index.js';
import { type AdminDeps, databaseUrl, isDryRun, plan, print, tenantOf, wholeNumber, withLocal } from './local.js';
import { seedPlan } from './setup.js';

export type SeedOptions = { tenant?: string; demo?: boolean; users?: string; customers?: string };

/** `--demo`, `--users N`, `--customers N`: what `admin seed` was asked to add, or exit 2. */
export function seedRequest(options: SeedOptions): { demo: boolean; users: number; customers: number } {
  if (!options.demo && options.users === undefined && options.customers === undefined) {
    throw new UsageError('say what to seed: --demo, or --users N and/or --customers N');
  }
  const users = options.users === undefined ? 0 : wholeNumber('--users', options.users);
  const customers = options.customers === undefined ? 0 : wholeNumber('--customers', options.customers);
  return { demo: Boolean(options.demo), users, customers };
}

export async function seed(options: SeedOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await import('./store-postgres.js')).seedDatabase(ctx, cmd, url, seedRequest(options));
  await withLocal(ctx, cmd, async (local) => {
    const what = seedRequest(options);
    const tenant = await tenantOf(local, options);
    if (isDryRun(cmd)) return plan(ctx, seedPlan(tenant, what, await hasDemoData(local.store, tenant.id)));
    const result: Row = { tenant: tenant.primary_domain };
    if (what.demo) result.demo = await seedDemo(local.store, tenant.id, { mediaDir: local.layout.mediaDir });
    if (what.users || what.customers) Object.assign(result, await seedBulk(local.store, tenant.id, { users: what.users, customers: what.customers }));
    local.store.optimize();
    await print(ctx, cmd, result);
  });
}
