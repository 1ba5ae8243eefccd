/**
 * `confctl apply PLAN.json` carries out a saved plan (refused when stale, unless `--refresh`);
 * `confctl apply -f DIR` plans, shows the plan and asks first (on a terminal; `--yes` in a
 * script). A run that does not finish writes the rest of the plan to a file for a second run.
 */
import { collect } from '../../collect.js';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Command } from 'commander';
import type { ApiClient } from '../../../client/client.js';
import type { Plan } from '../../tenant/model.js';
import { checkPlan } from '../../tenant/plan.js';
import { summaryLine } from '../../tenant/render.js';
import { DEFAULT_CONCURRENCY } from '../../bulk/command.js';
import { apiClient, type CliContext, globalOptions, type GlobalOptions, UsageError } from '../../context.js';
import { examples } from '../../help.js';
import { addColorFlag, applyPlan, type ApplyOptions, checkGuards, type ColorWhen, countOption, planAgainstTenant, printPlan, refuseProblems } from './flow.js';
import { addDeclaredFlags, type Declared, declaredOf } from './declared.js';
import { readDesiredState } from './source.js';
import type { Flags } from '../resource.js';

const MAX_CONCURRENCY = 32;

/** The options every applying command (`apply`, `sync`) shares. */
export interface ApplyFlags {
  yes: boolean;
  maxChanges?: number;
  maxRemovals?: number;
  concurrency: number;
  failFast: boolean;
  remaining?: string;
  /** Departments and roles declared for planning (`--department`, `--role`). */
  declared: Declared;
  /** `--color` of the plan shown before applying. */
  color: ColorWhen;
  globals: GlobalOptions;
}

export interface ApplyCommandOptions extends ApplyFlags {
  planFile?: string;
  files: string[];
  prune: boolean;
  refresh: boolean;
}

/** Adds the flags of `ApplyFlags` to `cmd`. */
export function addApplyFlags(cmd: Command): Command {
  return addColorFlag(addDeclaredFlags(cmd))
    .option('--yes', 'apply without asking (scripts); without it a terminal is asked first')
    .option('--max-changes <n>', 'refuse a plan of more than N changes')
    .option('--max-removals <n>', 'refuse a plan removing more than N attendees and conferences in all')
    .option('--concurrency <n>', `requests in flight at most (default ${DEFAULT_CONCURRENCY}); paced by the rate-limit headers`)
    .option('--fail-fast', 'stop at the first failed change (the rest are skipped and written to the remaining plan)')
    .option('--remaining <file>', 'where the rest of a plan that did not finish is written (default: beside the plan, or ./confctl-remaining.json)');
}

export function applyFlags(flags: Record<string, unknown>, globals: GlobalOptions): ApplyFlags {
  return {
    yes: Boolean(flags.yes),
    maxChanges: countOption('--max-changes', flags.maxChanges),
    maxRemovals: countOption('--max-removals', flags.maxRemovals),
    concurrency: countOption('--concurrency', flags.concurrency, 1, MAX_CONCURRENCY) ?? DEFAULT_CONCURRENCY,
    failFast: Boolean(flags.failFast),
    remaining: flags.remaining as string | undefined,
    declared: declaredOf(flags),
    color: flags.color as ColorWhen,
    globals,
  };
}

/** `plan.json` → `plan.remaining.json` beside it (a remaining plan's own rest goes to the same name). */
export function remainingFileFor(planFile: string | undefined): string {
  if (!planFile) return 'confctl-remaining.json';
  const base = basename(planFile).replace(/(\.remaining)?\.json$/i, '');
  return join(dirname(planFile), `${base}.remaining.json`);
}

