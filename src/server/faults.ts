/**
 * Injected faults as `serve` applies them (issue 25; the rules: contract/faults.ts, stored by
 * `admin faults` or the control routes). The rule list is cached against the store's fault token,
 * so with no rules a request costs one comparison of the token, read with the tenancy token.
 */
import { FAULT_BODIES, FAULT_HEADER, FAULT_RETRY_AFTER, faultPicks } from '../contract/faults.js';
import type { OperationMeta } from '../contract/operations-meta.js';
import type { Awaitable, ServiceStore } from '../store/port.js';
import type { FaultRuleRecord } from '../store/types.js';
import { HttpError } from './errors.js';

/** What a rule does to the request it picked. */
export interface PickedFault {
  id: number;
  /** The status answered instead of handling the request, or null: handled normally. */
  status: number | null;
  latencyMs: number | null;
}

/**
 * The stored rules, in id order, and the choice of the rule that picks a request. A request of
 * the tenant `tenantId` for the operation `op` matches the rules that are not spent, name `op`'s
 * path with its method or `*`, and name no tenant or this one. They are tried in id order; each
 * counts the request as its next match (its `n`-th: the count is the store's, shared by every
 * instance on a database) and picks it when the `n`-th number of its seeded sequence is below
 * its rate (`faultPicks`). The first that picks it applies; later rules neither count nor draw.
 * A rule with `times` takes one of them, atomically, when it picks: a request that finds none
 * left is not faulted, and the rule is spent.
 */
export class FaultRules {
  private token: string | undefined;
  private rules: FaultRuleRecord[] = [];

  constructor(private readonly faults: ServiceStore['faults']) {}

  /** Reloads the rules when the token moved since the last call (once per request, with the tenancy token). */
  refresh(): Awaitable<void> {
    const token = this.faults.token();
    return token instanceof Promise ? token.then((t) => this.reload(t)) : this.reload(token);
  }

  private reload(token: string): Awaitable<void> {
    if (token === this.token) return;
    const rules = this.faults.list();
    const keep = (list: FaultRuleRecord[]) => {
      // Copies: the cache counts down its own `remaining`, and PostgreSQL's rows may be shared by other readers of the turn.
      this.rules = list.map((rule) => ({ ...rule }));
      this.token = token;
    };
    return rules instanceof Promise ? rules.then(keep) : keep(rules);
  }

  /** True when some rule may apply: without rules the pipeline skips `pick` altogether. */
  get active(): boolean {
    return this.rules.length > 0;
  }

  /** The rule that picks this request, counted as described above; `beforeWrite` runs before each count (SQLite: join the commit group). */
  async pick(op: Pick<OperationMeta, 'method' | 'path'>, tenantId: number, beforeWrite?: () => void): Promise<PickedFault | undefined> {
    for (const rule of this.rules) {
      if (rule.remaining === 0 || rule.path !== op.path || (rule.method !== '*' && rule.method !== op.method)) continue;
      if (rule.tenant_id !== null && rule.tenant_id !== tenantId) continue;
      const always = rule.rate >= 1;
      beforeWrite?.();
      const counted = await this.faults.count(rule.id, always && rule.times !== null);
      if (!counted) {
        rule.remaining = 0;
        continue;
      }
      rule.remaining = counted.remaining;
      if (!always && !faultPicks(rule, counted.matched)) continue;
      if (!always && rule.times !== null) {
        beforeWrite?.();
        if (!(await this.faults.spend(rule.id))) {
          rule.remaining = 0;
          continue;
        }
        rule.remaining = Math.max(0, (rule.remaining ?? 1) - 1);
      }
      return { id: rule.id, status: rule.status, latencyMs: rule.latency_ms };
    }
    return undefined;
  }
}

/** The answer of a picked fault's status: its decisions §2 body, `Retry-After` on 429 and 503, and the header naming the rule. */
export function faultError(fault: PickedFault & { status: number }): HttpError {
  const headers: Record<string, string> = { [FAULT_HEADER]: String(fault.id) };
  const retryAfter = FAULT_RETRY_AFTER[fault.status];
  if (retryAfter) headers['Retry-After'] = retryAfter;
  return new HttpError(fault.status, FAULT_BODIES[fault.status], headers);
}
