/** The actions of `confctl admin tenants add|list`, on a data directory or with `--database` on PostgreSQL (database.ts). */
import { createTenant } from '../../../local/init.js';
import { CliError, EXIT } from '../../context.js';
import { type AdminDeps, databaseUrl, isDryRun, type NoOptions, plan, print, printList, withLocal } from './local.js';
import { aliasText, tenantRow } from './setup.js';

export type TenantsAddOptions = { domain: string; aliases: string[] };

export async function tenantsAdd(options: TenantsAddOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await import('./database.js')).tenantsAdd(ctx, cmd, url, options.domain);
  await withLocal(ctx, cmd, async (local) => {
    const domains = [options.domain, ...options.aliases].map((d) => d.toLowerCase());
    const taken = (await Promise.all(domains.map(async (d) => ((await local.store.tenants.byDomain(d)) ? d : undefined)))).filter((d) => d !== undefined);
    if (taken.length) throw new CliError(`domain already in use: ${taken.join(', ')}`, EXIT.conflict);
    if (isDryRun(cmd)) return plan(ctx, [`would create tenant ${domains[0]}${aliasText(domains.slice(1))} with roles Admin, Manager, Member`]);
    await print(ctx, cmd, tenantRow(await createTenant(local.store, domains[0], domains.slice(1))));
  });
}

export async function tenantsList(_options: NoOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await import('./database.js')).tenantsList(ctx, cmd, url);
  await withLocal(ctx, cmd, async (local) => printList(ctx, cmd, (await local.store.tenants.list()).map(tenantRow), ['id', 'primary_domain', 'aliases', 'created_at']));
}
