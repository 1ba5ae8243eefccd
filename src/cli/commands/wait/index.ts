/**
 * `confctl wait conference|recording|user …`: poll the API until a condition holds (exit 0), a
 * `--fail-on` condition holds (exit 9) or `--max-wait` passes (exit 124, as timeout(1)). Reads
 * only, so it works against the hosted service as well as a local instance.
 */
import type { Command } from 'commander';
import { DURATION_UNITS, durationSyntax, parseDuration } from '../../../contract/duration.js';
import { type CliContext, type GlobalOptions, globalOptions, UsageError } from '../../context.js';
import { EXIT } from '../../errors.js';
import { type ExitCodeNote, exitCodes } from '../../exit-codes.js';
import { examples } from '../../help.js';
import { CONDITIONS, conferenceSubject, recordingSubject, type Subject, userSubject } from '../../wait/subjects.js';
import type { WaitOptions } from './run.js';
import { idArg } from '../resource.js';

/** The flags of a `wait` command as commander hands them over. */
export interface WaitFlags {
  for: string;
  failOn?: string[];
  maxWait?: string;
  interval?: string;
}

export const DEFAULT_MAX_WAIT = '10m';
export const DEFAULT_INTERVAL = '5s';

/** `--max-wait`/`--interval` → milliseconds; `positive`: zero refused (an interval of 0 would spin). */
export function durationFlag(value: string, flag: string, positive: boolean): number {
  const ms = parseDuration(value, DURATION_UNITS);
  if (ms === undefined || (positive && ms === 0)) throw new UsageError(`${flag} must be ${positive ? 'a positive duration' : 'a duration'}: ${durationSyntax()}, not '${value}'`);
  return ms;
}

const list = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

/** Flags → options; no I/O. Conditions must be the subject's own. */
export function waitOptions(subject: Subject, flags: WaitFlags, globals: GlobalOptions): WaitOptions {
  const known = subject.conditions;
  const check = (c: string, flag: string) => {
    if (!known.includes(c)) throw new UsageError(`${flag} '${c}' is not a condition of ${subject.label.split(' ')[0]}: ${known.join(', ')}`);
  };
  const condition = flags.for;
  check(condition, '--for');
  const failOn = flags.failOn ?? [];
  for (const c of failOn) check(c, '--fail-on');
  if (failOn.includes(condition)) throw new UsageError(`--fail-on '${condition}' is the condition waited for`);
  return {
    subject,
    condition,
    failOn,
    maxWaitMs: durationFlag(flags.maxWait ?? DEFAULT_MAX_WAIT, '--max-wait', false),
    intervalMs: durationFlag(flags.interval ?? DEFAULT_INTERVAL, '--interval', true),
    globals,
  };
}

/** The codes of every `wait` command, in the order they are checked. */
const WAIT_EXIT_CODES: readonly ExitCodeNote[] = [
  { code: EXIT.ok, meaning: 'the condition holds' },
  { code: EXIT.failOn, meaning: 'a --fail-on condition holds (checked first)' },
  { code: EXIT.timedOut, meaning: '--max-wait passed before the condition held' },
  { code: EXIT.notFound, meaning: "the subject does not exist (unless waiting for or failing on 'deleted')" },
];

function addWaitOptions(cmd: Command, conditions: readonly string[]): Command {
  return exitCodes(cmd, WAIT_EXIT_CODES)
    .requiredOption('--for <condition>', `the condition to wait for: ${conditions.join(', ')}`)
    .option('--fail-on <condition>', `stop with exit ${EXIT.failOn} when this condition holds (repeatable, or comma-separated)`, list)
    .option('--max-wait <duration>', `give up after this long with exit ${EXIT.timedOut} (${durationSyntax()}; default ${DEFAULT_MAX_WAIT})`)
    .option('--interval <duration>', `time between checks (default ${DEFAULT_INTERVAL}; doubles while the service answers 429)`);
}

const HELP = `
Durations: ${durationSyntax()}, e.g. 500ms, 30s, 10m, 1h.
The resource is printed when the wait ends; with -o ndjson one JSON line per check instead.
Progress goes to stderr when it is a terminal. --timeout stays the timeout of each request.`;

/** Registers `wait`; `runF` replaces the runner in parse-only tests. */
export function register(program: Command, ctx: CliContext, runF?: (opts: WaitOptions) => Promise<void>): void {
  const run = runF ?? (async (opts: WaitOptions) => (await import('./run.js')).runWait(opts, ctx));
  const wait = exitCodes(program.command('wait').description('Wait until a conference, recording or user reaches a state (polls the API; reads only)').addHelpText('after', HELP), WAIT_EXIT_CODES)
    .addHelpText('after', examples('confctl wait conference 5 --for ended --max-wait 2h', 'confctl wait recording 5 6 --for finished --fail-on failed --interval 10s'));

  addWaitOptions(wait.command('conference').description('Wait for a conference: started, ended, recording-ready, recording-failed or deleted').argument('<id>'), CONDITIONS.conference)
    .addHelpText('after', examples('confctl wait conference 5 --for recording-ready --fail-on recording-failed'))
    .action((id: string, flags: WaitFlags, cmd: Command) => run(waitOptions(conferenceSubject(idArg(id, 'id')), flags, globalOptions(cmd))));

  addWaitOptions(wait.command('recording').description('Wait for a recording: processing, finished, failed or deleted').argument('<conference_id>').argument('<recording_id>'), CONDITIONS.recording)
    .addHelpText('after', examples('confctl wait recording 5 6 --for finished --fail-on failed'))
    .action((conf: string, rec: string, flags: WaitFlags, cmd: Command) =>
      run(waitOptions(recordingSubject(idArg(conf, 'conference_id'), idArg(rec, 'recording_id')), flags, globalOptions(cmd))),
    );

  addWaitOptions(wait.command('user').description('Wait for a user with this e-mail: exists, active or inactive').argument('<email>'), CONDITIONS.user)
    .addHelpText('after', examples('confctl wait user grace@example.com --for exists --max-wait 1m'))
    .action((email: string, flags: WaitFlags, cmd: Command) => run(waitOptions(userSubject(email), flags, globalOptions(cmd))));
}
