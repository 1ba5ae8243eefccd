import type { RateLimitOptions } from './options.js';

/** What a rate-limit check decided, and the `RateLimit-*` values to send. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window ends: with one-second windows aligned to the clock, always 1. */
  reset: number;
}

/** Client identifiers longer than this are cut, so a hostile header cannot bloat the table. */
const MAX_CLIENT_ID = 64;
/** Distinct clients tracked in one window; beyond it, new clients share one overflow bucket. */
export const MAX_CLIENTS_PER_WINDOW = 100_000;
const OVERFLOW = '\0overflow';

/**
 * Fixed one-second windows aligned to whole wall-clock seconds (decisions §5, §10), counted per
 * client bucket and per tenant. The caller picks the bucket: an authenticated request's key
 * (charged to its tenant too), or an unauthenticated request's address (charged to no tenant,
 * `tenantId` null), so nobody without a key's secret can spend that key's or tenant's budget.
 * A request already refused by its client limit does not also consume the tenant's budget.
 * Only the current window's counters are kept, and at most `MAX_CLIENTS_PER_WINDOW` of them.
 */
export class RateLimiter {
  private window = -1;
  private clients = new Map<string, number>();
  private tenants = new Map<number, number>();

  constructor(
    readonly limits: RateLimitOptions,
    private readonly now: () => number,
  ) {}

  /** Counts one request of `client` (and of `tenantId`, unless null) and decides whether it may proceed. */
  hit(tenantId: number | null, client: string): RateDecision {
    const reset = this.roll();
    const key = this.bucket(client);
    const clientCount = (this.clients.get(key) ?? 0) + 1;
    this.clients.set(key, clientCount);
    let tenantCount = tenantId === null ? 0 : (this.tenants.get(tenantId) ?? 0);
    if (tenantId !== null && clientCount <= this.limits.client) this.tenants.set(tenantId, ++tenantCount);
    return this.decision(clientCount, tenantId === null ? null : tenantCount, reset);
  }

  /**
   * The `RateLimit-*` values for a response the limiter did not count (an unknown route, host or
   * method, `openapi.json`): the current window as it stands, so every response carries them.
   */
  peek(tenantId: number | null, client: string): RateDecision {
    const reset = this.roll();
    const tenantCount = tenantId === null ? null : (this.tenants.get(tenantId) ?? 0);
    return { ...this.decision(this.clients.get(this.bucket(client)) ?? 0, tenantCount, reset), allowed: true };
  }

  /**
   * The decision for counts kept elsewhere (a database that several instances share: see
   * `SharedState.countRequest`), whose window is the second of `nowMs` on that clock.
   */
  fromCounts(counts: { client: number; tenant: number; nowMs: number }, counted = true): RateDecision {
    const d = this.decision(counts.client, counts.tenant, untilWindowEnds(counts.nowMs));
    return counted ? d : { ...d, allowed: true };
  }

  /** Starts a new window when the clock has moved on; answers the whole seconds until it ends. */
  private roll(): number {
    const ms = this.now();
    const window = Math.floor(ms / 1000);
    if (window !== this.window) {
      this.window = window;
      this.clients = new Map();
      this.tenants = new Map();
    }
    return untilWindowEnds(ms);
  }

  /** The table key of a client: cut to a bounded length, and the overflow bucket once the table is full. */
  private bucket(client: string): string {
    const key = client.length > MAX_CLIENT_ID ? client.slice(0, MAX_CLIENT_ID) : client;
    return this.clients.has(key) || this.clients.size < MAX_CLIENTS_PER_WINDOW ? key : OVERFLOW;
  }

  private decision(clientCount: number, tenantCount: number | null, reset: number): RateDecision {
    const clientRemaining = this.limits.client - clientCount;
    const tenantRemaining = tenantCount === null ? Infinity : this.limits.tenant - tenantCount;
    // Report the limit closest to exhaustion (fewest remaining; the client's on a tie).
    const useTenant = tenantRemaining < clientRemaining;
    return {
      allowed: clientRemaining >= 0 && tenantRemaining >= 0,
      limit: useTenant ? this.limits.tenant : this.limits.client,
      remaining: Math.max(0, useTenant ? tenantRemaining : clientRemaining),
      reset,
    };
  }
}

/** Whole seconds from `ms` until its one-second window ends: with windows aligned to the clock, always 1. */
function untilWindowEnds(ms: number): number {
  return Math.max(1, Math.ceil((Math.floor(ms / 1000 + 1) * 1000 - ms) / 1000));
}
