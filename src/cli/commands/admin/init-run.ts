/** The action of `confctl admin init`: the first tenant and key of a data directory, or with `--database` of a PostgreSQL database. */
import type { CliContext } from '../../context.js';
import { initOn, type InitOptions } from './setup.js';
import { withStore } from './store.js';

export async function init(options: InitOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, true, (target) => initOn(ctx, options, target));
}
