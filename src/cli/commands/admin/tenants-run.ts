/** The actions of `confctl admin tenants add|list`, on a data directory or with `--database` on PostgreSQL. */
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import { DomainInUse } from '../../../admin/errors.js';
import { createTenant } from '../../../local/init.js';
import { UniqueViolation } from '../../../store/util.js';
import { plan, print, printList } from './local.js';
import { aliasText, tenantRow } from './setup.js';
import { withStore } from './store.js';

export type TenantsListOptions = AdminCommon;
export type TenantsAddOptions = AdminCommon & { domain: string; aliases: string[] };

/** A domain in use (`DomainInUse`) creates nothing; src/cli/errors.ts says it as exit 5. */
export async function tenantsAdd(options: TenantsAddOptions, ctx: CliContext): Promise<void> {
  const domains = [options.domain, ...options.aliases].map((d) => d.toLowerCase());
  await withStore(ctx, options.store, true, async ({ store }) => {
    const taken = (await Promise.all(domains.map(async (d) => ((await store.tenants.byDomain(d)) ? d : undefined)))).filter((d) => d !== undefined);
    if (taken.length) throw new DomainInUse(taken);
    if (options.globals.dryRun) return plan(ctx, [`would create tenant ${domains[0]}${aliasText(domains.slice(1))} with roles Admin, Manager, Member`]);
    const tenant = await Promise.resolve(createTenant(store, domains[0], domains.slice(1))).catch((err: unknown) => {
      // Another writer took one of the domains since the check above (PostgreSQL's unique violation).
      throw err instanceof UniqueViolation ? new DomainInUse(domains) : err;
    });
    await print(ctx, options.globals, tenantRow(tenant));
  });
}

export async function tenantsList(options: TenantsListOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, false, async ({ store }) => printList(ctx, options.globals, (await store.tenants.list()).map(tenantRow), ['id', 'primary_domain', 'aliases', 'created_at']));
}
