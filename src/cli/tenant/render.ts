/**
 * A plan as a human diff: `+` create or add, `~` update (field by field, old → new), `-` delete
 * or remove; then what is unmanaged, the notes and a one-line summary. Colour only when asked. No I/O.
 */
import type { Change, Plan } from './model.js';
import { countsOf } from './plan.js';

const COLORS = { '+': 32, '~': 33, '-': 31 } as const;
/** Unmanaged keys listed per kind before `… and N more`. */
const LIST_AT_MOST = 20;

const show = (v: unknown) => JSON.stringify(v ?? null);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function changeLines(c: Change): { sign: keyof typeof COLORS; head: string; detail: string[] } {
  const noun = c.kind !== 'attendee' ? `${c.kind} ${c.key}` : `attendee ${c.action === 'remove' ? c.email : c.body.email} of ${c.conference}`;
  switch (c.action) {
    case 'create': {
      const defaults = 'defaults' in c && c.defaults?.length ? ` (defaults: ${c.defaults.map((k) => `${k} ${show(c.body[k === 'department' ? 'department_id' : k])}`).join(', ')})` : '';
      return { sign: '+', head: `create ${noun}${defaults}`, detail: [] };
    }
    case 'update':
      return { sign: '~', head: `update ${noun}`, detail: Object.keys(c.after).map((k) => `${k}: ${show(c.before[k])} → ${show(c.after[k])}`) };
    case 'add':
      return { sign: '+', head: `add ${noun} (${show(c.body.name)})`, detail: [] };
    case 'remove':
      return { sign: '-', head: `remove ${noun}`, detail: [] };
    case 'delete':
      return { sign: '-', head: `delete ${noun} (${show(c.before.title)})`, detail: [] };
  }
}

/** The summary line: `Plan: 1 to create, 2 to update, 0 to delete, 3 attendees to add, 1 to remove; 4 unmanaged.` */
export function summaryLine(plan: Pick<Plan, 'changes' | 'unmanaged'>): string {
  const n = countsOf(plan);
  if (!plan.changes.length) return `No changes: the tenant matches the files${n.unmanaged ? ` (${n.unmanaged} unmanaged)` : ''}.`;
  return `Plan: ${n.create} to create, ${n.update} to update, ${n.delete} to delete, ${plural(n.add, 'attendee')} to add, ${n.remove} to remove; ${n.unmanaged} unmanaged.`;
}

/** The plan as text lines (without line ends). */
export function renderPlan(plan: Pick<Plan, 'changes' | 'unmanaged' | 'notes'>, options: { color: boolean }): string[] {
  const paint = (sign: keyof typeof COLORS, text: string) => (options.color ? `\x1b[${COLORS[sign]}m${text}\x1b[39m` : text);
  const lines: string[] = [];
  for (const c of plan.changes) {
    const { sign, head, detail } = changeLines(c);
    lines.push(paint(sign, `${sign} ${head}`));
    for (const d of detail) lines.push(`    ${d}`);
  }
  const unmanaged = Object.entries(plan.unmanaged as unknown as Record<string, string[]>).filter(([, keys]) => keys.length);
  if (unmanaged.length) {
    lines.push('', 'Unmanaged (in the tenant, not in the files; users and customers are never deleted):');
    for (const [kind, keys] of unmanaged) {
      const more = keys.length > LIST_AT_MOST ? ` … and ${keys.length - LIST_AT_MOST} more` : '';
      lines.push(`  ${kind}: ${keys.slice(0, LIST_AT_MOST).join(', ')}${more}`);
    }
  }
  if (plan.notes.length) lines.push('', 'Notes:', ...plan.notes.map((n) => `  ${n}`));
  lines.push('', summaryLine(plan));
  return lines;
}