/** Shows a fresh plan and applies it once allowed: `--yes`, a dry run, or a terminal's yes. */
export async function confirmAndApply(ctx: CliContext, client: ApiClient, plan: Plan, flags: ApplyFlags, format: Parameters<typeof printPlan>[2], extra: Partial<ApplyOptions> = {}): Promise<void> {
  await printPlan(ctx, plan, format, { color: flags.color });
  if (!plan.changes.length) return;
  checkGuards(plan, flags);
  if (!flags.yes && !flags.globals.dryRun) {
    if (!ctx.streams.canPrompt) throw new UsageError('not applied: applying asks first, and there is no terminal to ask', 'give --yes to apply in a script, or save the plan with --out and apply it later');
    const answer = await ctx.prompter.input({ message: `Apply these ${plan.changes.length} changes? (y/N)`, default: 'N' });
    if (!/^y(es)?$/i.test(answer.trim())) throw new UsageError('not applied; nothing was sent');
  }
  await applyPlan(ctx, client, plan, { ...flags, remainingFile: flags.remaining ?? remainingFileFor(undefined), dryRun: flags.globals.dryRun, fresh: true, ...extra });
}

async function readPlanFile(file: string): Promise<Plan> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read the plan ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const { plan, problem } = checkPlan(value);
  if (!plan) throw new UsageError(`cannot apply ${file}: ${problem}`);
  return plan;
}

export async function runApply(opts: ApplyCommandOptions, ctx: CliContext): Promise<void> {
  const replan = async (client: ApiClient, files: readonly string[], prune: boolean) => {
    const state = await readDesiredState(files);
    if (state.problems.length) refuseProblems(state.problems);
    return planAgainstTenant(ctx, client, { desired: state.desired, prune, sources: state.sources, declared: opts.declared });
  };
  if (!opts.planFile) {
    const { client, format } = await apiClient(ctx, opts.globals);
    return confirmAndApply(ctx, client, await replan(client, opts.files, opts.prune), opts, format);
  }
  const saved = await readPlanFile(opts.planFile);
  const { client } = await apiClient(ctx, opts.globals);
  if (saved.base_url !== client.baseUrl) ctx.streams.stderr.write(`note: the plan was made against ${saved.base_url}; applying it to ${client.baseUrl}\n`);
  ctx.streams.stderr.write(`${summaryLine(saved)}\n`);
  const refresh = opts.refresh
    ? async () => {
        if (!saved.sources.length) throw new UsageError('--refresh plans again from the plan\'s files, and this plan names none (a sync plan: run the sync again)');
        return replan(client, saved.sources, saved.prune);
      }
    : undefined;
  await applyPlan(ctx, client, saved, { ...opts, remainingFile: opts.remaining ?? remainingFileFor(opts.planFile), dryRun: opts.globals.dryRun, fresh: false, refresh });
}

export function register(program: Command, ctx: CliContext, run = runApply): void {
  const cmd = program
    .command('apply')
    .description('Carry out a saved plan (refused when the tenant changed since), or plan desired-state files with -f and apply after asking')
    .argument('[plan]', 'a plan saved by `confctl plan --out FILE`')
    .option('-f, --file <path>', 'plan these desired-state files (a directory or kind files, repeatable) and apply them', collect)
    .option('--prune', 'with -f: delete conferences (not ended) that no file names')
    .option('--refresh', 'with a saved plan: when the tenant changed since, plan again from its files instead of refusing');
  addApplyFlags(cmd)
    .addHelpText('after', examples('confctl apply plan.json', 'confctl apply -f tenant/ --yes --max-changes 50'))
    .action((planFile: string | undefined, flags: Flags<{ file?: string[]; prune?: boolean; refresh?: boolean }>, cmd: Command) => {
      const files = flags.file ?? [];
      if (Boolean(planFile) === Boolean(files.length)) throw new UsageError('give either a saved plan (apply PLAN.json) or desired-state files (apply -f DIR)');
      if (planFile && flags.prune) throw new UsageError('--prune goes with -f (a saved plan already says what it deletes)');
      if (!planFile && flags.refresh) throw new UsageError('--refresh goes with a saved plan (-f always plans afresh)');
      if (planFile && !flags.refresh && (flags.department || flags.role)) throw new UsageError('--department and --role go with -f or --refresh (a saved plan is already resolved)');
      return run({ ...applyFlags(flags, globalOptions(cmd)), planFile, files, prune: Boolean(flags.prune), refresh: Boolean(flags.refresh) }, ctx);
    });
}
