/**
 * Injected faults (issue 25): what a rule is, how its flags or control-route body are read, and
 * the seeded sequence that picks the requests of a rate. Written once for the CLI
 * (`admin faults add`), the control routes and `serve`, which applies the rules.
 *
 * A rule names a route of the operation table, `METHOD PATH` with the table's path template
 * (`PATCH /users/{user_id}`), or `* PATH` for every method of the path. A request of that route
 * (of one tenant, with a tenant) is matched; the rate picks which matched requests get the fault.
 */
import { DURATION_UNITS, durationSyntax, formatDuration, parseDuration } from './duration.js';
import { MESSAGES } from './messages.js';
import { API_PREFIX, type HttpMethod, OPERATION_META } from './operations-meta.js';
import { closest } from './suggest.js';

/** The statuses a rule may answer, each with its decisions §2 body (plain text). */
export const FAULT_BODIES: Readonly<Record<number, string>> = {
  400: MESSAGES.badRequest,
  401: MESSAGES.invalidKey,
  404: MESSAGES.notFound,
  429: MESSAGES.tooManyRequests,
  500: MESSAGES.unexpected,
  503: MESSAGES.serviceBusy,
};
export const FAULT_STATUSES: readonly number[] = Object.keys(FAULT_BODIES).map(Number);

/** Statuses that carry `Retry-After` (whole seconds), as the real ones do. */
export const FAULT_RETRY_AFTER: Readonly<Record<number, string>> = { 429: '1', 503: '1' };

/** The header on every answer a rule touched, naming the rule: `X-Confctl-Fault: 3`. */
export const FAULT_HEADER = 'X-Confctl-Fault';

/** Seeds are 32-bit unsigned integers (the generator's state). */
export const MAX_FAULT_SEED = 0xffff_ffff;
export const DEFAULT_FAULT_SEED = 42;

/** A rule as stored, less what the store adds (id, counters, time). */
export interface FaultRuleSpec {
  /** An operation's method, or `*` for any. */
  method: HttpMethod | '*';
  /** An operation's path template, without the API prefix: `/users/{user_id}`. */
  path: string;
  /** The status answered instead of handling the request; null: handled normally (latency only). */
  status: number | null;
  /** The share of matched requests picked, above 0 and at most 1. */
  rate: number;
  /** Delay before the answer (the fault's, or the normal one), milliseconds; null for none. */
  latency_ms: number | null;
  /** How many picked requests get it before the rule is spent; null for no end. */
  times: number | null;
  seed: number;
}

/** A rule's fields as given: flag text from the CLI, JSON values from a control route. */
export interface FaultRuleFields {
  route?: unknown;
  status?: unknown;
  rate?: unknown;
  latency?: unknown;
  times?: unknown;
  seed?: unknown;
}

/** The problems of a rule's fields, by field name; each message names its field. */
export type FaultRuleErrors = Record<string, string[]>;

const METHODS: readonly string[] = [...new Set(OPERATION_META.map((op) => op.method))];
const PATHS: readonly string[] = [...new Set(OPERATION_META.map((op) => op.path))];
const methodsOf = (path: string) => OPERATION_META.filter((op) => op.path === path).map((op) => op.method);
/** A template as a pattern of concrete paths: `{user_id}` stands for one segment. */
const templatePattern = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
const ROUTE_EXAMPLE = "METHOD PATH, e.g. 'POST /customers' or '* /users/{user_id}'";

/** `route` as a method and path template of the table, or why it matches no route (with a "did you mean" where one is near). */
export function parseFaultRoute(route: string): { method: HttpMethod | '*'; path: string } | { error: string } {
  const parts = route.trim().split(/\s+/);
  if (parts.length !== 2 || !parts[1].startsWith('/')) return { error: `route must be ${ROUTE_EXAMPLE}, not '${route}'` };
  const method = parts[0].toUpperCase();
  let path = parts[1].split('?')[0];
  if (path.startsWith(`${API_PREFIX}/`)) path = path.slice(API_PREFIX.length);
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const refuse = (why: string) => ({ error: `route '${route}' matches no route: ${why}` });
  if (method !== '*' && !METHODS.includes(method)) {
    return refuse(method === 'HEAD' ? 'HEAD is answered as its GET, so name GET' : `the method must be one of ${METHODS.join(', ')} or *`);
  }
  if (!PATHS.includes(path)) {
    const concrete = PATHS.find((p) => templatePattern(p).test(path));
    const near = concrete ?? closest(path, PATHS);
    if (!near) return refuse(`no operation has the path ${path} ('confctl api --help' lists them)`);
    const methods = methodsOf(near);
    const suggestion = method === '*' || methods.includes(method as HttpMethod) ? `${method} ${near}` : `${methods[0]} ${near}`;
    return refuse(`did you mean '${suggestion}'?${concrete ? ' (a route names the path template, not one id)' : ''}`);
  }
  const methods = methodsOf(path);
  if (method !== '*' && !methods.includes(method as HttpMethod)) return refuse(`${path} takes ${methods.join(', ')}; did you mean '${methods[0]} ${path}'?`);
  return { method: method as HttpMethod | '*', path };
}

/** A whole number in [min, max] from a JSON number or its decimal text, else undefined. */
function wholeNumber(value: unknown, min: number, max: number): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

/**
 * A rule from its fields, or every problem found: `route` is required, and `status` or
 * `latency` (or both: the fault is answered after the delay). `rate` defaults to 1, `seed` to 42.
 */
