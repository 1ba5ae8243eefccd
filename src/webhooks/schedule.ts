/**
 * The retry schedule of decisions §13: a delivery that fails (not 2xx, a timeout, a refused
 * connection) is tried again 10 s, 30 s, 2 min and 10 min later, five attempts in all, then it
 * is marked failed. Pure: the clock and the delays are parameters, so tests never wait them out.
 */

export const RETRY_DELAYS_MS: readonly number[] = [10_000, 30_000, 120_000, 600_000];

/** How long one attempt may take before it counts as failed. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export type Outcome = { status: 'delivered' | 'failed' } | { retryAt: string };

/**
 * What follows an attempt: `attemptsBefore` is how many attempts of this round came before it.
 * After `delays.length` retries a failure is final.
 */
export function outcomeOf(ok: boolean, attemptsBefore: number, now: Date, delays: readonly number[] = RETRY_DELAYS_MS): Outcome {
  if (ok) return { status: 'delivered' };
  const delay = delays[attemptsBefore];
  return delay === undefined ? { status: 'failed' } : { retryAt: new Date(now.getTime() + delay).toISOString() };
}

/**
 * A schedule written as comma-separated delays in milliseconds (`100,200,300,400`), as
 * `CONFCTL_WEBHOOK_RETRY_DELAYS` gives it (for tests and demonstrations); undefined for an
 * invalid one.
 */
export function parseDelays(text: string): number[] | undefined {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^[0-9]+$/.test(p))) return undefined;
  return parts.map(Number);
}

/** Finished deliveries (delivered, failed, canceled) are kept this long, then pruned by `serve`. */
export const RETENTION_MS = 30 * 24 * 3600 * 1000;

/** How often `serve` prunes. */
export const PRUNE_EVERY_MS = 3600 * 1000;
