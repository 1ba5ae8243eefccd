/**
 * Client-side rate-limit pacing (decisions §5): the server announces its budget on every answer
 * (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` in whole seconds), and the client
 * spends it without running into 429. The client calls `beforeRequest()` before every request and
 * `observe(headers)` when its answer (or failure) arrives; the two always come in pairs.
 *
 * Rules, safe for several requests at once (bulk work):
 * - Nothing known yet: one request at a time until the first answer says whether limits apply.
 * - An answer without the headers: no limits, no pacing (until headers appear again).
 * - An answer with them: `remaining` minus the requests still in flight may be sent before
 *   `now + reset` seconds (`reset` is rounded up, so that moment is never before the server's
 *   window ends); the others wait until then.
 * - Always, once limited: at most `limit` requests are sent in any sliding window (plus a small
 *   margin for network jitter). The server counts in fixed windows, so a sliding count is never
 *   over its budget, whenever its windows start.
 */
import { realMs } from '../contract/clock.js';

/** Waits `ms`; may end early by rejecting when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface Pacer {
  /** Resolves when one more request may be sent now (and counts it in flight). Rejects on abort. */
  beforeRequest(signal?: AbortSignal): Promise<void>;
  /** An answer's (lower-case) headers arrived, or `undefined` when the request failed. */
  observe(headers: Readonly<Record<string, string>> | undefined): void;
}

export interface PacerOptions {
  sleep?: Sleep;
  /** Milliseconds since the epoch (default `realMs`, src/contract/clock.ts). */
  now?: () => number;
  /** Length of the server's window when none was observed yet (decisions §5: one second). */
  windowMs?: number;
}

/** A timer-based sleep that clears its timer when `signal` aborts. */
export const realSleep: Sleep = async (ms, signal) => {
  const { setTimeout } = await import('node:timers/promises');
  await setTimeout(ms, undefined, { signal });
};

/** `sleep(ms)` raced against `signal`, for sleeps that ignore the signal (fakes in tests). */
export function abortableSleep(sleep: Sleep, ms: number, signal?: AbortSignal): Promise<void> {
  return abortable(sleep(ms, signal), signal);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

const int = (v: string | undefined) => (v !== undefined && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined);

/** Extra milliseconds on the sliding window, for requests that arrive later than they left. */
const JITTER_MS = 50;

/** A pacer shared by every request of one client. */
export function createPacer(options: PacerOptions = {}): Pacer {
  const sleep = options.sleep ?? realSleep;
  const clock = options.now ?? realMs;
  // Time never runs slower than the sleeps taken, so an instant (test) sleep cannot spin.
  let floor = -Infinity;
  const now = () => Math.max(clock(), floor);
  const windowMs = options.windowMs ?? 1000;
  const span = windowMs + JITTER_MS;
  let mode: 'unknown' | 'unlimited' | 'limited' = 'unknown';
  let limit = 0;
  /** Requests the observed window still allows, and when (at the latest) that window ends. */
  let available = 0;
  let windowEnd = 0;
  let inFlight = 0;
  /** Send times within the last `span`, oldest first (at most `limit` matter). */
  let sent: number[] = [];
  let waiters: (() => void)[] = [];

  const go = (t: number) => {
    if (mode !== 'unlimited') sent.push(t);
    available--;
    inFlight++;
  };

  return {
    async beforeRequest(signal) {
      for (;;) {
        signal?.throwIfAborted();
        const t = now();
        if (mode === 'unlimited' || (mode === 'unknown' && inFlight === 0)) return go(t);
        if (mode === 'unknown') {
          await abortable(new Promise<void>((r) => waiters.push(r)), signal);
          continue;
        }
        while (sent.length && sent[0] <= t - span) sent.shift();
        if (t >= windowEnd) available = Infinity;
        const slidingFree = sent.length >= limit ? sent[sent.length - limit] + span : t;
        const until = Math.max(slidingFree, available > 0 ? t : windowEnd);
        if (until <= t) return go(t);
        await abortableSleep(sleep, until - t, signal);
        floor = until;
      }
    },
    observe(headers) {
      inFlight = Math.max(0, inFlight - 1);
      const lim = int(headers?.['ratelimit-limit']);
      const remaining = int(headers?.['ratelimit-remaining']);
      const reset = int(headers?.['ratelimit-reset']);
      if (headers && (lim === undefined || remaining === undefined)) {
        mode = 'unlimited';
        sent = [];
      } else if (lim !== undefined && remaining !== undefined) {
        mode = 'limited';
        limit = Math.max(1, lim);
        available = remaining - inFlight;
        windowEnd = now() + (reset ?? windowMs / 1000) * 1000;
      }
      const wake = waiters;
      waiters = [];
      for (const w of wake) w();
    },
  };
}
