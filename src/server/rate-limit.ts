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

  /** Counts one request of `client` on `tenantId` and decides whether it may proceed. */
  hit(tenantId: number, client: string): RateDecision {
    const reset = this.roll();
    const key = clientKey(client);
    const clientCount = (this.clients.get(key) ?? 0) + 1;
    this.clients.set(key, clientCount);
    let tenantCount = this.tenants.get(tenantId) ?? 0;
    if (clientCount <= this.limits.client) this.tenants.set(tenantId, ++tenantCount);
    return this.decision(clientCount, tenantCount, reset);
  }

  /**
   * The `RateLimit-*` values for a response the limiter did not count (an unknown route, host or
   * method, `openapi.json`): the current window as it stands, so every response carries them.
   */
  peek(tenantId: number | undefined, client: string): RateDecision {
    const reset = this.roll();
    const tenantCount = tenantId === undefined ? 0 : (this.tenants.get(tenantId) ?? 0);
    return { ...this.decision(this.clients.get(clientKey(client)) ?? 0, tenantCount, reset), allowed: true };
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
    return Math.max(1, Math.ceil(((window + 1) * 1000 - ms) / 1000));
  }

  private decision(clientCount: number, tenantCount: number, reset: number): RateDecision {
    const clientRemaining = this.limits.client - clientCount;
    const tenantRemaining = this.limits.tenant - tenantCount;
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

const clientKey = (client: string) => (client.length > MAX_CLIENT_ID ? client.slice(0, MAX_CLIENT_ID) : client);
