/**
 * The plan: every kind's diff in dependency order (people first, then conferences, the attendees
 * they gain, the attendees they lose, and last the conferences pruned), its counts, the guards
 * that refuse a plan bigger than expected, and the checks a saved plan must pass. No I/O.
 */
import { diffConferences } from './diff-conferences.js';
import { diffCustomers, diffUsers } from './diff-people.js';
import { type Change, type Desired, FORMAT_VERSION, KINDS, type Kind, type Plan, type Problem, type Snapshot, type Unmanaged } from './model.js';
import { foldKey } from './values.js';

export interface PlanInput {
  desired: Partial<Record<Kind, Desired[]>>;
  snapshot: Snapshot;
  prune: boolean;
  baseUrl: string;
  sources: string[];
  now: Date;
}

/** The plan, or the problems that keep it from being made (then no plan). */
export function makePlan(input: PlanInput): { plan?: Plan; problems: Problem[] } {
  const { desired, snapshot } = input;
  const problems: Problem[] = [];
  const changes: Change[] = [];
  const unmanaged: Unmanaged = { users: [], customers: [], conferences: [] };
  const notes: string[] = [];
  if (desired.users) {
    const d = diffUsers(desired.users, snapshot.users ?? [], { departments: snapshot.departments ?? [], roles: snapshot.roles ?? [] }, problems);
    changes.push(...d.changes);
    unmanaged.users = d.unmanaged;
  }
  if (desired.customers) {
    const d = diffCustomers(desired.customers, snapshot.customers ?? [], problems);
    changes.push(...d.changes);
    unmanaged.customers = d.unmanaged;
  }
  if (desired.conferences) {
    const creating = new Set(changes.filter((c) => c.kind === 'user' && c.action === 'create').map((c) => foldKey(c.key)));
    const d = diffConferences(desired.conferences, snapshot.conferences ?? [], { users: snapshot.users ?? [], accounts: snapshot.accounts ?? new Map(), creating, prune: input.prune }, problems);
    changes.push(...d.changes);
    unmanaged.conferences = d.unmanaged;
    notes.push(...d.notes);
  }
  if (problems.length) return { problems };
  const kinds = KINDS.filter((k) => desired[k]);
  const plan: Plan = { format_version: FORMAT_VERSION, created_at: input.now.toISOString(), base_url: input.baseUrl, sources: input.sources, kinds, prune: input.prune, changes, unmanaged, notes };
  return { plan, problems };
}

/** The step of the order a change runs in: every change of a step finishes before the next step starts. */
export function phaseOf(change: Change): number {
  if (change.kind === 'user' || change.kind === 'customer') return 0;
  if (change.kind === 'conference') return change.action === 'delete' ? 4 : 1;
  return change.action === 'add' ? 2 : 3;
}

export interface Counts {
  create: number;
  update: number;
  delete: number;
  add: number;
  remove: number;
  unmanaged: number;
}

export function countsOf(plan: Pick<Plan, 'changes' | 'unmanaged'>): Counts {
  const counts: Counts = { create: 0, update: 0, delete: 0, add: 0, remove: 0, unmanaged: 0 };
  for (const c of plan.changes) counts[c.action]++;
  counts.unmanaged = plan.unmanaged.users.length + plan.unmanaged.customers.length + plan.unmanaged.conferences.length;
  return counts;
}

/** Changes that take something away: attendees removed and conferences deleted. */
export const removals = (changes: readonly Change[]): number => changes.filter((c) => c.action === 'remove' || c.action === 'delete').length;

/** Why the guards refuse `changes`, or undefined when they allow it. */
export function guardProblem(changes: readonly Change[], guards: { maxChanges?: number; maxRemovals?: number }): string | undefined {
  if (guards.maxChanges !== undefined && changes.length > guards.maxChanges) return `the plan has ${changes.length} changes, more than --max-changes ${guards.maxChanges}`;
  const r = removals(changes);
  if (guards.maxRemovals !== undefined && r > guards.maxRemovals) return `the plan has ${r} removals, more than --max-removals ${guards.maxRemovals}`;
  return undefined;
}

/** A saved plan as read from JSON, or why it cannot be applied. */
export function checkPlan(value: unknown): { plan?: Plan; problem?: string } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { problem: 'the file is not a plan (a JSON object with format_version)' };
  const v = value as Partial<Plan>;
  if (v.format_version !== FORMAT_VERSION) return { problem: `the plan's format_version is ${JSON.stringify(v.format_version ?? null)}; this confctl applies format_version ${FORMAT_VERSION}` };
  if (!Array.isArray(v.changes) || !Array.isArray(v.kinds) || !v.unmanaged || typeof v.base_url !== 'string') return { problem: 'the plan lacks changes, kinds, unmanaged or base_url' };
  const bad = v.changes.findIndex((c) => !c || typeof c !== 'object' || !['user', 'customer', 'conference', 'attendee'].includes((c).kind) || typeof (c).key !== 'string');
  if (bad >= 0) return { problem: `change ${bad} of the plan is not one this confctl knows` };
  return { plan: { sources: [], notes: [], prune: false, ...v } as Plan };
}
