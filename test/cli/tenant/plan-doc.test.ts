import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMAT_VERSION, type Change } from '../../../src/cli/tenant/model.js';
import { checkPlan, makePlan } from '../../../src/cli/tenant/plan.js';
import { read, snapshot } from './fixtures.js';

/** The plan JSON example of docs/tenant-as-code.md, held to what the code writes. */
function documentedPlan(): Record<string, any> {
  const guide = readFileSync(resolve(__dirname, '../../../docs/tenant-as-code.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## The plan file'));
  const block = /```json\n([\s\S]*?)\n```/.exec(section);
  expect(block, 'the plan file section has a json block').not.toBeNull();
  return JSON.parse(block![1]) as Record<string, any>;
}

/** A real plan with every kind of change the example shows. */
function realPlan() {
  const users = read('users', [
    '- {email: ann@x.test, first_name: F, last_name: Changed, department: Engineering, role: Member, timezone: UTC, work_hours: {sunday: [], monday: [{start: {hour: 9, minute: 0, second: 0}, end: {hour: 17, minute: 0, second: 0}}], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: []}}',
    '- {email: new@x.test, first_name: N, last_name: P, role: Member, timezone: UTC, work_hours: {sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: []}}',
  ].join('\n')).desired.map((d, i) => (i === 1 ? { ...d, defaults: { activate: false } } : d));
  const conferences = read('conferences', [
    '- {public_id: weekly, title: T, is_public: true, host: ann@x.test, attendees: [{email: eve@x.test, name: Eve}]}',
    '- {public_id: fresh, title: F, is_public: false, host: ann@x.test}',
  ].join('\n')).desired;
  const { plan } = makePlan({ desired: { users, conferences }, snapshot: snapshot(), prune: false, baseUrl: 'http://h', sources: ['t/'], now: new Date(0) });
  return plan!;
}

const keysOf = (v: object) => Object.keys(v).sort();

describe('the documented plan format', () => {
  it('is format_version 1 with the top-level keys the code writes, and apply accepts it', () => {
    const example = documentedPlan();
    expect(example.format_version).toBe(FORMAT_VERSION);
    expect(keysOf(example)).toEqual(keysOf(realPlan()));
    expect(keysOf(example.unmanaged)).toEqual(keysOf(realPlan().unmanaged));
    expect(checkPlan(example).problem).toBeUndefined();
  });

  it('shows each kind of change with exactly the keys (and body keys) the code writes for it', () => {
    const real = realPlan().changes;
    const shape = (c: Change) => `${c.kind} ${c.action}`;
    for (const change of documentedPlan().changes as Change[]) {
      const twin = real.find((r) => shape(r) === shape(change));
      expect(twin, `the code makes a ${shape(change)}`).toBeDefined();
      expect(keysOf(change), shape(change)).toEqual(keysOf(twin!));
      if ('body' in change) expect(keysOf(change.body), `${shape(change)} body`).toEqual(keysOf((twin as { body: object }).body));
      if ('before' in change) expect(keysOf(change.before), `${shape(change)} before`).toEqual(keysOf((twin as { before: object }).before));
    }
    expect(new Set((documentedPlan().changes as Change[]).map(shape))).toEqual(new Set(['user update', 'user create', 'conference create', 'attendee add', 'attendee remove']));
  });

  it('explains in its table every key the example holds', () => {
    const guide = readFileSync(resolve(__dirname, '../../../docs/tenant-as-code.md'), 'utf8');
    const table = guide.slice(guide.indexOf('## The plan file')).split('\n').filter((l) => l.startsWith('| `'));
    const explained = new Set(table.flatMap((row) => [...row.split('|')[1].matchAll(/`(?:changes\[\]\.)?([a-z_]+)`/g)].map((m) => m[1])));
    const example = documentedPlan();
    const changeKeys = new Set((example.changes as object[]).flatMap((c) => Object.keys(c)));
    const explainedElsewhere = ['kind', 'action', 'after', 'body'];
    expect([...Object.keys(example), ...changeKeys].filter((k) => !explained.has(k) && !explainedElsewhere.includes(k))).toEqual([]);
  });
});
