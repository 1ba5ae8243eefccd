/**
 * `confctl plan -f DIR|FILE…`: desired state against the tenant. Prints a diff (on a terminal)
 * or the plan as JSON; `--out` saves it for `apply`. `--detailed-exitcode`: 0 no changes,
 * 2 changes, 1 any error (Terraform's convention).
 */
import { collect } from '../../collect.js';
import type { Command } from 'commander';
import { apiClient, type CliContext, globalOptions, type GlobalOptions, UsageError } from '../../context.js';
import { EXIT, errorLines, QuietExit } from '../../errors.js';
import { type ExitCodeNote, exitCodes } from '../../exit-codes.js';
import { examples } from '../../help.js';
import { addDeclaredFlags, type Declared, declaredOf } from './declared.js';
import { readDesiredState } from './source.js';
import { addColorFlag, type ColorWhen, planAgainstTenant, printPlan, refuseProblems, savePlan } from './flow.js';

/** `--detailed-exitcode`'s code for a plan with changes. */
const CHANGES_PENDING = 2;

/** What `--detailed-exitcode` makes of the exit code. */
const PLAN_EXIT_CODES: readonly ExitCodeNote[] = [
  { code: EXIT.ok, meaning: 'with --detailed-exitcode: nothing to change' },
  { code: CHANGES_PENDING, meaning: 'with --detailed-exitcode: there are changes' },
  { code: EXIT.unexpected, meaning: 'with --detailed-exitcode: any error' },
];

export interface PlanOptions {
  files: string[];
  prune: boolean;
  out?: string;
  detailedExitcode: boolean;
  declared: Declared;
  color: ColorWhen;
  globals: GlobalOptions;
}

export async function runPlan(opts: PlanOptions, ctx: CliContext): Promise<void> {
  try {
    const state = await readDesiredState(opts.files);
    if (state.problems.length) refuseProblems(state.problems);
    const { client, format } = await apiClient(ctx, opts.globals);
    const plan = await planAgainstTenant(ctx, client, { desired: state.desired, prune: opts.prune, sources: state.sources, declared: opts.declared });
    await printPlan(ctx, plan, format, { query: opts.globals.query, color: opts.color });
    if (opts.out) {
      await savePlan(opts.out, plan);
      ctx.streams.stderr.write(`saved the plan to ${opts.out}: 'confctl apply ${opts.out}' carries it out\n`);
    }
    if (opts.detailedExitcode && plan.changes.length) throw new QuietExit(CHANGES_PENDING);
  } catch (err) {
    if (!opts.detailedExitcode || err instanceof QuietExit) throw err;
    for (const line of errorLines(err)) ctx.streams.stderr.write(`${line}\n`);
    throw new QuietExit(EXIT.unexpected);
  }
}

export function register(program: Command, ctx: CliContext, run = runPlan): void {
  const command = exitCodes(program.command('plan'), PLAN_EXIT_CODES)
    .description('Compare desired-state files with the tenant: what would be created, updated, added, removed, and what is unmanaged')
    .option('-f, --file <path>', 'a directory of kind files (users.yaml, customers.yaml, conferences.yaml) or one such file (repeatable)', collect)
    .option('--prune', 'delete conferences (not ended) that no file names; without it they are listed as unmanaged')
    .option('--out <file>', 'save the plan as JSON for `confctl apply FILE`')
    .option('--detailed-exitcode', `exit ${EXIT.ok} when there is nothing to change, ${CHANGES_PENDING} when there is, ${EXIT.unexpected} on any error`);
  addColorFlag(addDeclaredFlags(command))
    .addHelpText('after', examples('confctl plan -f tenant/', 'confctl plan -f tenant/ --out plan.json --detailed-exitcode'))
    .action((flags: { file?: string[]; prune?: boolean; out?: string; detailedExitcode?: boolean; department?: string[]; role?: string[]; color?: ColorWhen }, cmd: Command) => {
      const files = flags.file ?? [];
      if (!files.length) throw new UsageError('give the desired state with -f DIR or -f FILE', "make a start with 'confctl export DIR'");
      return run({ files, prune: Boolean(flags.prune), out: flags.out, detailedExitcode: Boolean(flags.detailedExitcode), declared: declaredOf(flags), color: flags.color ?? 'auto', globals: globalOptions(cmd) }, ctx);
    });
}
