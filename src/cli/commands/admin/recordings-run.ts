/** The actions of `confctl admin recordings finish|fail`: the provider's side the API does not expose. */
import { failRecording, finishRecording } from '../../../admin/lifecycle.js';
import { type AdminDeps, idArg, isDryRun, plan, print } from './local.js';
import { storeFlags, withStore } from './store.js';

export type RecordingFinishOptions = { id: string; tenant?: string; file?: string };
export type RecordingFailOptions = { id: string; tenant?: string };

export async function recordingFinish(options: RecordingFinishOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  await withStore(ctx, storeFlags(cmd), true, async ({ store, tenantOf, mediaDir }) => {
    const tenantId = (await tenantOf(options)).id;
    const recording = await finishRecording(store, tenantId, idArg(options.id, 'recording id'), { mediaDir, file: options.file, now: ctx.now() });
    await print(ctx, cmd, recording);
  });
}

export async function recordingFail(options: RecordingFailOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  await withStore(ctx, storeFlags(cmd), true, async ({ store, tenantOf }) => {
    const tenantId = (await tenantOf(options)).id;
    const dryRun = isDryRun(cmd);
    const recording = await failRecording(store, tenantId, idArg(options.id, 'recording id'), { now: ctx.now(), dryRun });
    if (dryRun) return plan(ctx, [`would mark recording ${recording.id} Failed`]);
    await print(ctx, cmd, recording);
  });
}
