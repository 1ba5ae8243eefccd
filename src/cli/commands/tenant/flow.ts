/**
 * What `plan`, `apply` and `sync` share: planning desired state against the tenant (problems
 * refused before any write, exit 6, every one named), printing a plan, and applying one (guards,
 * the stale check, the steps, the report and the remaining plan written for a second run).
 */
import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import type { ApiClient } from '../../../client/client.js';
import { problemLine } from '../../tenant/desired.js';
import { type Desired, type Kind, type Plan, type Problem } from '../../tenant/model.js';
import { guardProblem, makePlan } from '../../tenant/plan.js';
import { renderPlan } from '../../tenant/render.js';
import { standings } from '../../tenant/stale.js';
import { foldKey } from '../../tenant/values.js';
import { mostSevere } from '../../bulk/run.js';
import { countBar } from '../../bulk/progress.js';
import { type CliContext, CliError, EXIT, type OutputFormat, UsageError } from '../../context.js';
import { errorLines, exitCodeFor } from '../../errors.js';
import { renderValue } from '../../output/index.js';
import type { Declared } from './declared.js';
import { execute, type Outcome, remainingChanges } from './execute.js';
import { readTenant } from './read.js';

/** Refuses desired state with problems: exit 6, one line per problem. */
export function refuseProblems(problems: readonly Problem[]): never {
  const n = problems.length;
  const sorted = [...problems].sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0));
  throw new CliError(`the desired state has ${n} problem${n === 1 ? '' : 's'}; nothing was sent:\n${sorted.map((p) => `  ${problemLine(p)}`).join('\n')}`, EXIT.validation);
}

/** Plans `desired` against the tenant read now (its departments and roles, and those `declared`). */
export async function planAgainstTenant(
  ctx: CliContext,
  client: ApiClient,
  input: { desired: Partial<Record<Kind, Desired[]>>; prune: boolean; sources: string[]; declared: Declared },
): Promise<Plan> {
  const kinds = (Object.keys(input.desired) as Kind[]).filter((k) => input.desired[k]);
  const conferences = input.desired.conferences ?? [];
  const snapshot = await readTenant(client, {
    kinds,
    conferences: new Set(conferences.map((d) => foldKey(d.key))),
    hosts: new Set(conferences.map((d) => foldKey(String(d.fields.host)))),
  }, ctx);
  snapshot.departments = [...(snapshot.departments ?? []), ...input.declared.departments];
  snapshot.roles = [...(snapshot.roles ?? []), ...input.declared.roles];
  const { plan, problems } = makePlan({ desired: input.desired, snapshot, prune: input.prune, baseUrl: client.baseUrl, sources: input.sources, now: ctx.now() });
  if (!plan) refuseProblems(problems);
  return plan;
}

/** When the diff is coloured: `auto` as everywhere (FORCE_COLOR, then NO_COLOR, then whether stdout is a terminal). */
export type ColorWhen = 'auto' | 'always' | 'never';

/** Adds `--color auto|always|never` to a command that prints a plan. */
export const addColorFlag = (cmd: Command): Command =>
  cmd.addOption(new Option('--color <when>', 'colour the diff: auto (FORCE_COLOR, NO_COLOR, whether stdout is a terminal), always or never').choices(['auto', 'always', 'never']).default('auto'));

/** Prints `plan`: a human diff as a table would be, json or yaml as they are. */
export async function printPlan(ctx: CliContext, plan: Plan, format: OutputFormat, options: { query?: string; color?: ColorWhen } = {}): Promise<void> {
  if (format === 'csv' || format === 'ndjson') throw new UsageError(`a plan prints as table (a diff), json or yaml, not ${format}`);
  if (format === 'table' && options.query === undefined) {
    const color = options.color === 'always' || (options.color !== 'never' && ctx.streams.color);
    ctx.streams.stdout.write(`${renderPlan(plan, { color }).join('\n')}\n`);
    return;
  }
  await renderValue(ctx.streams, plan, format, options.query);
}

/** Writes a plan as JSON to `file`. */
export const savePlan = (file: string, plan: Plan): Promise<void> => writeFile(file, `${JSON.stringify(plan, null, 2)}\n`);

export interface ApplyOptions {
  maxChanges?: number;
  maxRemovals?: number;
  concurrency: number;
  failFast: boolean;
  /** Where the rest of a plan that did not finish is written. */
  remainingFile: string;
  dryRun: boolean;
  /** The plan was just made from a fresh read: no stale check. */
  fresh: boolean;
  /** Re-plans (`--refresh`) when the plan is stale; absent: a stale plan is refused. */
  refresh?: () => Promise<Plan>;
}

