/**
 * The polling loop of `confctl wait`: read the subject, check the conditions, sleep, until the
 * awaited condition holds, a `--fail-on` condition holds (checked first: a failure is reported
 * even when the awaited condition holds at the same reading), or `maxWaitMs` has passed (one last
 * check at the deadline). The clock and the sleep are injected, so tests never wait on wall time.
 * A 429 that outlasts the client's own retries doubles the interval (at most one minute, back to
 * `intervalMs` after the next answered read) and the wait goes on; any other error ends it.
 */
import type { ApiClient } from '../../client/client.js';
import { ApiError } from '../../client/errors.js';
import { abortableSleep, type Sleep } from '../../client/pacing.js';
import type { Reading, Subject } from './subjects.js';

export interface WaitPlan {
  subject: Subject;
  /** The awaited condition. */
  condition: string;
  failOn: readonly string[];
  maxWaitMs: number;
  intervalMs: number;
}

/** One check as `-o ndjson` prints it. */
export interface Check {
  check: number;
  at: string;
  elapsed_ms: number;
  condition: string;
  met: boolean;
  /** The `--fail-on` condition that holds, else null. */
  failed_on: string | null;
  /** The answer was still 429 after the client's retries: nothing was read this time. */
  rate_limited?: true;
  resource: Record<string, unknown> | null;
  recordings?: { id: number; status: number }[];
}

export interface WaitDeps {
  client: ApiClient;
  now: () => Date;
  sleep: Sleep;
  onCheck?: (check: Check) => void;
  /** Aborts the wait (Ctrl-C): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface WaitOutcome {
  kind: 'met' | 'failed' | 'timeout';
  last: Check;
}

/** The longest interval a run of 429s backs off to. */
export const MAX_BACKOFF_MS = 60_000;

export async function waitFor(plan: WaitPlan, deps: WaitDeps): Promise<WaitOutcome> {
  const { subject } = plan;
  const needs = [plan.condition, ...plan.failOn];
  const start = deps.now().getTime();
  let interval = plan.intervalMs;
  for (let n = 1; ; n++) {
    const at = deps.now();
    const base = { check: n, at: at.toISOString(), elapsed_ms: at.getTime() - start, condition: plan.condition };
    let check: Check;
    try {
      const reading = await subject.read(deps.client, needs);
      check = { ...base, ...judge(plan, reading) };
      interval = plan.intervalMs;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 429)) throw err;
      interval = Math.min(interval * 2, Math.max(MAX_BACKOFF_MS, plan.intervalMs));
      check = { ...base, met: false, failed_on: null, rate_limited: true, resource: null };
    }
    deps.onCheck?.(check);
    if (check.failed_on) return { kind: 'failed', last: check };
    if (check.met) return { kind: 'met', last: check };
    const left = start + plan.maxWaitMs - deps.now().getTime();
    if (left <= 0) return { kind: 'timeout', last: check };
    await abortableSleep(deps.sleep, Math.min(interval, left), deps.signal);
  }
}

function judge(plan: WaitPlan, reading: Reading): Pick<Check, 'met' | 'failed_on' | 'resource' | 'recordings'> {
  const failed = plan.failOn.find((c) => plan.subject.holds(c, reading)) ?? null;
  return {
    met: plan.subject.holds(plan.condition, reading),
    failed_on: failed,
    resource: reading.resource ?? null,
    ...(reading.recordings && { recordings: reading.recordings }),
  };
}
