/** The actions of `confctl admin snapshot save|restore|list|delete` (see media/snapshots.ts, store/snapshots.ts). */
import { restoreSnapshot, saveSnapshot } from '../../../media/snapshots.js';
import { checkSnapshotName, SnapshotError } from '../../../store/snapshots.js';
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import { print, printList } from './local.js';
import { withStore } from './store.js';

/** What `admin snapshot VERB [NAME]` was asked, as parsed (see snapshot.ts). */
export type SnapshotOptions = AdminCommon & ({ verb: 'save'; name: string; force: boolean } | { verb: 'restore' | 'delete'; name: string } | { verb: 'list' });

/** A refused snapshot (`SnapshotError`) changes nothing; src/cli/errors.ts says it as exit 5 or 2. */
export async function run(options: SnapshotOptions, ctx: CliContext): Promise<void> {
  // A bad name is refused before the store is opened (or a data directory created).
  if (options.verb !== 'list') checkSnapshotName(options.name);
  await withStore(ctx, options.store, options.verb !== 'list', async ({ store, mediaDir }) => {
    switch (options.verb) {
      case 'save':
        return print(ctx, options.globals, { ...(await saveSnapshot(store.snapshots, mediaDir, options.name, { now: ctx.now(), replace: options.force })) });
      case 'restore': {
        const started = performance.now();
        const restored = await restoreSnapshot(store.snapshots, mediaDir, options.name);
        return print(ctx, options.globals, { ...restored, duration_ms: Math.round(performance.now() - started) });
      }
      case 'list':
        return printList(ctx, options.globals, (await store.snapshots.list()).map((s) => ({ ...s })), ['name', 'created_at', 'schema_version', 'media_files']);
      case 'delete':
        if (!(await store.snapshots.remove(options.name))) throw new SnapshotError('not_found', `There is no snapshot named '${options.name}'.`);
        return print(ctx, options.globals, { deleted: options.name });
    }
  });
}
