/** The actions of `confctl admin recordings finish|fail`: the provider's side the API does not expose. */
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import { failRecording, finishRecording } from '../../../admin/lifecycle.js';
import { idArg, plan, print } from './local.js';
import { withStore } from './store.js';

export type RecordingFinishOptions = AdminCommon & { id: string; tenant?: string; file?: string };
export type RecordingFailOptions = AdminCommon & { id: string; tenant?: string };

export async function recordingFinish(options: RecordingFinishOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, true, async ({ store, tenantOf, mediaDir }) => {
    const tenantId = (await tenantOf(options)).id;
    const recording = await finishRecording(store, tenantId, idArg(options.id, 'recording id'), { mediaDir, file: options.file, now: ctx.now() });
    await print(ctx, options.globals, recording);
  });
}

export async function recordingFail(options: RecordingFailOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const tenantId = (await tenantOf(options)).id;
    const dryRun = options.globals.dryRun;
    const recording = await failRecording(store, tenantId, idArg(options.id, 'recording id'), { now: ctx.now(), dryRun });
    if (dryRun) return plan(ctx, [`would mark recording ${recording.id} Failed`]);
    await print(ctx, options.globals, recording);
  });
}