export function parseFaultRule(fields: FaultRuleFields): { rule: FaultRuleSpec } | { errors: FaultRuleErrors } {
  const errors: FaultRuleErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const shown = (v: unknown) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v));

  let route: { method: HttpMethod | '*'; path: string } | undefined;
  if (typeof fields.route !== 'string' || fields.route.trim() === '') fail('route', `route is required: ${ROUTE_EXAMPLE}`);
  else {
    const parsed = parseFaultRoute(fields.route);
    if ('error' in parsed) fail('route', parsed.error);
    else route = parsed;
  }

  let status: number | null = null;
  if (fields.status !== undefined && fields.status !== null) {
    const n = wholeNumber(fields.status, 100, 599);
    if (n === undefined || !(n in FAULT_BODIES)) fail('status', `status must be one of ${FAULT_STATUSES.join(', ')}, not ${shown(fields.status)}`);
    else status = n;
  }

  let latency: number | null = null;
  if (fields.latency !== undefined && fields.latency !== null) {
    // A JSON number is a bare number: seconds.
    const text = typeof fields.latency === 'number' ? String(fields.latency) : fields.latency;
    const ms = typeof text === 'string' ? parseDuration(text, DURATION_UNITS) : undefined;
    if (ms === undefined || ms === 0) fail('latency', `latency must be a positive duration: ${durationSyntax()}, not ${shown(fields.latency)}`);
    else latency = ms;
  }
  if (fields.status == null && fields.latency == null) fail('status', 'give a status (the fault answered), a latency (a delay before the normal answer), or both');

  let rate = 1;
  if (fields.rate !== undefined && fields.rate !== null) {
    const n = typeof fields.rate === 'number' ? fields.rate : typeof fields.rate === 'string' && fields.rate.trim() !== '' ? Number(fields.rate) : NaN;
    if (!(n > 0 && n <= 1)) fail('rate', `rate must be a number above 0 and at most 1, not ${shown(fields.rate)}`);
    else rate = n;
  }

  let times: number | null = null;
  if (fields.times !== undefined && fields.times !== null) {
    const n = wholeNumber(fields.times, 1, 2 ** 31 - 1);
    if (n === undefined) fail('times', `times must be a whole number from 1, not ${shown(fields.times)}`);
    else times = n;
  }

  let seed = DEFAULT_FAULT_SEED;
  if (fields.seed !== undefined && fields.seed !== null) {
    const n = wholeNumber(fields.seed, 0, MAX_FAULT_SEED);
    if (n === undefined) fail('seed', `seed must be a whole number from 0 to ${MAX_FAULT_SEED}, not ${shown(fields.seed)}`);
    else seed = n;
  }

  if (Object.keys(errors).length || !route) return { errors };
  return { rule: { method: route.method, path: route.path, status, rate, latency_ms: latency, times, seed } };
}

/** `METHOD PATH` of a rule, as it was given. */
export const faultRoute = (rule: Pick<FaultRuleSpec, 'method' | 'path'>): string => `${rule.method} ${rule.path}`;

/**
 * The `n`-th number (from 1) of the mulberry32 generator seeded with `seed`, in [0, 1). The
 * generator's state after `n` steps is `seed + n × 0x6D2B79F5` (mod 2^32), so the number is a
 * function of `seed` and `n` alone: each instance sharing a database computes the same one for
 * the rule's `n`-th match, whichever instance counted it.
 */
export function faultDraw(seed: number, n: number): number {
  const a = (seed + Math.imul(n, 0x6d2b79f5)) | 0;
  let t = Math.imul(a ^ (a >>> 15), a | 1);
  t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** Whether a rule of `rate` and `seed` picks its `n`-th matched request. */
export const faultPicks = (rule: Pick<FaultRuleSpec, 'rate' | 'seed'>, n: number): boolean => rule.rate >= 1 || faultDraw(rule.seed, n) < rule.rate;

/**
 * How many requests a rule has answered with its fault (or delayed): with `times`, those taken;
 * else the picks among its `matched` requests, which the seeded sequence says.
 */
export function faultFired(rule: FaultRuleSpec & { matched: number; remaining: number | null }): number {
  if (rule.times !== null && rule.remaining !== null) return rule.times - rule.remaining;
  let fired = 0;
  for (let n = 1; n <= rule.matched; n++) if (faultPicks(rule, n)) fired++;
  return fired;
}

/** A stored rule as the CLI and the control routes show it. */
export interface FaultRuleView {
  id: number;
  route: string;
  status: number | null;
  rate: number;
  /** In the unit it reads best, exactly: `250ms`, `1500ms`, `2s`, `1m30s`. */
  latency: string | null;
  times: number | null;
  remaining: number | null;
  matched: number;
  fired: number;
  /** The tenant's primary domain; null for every tenant. */
  tenant: string | null;
  seed: number;
  created_at: string;
}

/** The view of a stored rule whose tenant (if any) has the primary domain `tenant`. */
export function faultRuleView(rule: FaultRuleSpec & { id: number; matched: number; remaining: number | null; created_at: string }, tenant: string | null): FaultRuleView {
  const ms = rule.latency_ms;
  return {
    id: rule.id,
    route: faultRoute(rule),
    status: rule.status,
    rate: rule.rate,
    latency: ms === null ? null : ms % 1000 ? `${ms}ms` : formatDuration(ms),
    times: rule.times,
    remaining: rule.remaining,
    matched: rule.matched,
    fired: faultFired(rule),
    tenant,
    seed: rule.seed,
    created_at: rule.created_at,
  };
}
