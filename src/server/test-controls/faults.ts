/**
 * `serve --test-controls` routes of injected faults (issue 25), what `confctl admin faults` does
 * for a harness without a shell: the same rules (contract/faults.ts), in the same store, so a
 * rule added here applies on every instance sharing the database too.
 */
import { type FaultRuleFields, type FaultRuleView, faultRuleView, parseFaultRule } from '../../contract/faults.js';
import type { ServiceStore } from '../../store/port.js';
import type { FaultRuleRecord } from '../../store/types.js';
import { retryBusy } from '../busy.js';
import { notFound, ValidationError } from '../errors.js';
import type { ResolvedOptions } from '../options.js';
import type { ControlRoute } from './routes.js';

const FIELDS = ['route', 'status', 'rate', 'latency', 'times', 'seed', 'tenant'];

/** A rule as the routes answer it: the view `admin faults list` prints. */
async function view(store: ServiceStore, rule: FaultRuleRecord): Promise<FaultRuleView> {
  const tenant = rule.tenant_id === null ? null : ((await store.tenants.get(rule.tenant_id))?.primary_domain ?? String(rule.tenant_id));
  return faultRuleView(rule, tenant);
}

/**
 * Runs a change of the rules as a request's write: retried while another process holds SQLite's
 * write lock, inside the open commit group, and answered once that group has committed.
 */
async function change<T>(options: ResolvedOptions, work: () => T | Promise<T>): Promise<T> {
  const { commits } = options.store;
  const mark = commits?.mark();
  const result = await retryBusy(() => {
    commits?.join();
    return work();
  }, options.now);
  if (commits && mark !== undefined) await commits.settled(mark);
  return result;
}

/** The rule's id from the path: a positive whole number, else no such rule (404, as decisions §2 answers an absent resource). */
function ruleId(text: string | undefined): number {
  if (!text || !/^[1-9][0-9]{0,15}$/.test(text)) throw notFound();
  return Number(text);
}

export const FAULT_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/faults',
    summary: 'lists the injected fault rules in the order they are tried: what each matched and fired, and what remains',
    handle: async ({ options }) => Promise.all((await options.store.faults.list()).map((rule) => view(options.store, rule))),
  },
  {
    method: 'POST',
    path: '/faults',
    summary: 'adds a fault rule: {"route": "POST /customers", "status": 503, "rate": 0.2, "latency": "2s", "times": 3, "tenant": "acme.test", "seed": 7}',
    handle: async ({ body, options }) => {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError({ body: ['The body must be a JSON object.'] });
      const fields = body as FaultRuleFields & { tenant?: unknown };
      const unknown = Object.keys(fields).filter((k) => !FIELDS.includes(k));
      const parsed = parseFaultRule(fields);
      const errors = 'errors' in parsed ? { ...parsed.errors } : {};
      for (const k of unknown) errors[k] = [`${k} is not a field of a fault rule (${FIELDS.join(', ')})`];
      let tenantId: number | null = null;
      if (fields.tenant !== undefined && fields.tenant !== null) {
        const tenant = typeof fields.tenant === 'string' ? await options.store.tenants.byDomain(fields.tenant.toLowerCase()) : undefined;
        if (tenant) tenantId = tenant.id;
        else errors.tenant = [`tenant must be a domain of a tenant of this instance, not ${JSON.stringify(fields.tenant)}`];
      }
      if (Object.keys(errors).length || !('rule' in parsed)) throw new ValidationError(errors);
      const rule = await change(options, () => options.store.faults.add({ ...parsed.rule, tenant_id: tenantId }));
      return view(options.store, rule);
    },
  },
  {
    method: 'DELETE',
    path: '/faults/{id}',
    summary: 'removes one fault rule',
    handle: async ({ params, options }) => {
      const id = ruleId(params.id);
      if (!(await change(options, () => options.store.faults.remove(id)))) throw notFound();
      return { removed: id };
    },
  },
  {
    method: 'DELETE',
    path: '/faults',
    summary: 'removes every fault rule',
    handle: async ({ options }) => ({ removed: await change(options, () => options.store.faults.clear()) }),
  },
];
