/** `confctl admin conferences|recordings|import`: the provider's side the API does not expose. */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { importRecords, isImportKind, IMPORT_KINDS } from '../../../admin/import.js';
import { endConference, failRecording, finishRecording, startConference } from '../../../admin/lifecycle.js';
import { type CliContext, UsageError } from '../../context.js';
import { isDryRun, plan, print } from './local.js';
import { withStore } from './store.js';

function idArg(value: string, what: string): number {
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`${what} must be a whole number, not '${value}'`);
  return Number(value);
}

export async function conferenceStart(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withStore(ctx, cmd, true, async ({ store, tenantOf }, opts) => {
    const tenantId = (await tenantOf(opts)).id;
    const dryRun = isDryRun(cmd);
    const { conference, recording } = await startConference(store, tenantId, idArg(id, 'conference id'), ctx.now(), dryRun);
    if (dryRun) return plan(ctx, [`would start conference ${conference.id} '${conference.title}' and begin its recording`]);
    await print(ctx, cmd, { conference, recording });
  });
}

export async function conferenceEnd(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withStore(ctx, cmd, true, async ({ store, tenantOf }, opts) => {
    const tenantId = (await tenantOf(opts)).id;
    const dryRun = isDryRun(cmd);
    const ended = await endConference(store, tenantId, idArg(id, 'conference id'), ctx.now(), dryRun);
    if (dryRun) return plan(ctx, [`would end conference ${ended.conference.id} '${ended.conference.title}'; ${ended.recordings.length} running recording(s) would become Processing`]);
    await print(ctx, cmd, ended);
  });
}

export async function recordingFinish(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withStore(ctx, cmd, true, async ({ store, tenantOf, mediaDir }, opts) => {
    const tenantId = (await tenantOf(opts)).id;
    const recording = await finishRecording(store, tenantId, idArg(id, 'recording id'), { mediaDir, file: opts.file as string | undefined, now: ctx.now() });
    await print(ctx, cmd, recording);
  });
}

export async function recordingFail(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withStore(ctx, cmd, true, async ({ store, tenantOf }, opts) => {
    const tenantId = (await tenantOf(opts)).id;
    const dryRun = isDryRun(cmd);
    const recording = await failRecording(store, tenantId, idArg(id, 'recording id'), { now: ctx.now(), dryRun });
    if (dryRun) return plan(ctx, [`would mark recording ${recording.id} Failed`]);
    await print(ctx, cmd, recording);
  });
}

export async function importFile(ctx: CliContext, cmd: Command, kind: string, file: string): Promise<void> {
  if (!isImportKind(kind)) throw new UsageError(`unknown kind '${kind}'`, `one of: ${Object.keys(IMPORT_KINDS).join(', ')}`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
  await withStore(ctx, cmd, true, async ({ store, tenantOf }, opts) => {
    const tenant = await tenantOf(opts);
    const dryRun = isDryRun(cmd);
    const result = await importRecords(store, tenant.id, kind, text, { fileName: file, dryRun });
    if (dryRun) return plan(ctx, [`would import ${result.created} ${kind} into tenant ${tenant.primary_domain}`]);
    await print(ctx, cmd, { ...result, tenant: tenant.primary_domain });
  });
}
