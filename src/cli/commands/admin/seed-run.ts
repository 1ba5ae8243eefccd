/** The action of `confctl admin seed`, on a data directory or with `--database` on PostgreSQL. */
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import { hasDemoData } from '../../../admin/seed/demo.js';
import { seedBulk, seedDemo } from '../../../admin/seed/index.js';
import { initFirstTenant } from '../../../local/init.js';
import type { TenantRecord } from '../../../store/types.js';
import { CliError, EXIT, UsageError } from '../../context.js';
import type { Row } from '../../output/index.js';
import { plan, print, wholeNumber } from './local.js';
import { seedPlan } from './setup.js';
import { withStore } from './store.js';

export type SeedOptions = AdminCommon & { tenant?: string; demo?: boolean; users?: string; customers?: string };

/** `--demo`, `--users N`, `--customers N`: what `admin seed` was asked to add, or exit 2. */
export function seedRequest(options: SeedOptions): { demo: boolean; users: number; customers: number } {
  if (!options.demo && options.users === undefined && options.customers === undefined) {
    throw new UsageError('say what to seed: --demo, or --users N and/or --customers N');
  }
  const users = options.users === undefined ? 0 : wholeNumber('--users', options.users);
  const customers = options.customers === undefined ? 0 : wholeNumber('--customers', options.customers);
  return { demo: Boolean(options.demo), users, customers };
}

/**
 * The seeders (src/admin/seed/) into the tenant: the demo set where the tenant lacks it (skipped
 * where it has it), then bulk users and customers. Into a PostgreSQL database without a tenant,
 * `--demo` first creates the tenant localhost and an all-permissions key as `serve --database
 * --demo` does, printing its secret once.
 */
export async function seed(options: SeedOptions, ctx: CliContext): Promise<void> {
  const what = seedRequest(options);
  const dryRun = options.globals.dryRun;
  const bulk = what.users > 0 || what.customers > 0;
  await withStore(ctx, options.store, true, async ({ store, tenantOf, mediaDir }) => {
    let tenant: TenantRecord;
    let created: Row = {};
    if (what.demo && !options.tenant && store.backend === 'postgres' && (await store.tenants.list()).length === 0) {
      if (dryRun) {
        const more = bulk ? `, then add ${what.users} generated users and ${what.customers} generated customers to it` : '';
        return plan(ctx, [`would create tenant localhost with the demo data set and an all-permissions key 'admin' (its secret printed once)${more}`]);
      }
      const first = await initFirstTenant(store);
      if (!first) throw new CliError('another writer filled the database meanwhile: the demo data set was not added', EXIT.conflict);
      tenant = first.tenant;
      created = { key_id: first.key.id, secret: first.key.secret };
    } else {
      tenant = await tenantOf(options);
      if (dryRun) return plan(ctx, seedPlan(tenant, what, await hasDemoData(store, tenant.id)));
    }
    const result: Row = { tenant: tenant.primary_domain };
    if (what.demo) result.demo = await seedDemo(store, tenant.id, { mediaDir });
    Object.assign(result, created);
    if (bulk) Object.assign(result, await seedBulk(store, tenant.id, { users: what.users, customers: what.customers }));
    await store.optimize?.();
    await print(ctx, options.globals, result);
  });
}
