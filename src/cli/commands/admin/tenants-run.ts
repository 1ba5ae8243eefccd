/** The actions of `confctl admin tenants add|list`, on a data directory or with `--database` on PostgreSQL. */
import { createTenant } from '../../../local/init.js';
import { CliError, EXIT } from '../../context.js';
import { type AdminDeps, isDryRun, type NoOptions, plan, print, printList } from './local.js';
import { aliasText, tenantRow } from './setup.js';
import { storeFlags, withStore } from './store.js';

export type TenantsAddOptions = { domain: string; aliases: string[] };

export async function tenantsAdd(options: TenantsAddOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  const domains = [options.domain, ...options.aliases].map((d) => d.toLowerCase());
  await withStore(ctx, storeFlags(cmd), true, async ({ store }) => {
    const taken = (await Promise.all(domains.map(async (d) => ((await store.tenants.byDomain(d)) ? d : undefined)))).filter((d) => d !== undefined);
    if (taken.length) throw new CliError(`domain already in use: ${taken.join(', ')}`, EXIT.conflict);
    if (isDryRun(cmd)) return plan(ctx, [`would create tenant ${domains[0]}${aliasText(domains.slice(1))} with roles Admin, Manager, Member`]);
    const tenant = await Promise.resolve(createTenant(store, domains[0], domains.slice(1))).catch((err: unknown) => {
      // Another writer took one of the domains since the check above (PostgreSQL's unique_violation).
      if ((err as { code?: string }).code === '23505') throw new CliError(`domain already in use: ${domains.join(', ')}`, EXIT.conflict);
      throw err;
    });
    await print(ctx, cmd, tenantRow(tenant));
  });
}

export async function tenantsList(_options: NoOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  await withStore(ctx, storeFlags(cmd), false, async ({ store }) => printList(ctx, cmd, (await store.tenants.list()).map(tenantRow), ['id', 'primary_domain', 'aliases', 'created_at']));
}
