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

/**
 * Fixed one-second windows aligned to whole wall-clock seconds (decisions §5, §10), counted per
 * client (the access key id sent, or the remote address) and per tenant. Every request counts,
 * invalid ones included; a request already refused by its client limit does not also consume the
 * tenant's budget, so one noisy client cannot starve the others. Only the current window's
 * counters are kept: memory is bounded by the clients seen within one second.
 */
export class RateLimiter {
  private window = -1;
  private clients = new Map<string, number>();
  private tenants = new Map<number, number>();

  constructor(
    private readonly limits: RateLimitOptions,
    private readonly now: () => number,
  ) {}

  hit(tenantId: number, client: string): RateDecision {
    const ms = this.now();
    const window = Math.floor(ms / 1000);
    if (window !== this.window) {
      this.window = window;
      this.clients = new Map();
      this.tenants = new Map();
    }
    const reset = Math.max(1, Math.ceil(((window + 1) * 1000 - ms) / 1000));
    const key = client.length > MAX_CLIENT_ID ? client.slice(0, MAX_CLIENT_ID) : client;
    const clientCount = (this.clients.get(key) ?? 0) + 1;
    this.clients.set(key, clientCount);
    const clientRemaining = this.limits.client - clientCount;
    let tenantCount = this.tenants.get(tenantId) ?? 0;
    if (clientRemaining >= 0) this.tenants.set(tenantId, ++tenantCount);
    const tenantRemaining = this.limits.tenant - tenantCount;
    const allowed = clientRemaining >= 0 && tenantRemaining >= 0;
    // Report the limit closest to exhaustion (fewest remaining; the client's on a tie).
    const useTenant = tenantRemaining < clientRemaining;
    return {
      allowed,
      limit: useTenant ? this.limits.tenant : this.limits.client,
      remaining: Math.max(0, useTenant ? tenantRemaining : clientRemaining),
      reset,
    };
  }
}
