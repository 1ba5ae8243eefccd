/** Runs a `confctl wait`: the loop (../wait/loop.ts) wired to the API client, the output and Ctrl-C. */
import { realSleep } from '../../../client/pacing.js';
import { formatDuration } from '../../../contract/duration.js';
import { apiClient, type CliContext, CliError, EXIT } from '../../context.js';
import { renderItem } from '../../output/index.js';
import { liveLine } from '../../progress/bar.js';
import { type Check, waitFor } from '../../wait/loop.js';
import type { GlobalOptions } from '../../context.js';
import type { Subject } from '../../wait/subjects.js';

/** Parsed flags of a `wait` command. */
export interface WaitOptions {
  subject: Subject;
  condition: string;
  failOn: string[];
  maxWaitMs: number;
  intervalMs: number;
  globals: GlobalOptions;
}

/** What the last check saw, for the timeout message. */
function lastSeen(check: Check): string {
  if (check.rate_limited) return 'the last check was rate limited';
  return check.resource ? `the last check found it not ${check.condition}` : 'the last check found it absent';
}

export async function runWait(opts: WaitOptions, ctx: CliContext): Promise<void> {
  const { streams } = ctx;
  const { client, format } = await apiClient(ctx, opts.globals);
  const { subject } = opts;
  const ndjson = format === 'ndjson';
  const progress = !ndjson && streams.stderrIsTTY ? liveLine(streams.stderr, { now: () => ctx.now().getTime() }) : undefined;
  const stop = new AbortController();
  const unsubscribe = ctx.onInterrupt?.(() => stop.abort(new CliError('interrupted while waiting', EXIT.interrupted)));
  const onCheck = (c: Check) => {
    if (ndjson) streams.stdout.write(`${JSON.stringify(c)}\n`);
    progress?.show(`Waiting for ${subject.label} to be ${c.condition}: check ${c.check}, ${formatDuration(c.elapsed_ms)} of ${formatDuration(opts.maxWaitMs)}`, true);
  };
  let outcome: Awaited<ReturnType<typeof waitFor>>;
  try {
    outcome = await waitFor(
      { subject, condition: opts.condition, failOn: opts.failOn, maxWaitMs: opts.maxWaitMs, intervalMs: opts.intervalMs },
      { client, now: ctx.now, sleep: ctx.sleep ?? realSleep, onCheck, signal: stop.signal },
    );
  } finally {
    unsubscribe?.();
    progress?.done();
  }
  const { last } = outcome;
  if (!ndjson && last.resource && outcome.kind !== 'timeout') {
    await renderItem(streams, last.resource, { format, fields: opts.globals.fields, query: opts.globals.query, resource: subject.resource });
  }
  if (outcome.kind === 'failed') throw new CliError(`${subject.label} is ${last.failed_on} (--fail-on ${last.failed_on})`, EXIT.failOn);
  if (outcome.kind === 'timeout') {
    throw new CliError(`timed out after ${formatDuration(opts.maxWaitMs)} waiting for ${subject.label} to be ${opts.condition}: ${lastSeen(last)}`, EXIT.timedOut, 'raise --max-wait');
  }
}
