/** The action of `confctl admin init`: the first tenant and key of a data directory, or with `--database` of a PostgreSQL database (database.ts). */
import { initFirstTenant } from '../../../local/init.js';
import { type AdminDeps, databaseUrl, withLocal } from './local.js';
import { initOn, type InitOptions } from './setup.js';

export async function init(options: InitOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await import('./database.js')).init(ctx, cmd, url);
  await withLocal(ctx, cmd, (local) =>
    initOn(ctx, cmd, options, {
      where: local.layout.dir,
      store: local.store,
      hasTenant: async () => (await local.store.tenants.list()).length > 0,
      create: async (domain) => initFirstTenant(local.store, domain),
      keysHint: "create more keys with 'confctl admin keys create'",
    }),
  );
}
