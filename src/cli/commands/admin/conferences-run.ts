/** The actions of `confctl admin conferences start|end`: the provider's side the API does not expose. */
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import { endConference, startConference } from '../../../admin/lifecycle.js';
import { idArg, plan, print } from './local.js';
import { withStore } from './store.js';

export type ConferenceOptions = AdminCommon & { id: string; tenant?: string };

export async function conferenceStart(options: ConferenceOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const tenantId = (await tenantOf(options)).id;
    const dryRun = options.globals.dryRun;
    const { conference, recording } = await startConference(store, tenantId, idArg(options.id, 'conference id'), ctx.now(), dryRun);
    if (dryRun) return plan(ctx, [`would start conference ${conference.id} '${conference.title}' and begin its recording`]);
    await print(ctx, options.globals, { conference, recording });
  });
}

export async function conferenceEnd(options: ConferenceOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const tenantId = (await tenantOf(options)).id;
    const dryRun = options.globals.dryRun;
    const ended = await endConference(store, tenantId, idArg(options.id, 'conference id'), ctx.now(), dryRun);
    if (dryRun) return plan(ctx, [`would end conference ${ended.conference.id} '${ended.conference.title}'; ${ended.recordings.length} running recording(s) would become Processing`]);
    await print(ctx, options.globals, ended);
  });
}
