/** The action of `confctl admin init`: the first tenant and key of a data directory, or with `--database` of a PostgreSQL database. */
import { initOn, type InitOptions } from './setup.js';
import type { AdminDeps } from './local.js';
import { storeFlags, withStore } from './store.js';

export async function init(options: InitOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  await withStore(ctx, storeFlags(cmd), true, (target) => initOn(ctx, cmd, options, target));
}
