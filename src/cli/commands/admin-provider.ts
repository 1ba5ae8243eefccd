/** `confctl admin conferences|recordings|import`: the provider's side the API does not expose. */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { importRecords, isImportKind, IMPORT_KINDS } from '../../admin/import.js';
import { endConference, failRecording, finishRecording, startConference } from '../../admin/lifecycle.js';
import { type CliContext, UsageError } from '../context.js';
import type { Row } from '../output/index.js';
import type { Store } from '../../store/types.js';
import { isDryRun, plan, print, tenantOf, withLocal } from './admin-local.js';

function idArg(value: string, what: string): number {
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`${what} must be a whole number, not '${value}'`);
  return Number(value);
}

export async function conferenceStart(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    const run = () => startConference(local.store, tenantOf(local, opts).id, idArg(id, 'conference id'), ctx.now());
    if (isDryRun(cmd)) {
      const { conference } = rolledBack(local.store, run);
      return plan(ctx, [`would start conference ${conference.id} '${conference.title}' and begin its recording`]);
    }
    const { conference, recording } = run();
    await print(ctx, cmd, { conference, recording });
  });
}

export async function conferenceEnd(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    const run = () => endConference(local.store, tenantOf(local, opts).id, idArg(id, 'conference id'), ctx.now());
    if (isDryRun(cmd)) {
      const { conference, recordings } = rolledBack(local.store, run);
      return plan(ctx, [`would end conference ${conference.id} '${conference.title}'; ${recordings.length} running recording(s) would become Processing`]);
    }
    await print(ctx, cmd, run() as unknown as Row);
  });
}

export async function recordingFinish(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    const recording = finishRecording(local.store, tenantOf(local, opts).id, idArg(id, 'recording id'), {
      mediaDir: local.layout.mediaDir,
      file: opts.file as string | undefined,
      now: ctx.now(),
    });
    await print(ctx, cmd, recording);
  });
}

export async function recordingFail(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    const run = () => failRecording(local.store, tenantOf(local, opts).id, idArg(id, 'recording id'), { now: ctx.now() });
    if (isDryRun(cmd)) return plan(ctx, [`would mark recording ${rolledBack(local.store, run).id} Failed`]);
    await print(ctx, cmd, run());
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
  await withLocal(ctx, cmd, async (local, opts) => {
    const tenant = tenantOf(local, opts);
    const run = () => importRecords(local.store, tenant.id, kind, text, { fileName: file });
    if (isDryRun(cmd)) return plan(ctx, [`would import ${rolledBack(local.store, run).created} ${kind} into tenant ${tenant.primary_domain}`]);
    await print(ctx, cmd, { ...run(), tenant: tenant.primary_domain });
  });
}

/** Runs `work` in a transaction that is always rolled back and answers its result: a dry run with every check of a real one. */
function rolledBack<T>(store: Store, work: () => T): T {
  const undo = new Error('dry run: roll back');
  let result: T | undefined;
  try {
    store.transaction(() => {
      result = work();
      throw undo;
    });
  } catch (err) {
    if (err !== undo) throw err;
  }
  return result as T;
}
