/**
 * The sending side of webhooks, run by `serve`: it claims due deliveries from the outbox (a lease,
 * so a second sender on the same database takes others), POSTs each with the §13 headers signed
 * afresh for the attempt, and records the attempt and what follows (delivered, retry at, failed).
 * It runs on either store: SQLite's outbox answers at once, PostgreSQL's with promises (where the
 * senders of every instance on one database share the outbox).
 *
 * It notices deliveries written by other processes (`admin` commands) by polling the store's
 * cheap `changeToken()`, and retries when they fall due on the instance clock (src/contract/clock.ts):
 * under a manual clock, a move past a retry time makes the next look send it. Nothing is kept only in memory: a sender
 * killed at any point leaves the outbox as it was, and the next one delivers what is left (one
 * claimed mid-attempt waits for its lease to run out).
 */
import { type Clock, instanceClock, realNow } from '../contract/clock.js';
import type { WebhookSenderStore } from '../store/port.js';
import type { ClaimedDelivery } from '../store/types.js';
import { ATTEMPT_TIMEOUT_MS, outcomeOf, PRUNE_EVERY_MS, RETENTION_MS, RETRY_DELAYS_MS } from './schedule.js';
import { signedHeaders } from './signature.js';

/** The answer to one POST: a status code, or why there was none. */
export type PostResult = { status: number } | { error: string };
export type Post = (url: string, headers: Record<string, string>, body: string, timeoutMs: number) => Promise<PostResult>;

export interface SenderOptions {
  store: WebhookSenderStore;
  /** The instance clock: due and retry times, attempt times, pruning, leases; default the process's. */
  clock?: Clock;
  /** The time a signature carries, which receivers check on their own clocks; default the real time. */
  signedAt?: () => Date;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** How often the loop looks for new or due deliveries (milliseconds). */
  pollMs?: number;
  /** Attempts in flight at once. */
  concurrency?: number;
  post?: Post;
  /** One line per attempt (never the secret or the body). */
  log?: (line: string) => void;
}

/** How long past its timeout a claimed attempt stays leased: room for recording the result. */
const LEASE_MARGIN_MS = 30_000;

/** POSTs with fetch: no redirects followed (a 3xx is not a success), the body discarded. */
export const fetchPost: Post = async (url, headers, body, timeoutMs) => {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'confctl-webhooks', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel();
    return { status: res.status };
  } catch (err) {
    return { error: describeError(err, timeoutMs) };
  }
};

function describeError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  if (e.cause?.code) return `${e.cause.code}: ${e.cause.message ?? e.message}`;
  return e.cause?.message ?? e.message ?? String(err);
}

/** SQLite's "database is locked": another process holds the write lock past the busy timeout. */
const isBusy = (err: unknown) => (err as { code?: unknown }).code === 'SQLITE_BUSY' || /database is locked/.test(String((err as Error)?.message));

export interface Sender {
  /** Claims and attempts every delivery due now; resolves with how many attempts were made. */
  drain(): Promise<number>;
  /** Starts polling (every `pollMs`). */
  start(): void;
  /** Looks now rather than at the next poll (the manual clock moved in this process); once per look under way. */
  wake(): void;
  /** Stops polling and waits for attempts in flight. */
  stop(): Promise<void>;
}

export function createSender(options: SenderOptions): Sender {
  const { store } = options;
  const clock = options.clock ?? instanceClock();
  const now = () => clock.now();
  const signedAt = options.signedAt ?? realNow;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const post = options.post ?? fetchPost;
  const concurrency = options.concurrency ?? 4;

  async function attempt(d: ClaimedDelivery): Promise<void> {
    const at = now();
    const result = await post(d.url, signedHeaders(d.secret, d.event_id, d.body, signedAt()), d.body, timeoutMs);
    const ok = 'status' in result && result.status >= 200 && result.status < 300;
    const outcome = outcomeOf(ok, d.attempt_count, now(), delays);
    const answer = 'status' in result ? String(result.status) : result.error;
    try {
      await store.webhookOutbox.settle(d.id, { at: at.toISOString(), status_code: 'status' in result ? result.status : null, error: 'error' in result ? result.error : null }, outcome);
    } catch (err) {
      // Unrecorded (the database busy or unreachable): the lease runs out and the delivery is tried again.
      options.log?.(`webhook delivery ${d.id} (${d.event_id}) to ${d.url}: ${answer}; not recorded (${(err as Error).message}), tried again once its lease runs out`);
      return;
    }
    const next = 'retryAt' in outcome ? `retry at ${outcome.retryAt}` : outcome.status;
    options.log?.(`webhook delivery ${d.id} (${d.event_id}) to ${d.url}: ${answer}; ${next}`);
  }

  async function drain(): Promise<number> {
    let made = 0;
    const inFlight = new Set<Promise<void>>();
    try {
      for (;;) {
        while (inFlight.size < concurrency) {
          const t = now();
          const claimed = await store.webhookOutbox.claim(t.toISOString(), new Date(t.getTime() + timeoutMs + LEASE_MARGIN_MS).toISOString());
          if (!claimed) break;
          made += 1;
          const p: Promise<void> = attempt(claimed).finally(() => inFlight.delete(p));
          inFlight.add(p);
        }
        if (inFlight.size === 0) return made;
        await Promise.race(inFlight);
      }
    } finally {
      // A claim that failed still lets the attempts under way finish (and be recorded) first.
      await Promise.allSettled(inFlight);
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let seen = '';
  let nextDue: string | undefined;
  let stopped = false;

  let prunedAt = Number.NEGATIVE_INFINITY;

  /**
   * Deletes finished deliveries older than the retention, at most once per PRUNE_EVERY_MS. A
   * failure (another process holding the write lock too long) is logged and tried next time.
   */
  async function pruneOld(): Promise<void> {
    const t = now().getTime();
    if (t - prunedAt < PRUNE_EVERY_MS) return;
    try {
      await store.webhookOutbox.prune(new Date(t - RETENTION_MS).toISOString());
      prunedAt = t;
    } catch (err) {
      if (!isBusy(err)) options.log?.(`webhook sender: pruning failed: ${(err as Error).message}`);
    }
  }

  /** Drains when the store changed (another process may have queued) or a retry fell due. */
  async function look(): Promise<void> {
    await clock.refresh?.();
    await pruneOld();
    const token = await store.changeToken();
    if (token !== seen || (nextDue !== undefined && nextDue <= now().toISOString())) {
      // Taken before draining: a write made meanwhile (ours included) moves it, and the next
      // poll looks again rather than miss another process's delivery.
      seen = token;
      await drain();
      nextDue = (await store.webhookOutbox.nextDue()) ?? undefined;
    }
  }

  /**
   * One look, then the next in `pollMs`; a failure (the database unreachable) is logged and the
   * loop goes on. A busy database (another process writing, e.g. `admin import`) is not worth a
   * line: the next poll simply looks again.
   */
  function poll(): void {
    running = look().catch((err: Error) => {
      if (!isBusy(err)) options.log?.(`webhook sender: ${err.message}`);
    });
    void running.finally(() => {
      if (!stopped) timer = setTimeout(poll, options.pollMs ?? 500);
    });
  }

  let waking = false;

  return {
    drain,
    wake() {
      if (stopped || waking) return;
      waking = true;
      // After the look under way (whose own `finally` set the next timer first): that timer is replaced.
      void running.finally(() => {
        waking = false;
        if (stopped) return;
        clearTimeout(timer);
        poll();
      });
    },
    start() {
      stopped = false;
      poll();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      clearTimeout(timer);
    },
  };
}
