/** The actions of `confctl admin conferences start|end`: the provider's side the API does not expose. */
import { endConference, startConference } from '../../../admin/lifecycle.js';
import { type AdminDeps, idArg, isDryRun, plan, print } from './local.js';
import { storeFlags, withStore } from './store.js';

export type ConferenceOptions = { id: string; tenant?: string };

export async function conferenceStart(options: ConferenceOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  await withStore(ctx, storeFlags(cmd), true, async ({ store, tenantOf }) => {
    const tenantId = (await tenantOf(options)).id;
    const dryRun = isDryRun(cmd);
    const { conference, recording } = await startConference(store, tenantId, idArg(options.id, 'conference id'), ctx.now(), dryRun);
    if (dryRun) return plan(ctx, [`would start conference ${conference.id} '${conference.title}' and begin its recording`]);
    await print(ctx, cmd, { conference, recording });
  });
}

export async function conferenceEnd(options: ConferenceOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  await withStore(ctx, storeFlags(cmd), true, async ({ store, tenantOf }) => {
    const tenantId = (await tenantOf(options)).id;
    const dryRun = isDryRun(cmd);
    const ended = await endConference(store, tenantId, idArg(options.id, 'conference id'), ctx.now(), dryRun);
    if (dryRun) return plan(ctx, [`would end conference ${ended.conference.id} '${ended.conference.title}'; ${ended.recordings.length} running recording(s) would become Processing`]);
    await print(ctx, cmd, ended);
  });
}