/** Refuses a plan the guards do not allow (exit 5). */
export function checkGuards(plan: Plan, opts: Pick<ApplyOptions, 'maxChanges' | 'maxRemovals'>): void {
  const problem = guardProblem(plan.changes, opts);
  if (problem) throw new CliError(`${problem}; nothing was sent`, EXIT.conflict, 'check the files; raise the limit if this many changes are meant');
}

/** The plan's changes still to make now, after the stale check (refused, or re-planned with `refresh`). */
async function pendingOf(ctx: CliContext, client: ApiClient, plan: Plan, opts: ApplyOptions): Promise<{ plan: Plan; pending: Plan['changes']; done: number }> {
  if (opts.fresh) return { plan, pending: plan.changes, done: 0 };
  const kinds = plan.kinds.filter((k) => plan.changes.some((c) => (k === 'users' ? c.kind === 'user' : k === 'customers' ? c.kind === 'customer' : c.kind === 'conference' || c.kind === 'attendee')));
  const conferences = new Set(plan.changes.flatMap((c) => (c.kind === 'attendee' ? [foldKey(c.conference)] : c.kind === 'conference' ? [foldKey(c.key)] : [])));
  const now = await readTenant(client, { kinds, conferences }, ctx);
  const results = standings(plan.changes, now);
  const stale = results.flatMap((r) => (r.state === 'stale' ? [r.reason] : []));
  if (stale.length) {
    if (opts.refresh) {
      ctx.streams.stderr.write(`the plan is stale (${stale.length} change${stale.length === 1 ? '' : 's'}); planning again (--refresh)\n`);
      const fresh = await opts.refresh();
      checkGuards(fresh, opts);
      return { plan: fresh, pending: fresh.changes, done: 0 };
    }
    throw new CliError(
      `the plan is stale: the tenant changed since it was made; nothing was sent:\n${stale.map((s) => `  ${s}`).join('\n')}`,
      EXIT.conflict,
      'plan again, or apply with --refresh to plan again from the same files',
    );
  }
  const pending = results.flatMap((r) => (r.state === 'pending' ? [r.change] : []));
  return { plan, pending, done: results.length - pending.length };
}

function failureLines(o: Outcome & { status: 'failed' }): string[] {
  const [first, ...rest] = errorLines(o.error);
  return [`failed: ${o.change.action} ${o.change.kind} ${o.change.key}: ${first.replace(/^error: /, '')}`, ...rest.filter((l) => !l.startsWith('hint: '))];
}

/** Applies `plan`; reports applied, failed and skipped; a plan not finished leaves its rest in `remainingFile` (exit non-zero). */
export async function applyPlan(ctx: CliContext, client: ApiClient, given: Plan, opts: ApplyOptions): Promise<void> {
  const { streams } = ctx;
  checkGuards(given, opts);
  const { plan, pending, done } = await pendingOf(ctx, client, given, opts);
  if (!pending.length) {
    streams.stderr.write(`Nothing to apply: ${done ? `all ${done} changes are already made` : 'the plan has no changes'}.\n`);
    return;
  }
  const bar = !opts.dryRun && streams.stderrIsTTY ? countBar(streams.stderr, pending.length, streams.width, () => ctx.now().getTime()) : undefined;
  const outcomes = await execute(pending, client, { concurrency: opts.dryRun ? 1 : opts.concurrency, failFast: opts.failFast, onProgress: (n, f) => bar?.update(n, f) });
  bar?.done();
  if (opts.dryRun) {
    streams.stderr.write(`dry run: ${pending.length} request${pending.length === 1 ? '' : 's'} printed, nothing sent\n`);
    return;
  }
  const failed = outcomes.filter((o): o is Outcome & { status: 'failed' } => o.status === 'failed');
  const skipped = outcomes.filter((o) => o.status === 'skipped').length;
  for (const f of failed) streams.stderr.write(failureLines(f).map((l) => `${l}\n`).join(''));
  const summary = `applied ${outcomes.length - failed.length - skipped}, failed ${failed.length}, skipped ${skipped}${done ? ` (${done} already made before)` : ''}`;
  if (!failed.length && !skipped) {
    streams.stderr.write(`${summary}\n`);
    return;
  }
  await savePlan(opts.remainingFile, { ...plan, created_at: ctx.now().toISOString(), changes: remainingChanges(outcomes) });
  const code = failed.length ? mostSevere(new Set(failed.map((f) => exitCodeFor(f.error)))) : EXIT.unexpected;
  throw new CliError(summary, code, `the rest of the plan is in ${opts.remainingFile}: 'confctl apply ${opts.remainingFile}' finishes it`);
}



/** A whole number flag (`--max-changes 0` allowed; `--concurrency` from 1): undefined when not given. */
export function countOption(flag: string, raw: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === undefined) return undefined;
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`${flag} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, not '${text}'`);
  return Number(text);
}

