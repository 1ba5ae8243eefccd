import { describe, expect, it } from 'vitest';
import { Document, isScalar, visit } from 'yaml';
import { exportRecords, exportText } from '../../../src/cli/tenant/export.js';
import { KINDS, type Plan } from '../../../src/cli/tenant/model.js';
import { makePlan } from '../../../src/cli/tenant/plan.js';
import { renderPlan } from '../../../src/cli/tenant/render.js';
import { NO_HOURS, OFFICE, read, snapshot, user } from './fixtures.js';

describe('export', () => {
  it.each(['yaml', 'json', 'csv'] as const)('%s files of the tenant plan no change when read back', (format) => {
    const tenant = snapshot({ users: [user(1, 'ann@x.test'), user(3, 'cy@x.test', { department_id: null, department_name: null, timezone: null, work_hours: null })] });
    const desired = Object.fromEntries(
      KINDS.filter((k) => format !== 'csv' || k !== 'conferences').map((kind) => {
        const { desired, problems } = read(kind, exportText(exportRecords(tenant, kind), kind, format), format);
        expect(problems).toEqual([]);
        return [kind, desired];
      }),
    );
    const { plan } = makePlan({ desired, snapshot: tenant, prune: false, baseUrl: '', sources: [], now: new Date(0) });
    expect(plan!.changes).toEqual([]);
    expect(plan!.unmanaged).toEqual({ users: [], customers: [], conferences: [] });
  });

  it('writes no ids or server-made fields; a host with several accounts names the account', () => {
    const tenant = snapshot({ accounts: new Map([[1, [{ id: 10, name: 'Ann room' }, { id: 13, name: 'Other' }]]]) });
    expect(exportRecords(tenant, 'conferences')).toEqual([{ public_id: 'weekly', title: 'T', is_public: true, host: 'ann@x.test', account: 'Ann room', attendees: [{ email: 'bob@x.test', name: 'Bob' }] }]);
    expect(exportText(exportRecords(tenant, 'customers'), 'customers', 'csv')).toBe(
      'email,first_name,middle_name,last_name,contact_number,address.line_1,address.line_2,address.city,address.region,address.region_code,address.country,address.country_code,address.postal_code\ncat@c.test,Cat,,C,,,,,,,,,\n',
    );
  });
});

/** How export wrote YAML before it wrote each distinct week once: one document of all records. */
function oneDocument(records: unknown[]): string {
  const doc = new Document(records);
  visit(doc, {
    Map(_, node) {
      if (node.items.some((p) => isScalar(p.key) && p.key.value === 'hour')) node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}

describe('export as YAML, each distinct week written once', () => {
  const at = (hour: number, minute = 0) => ({ hour, minute, second: 0 });
  const WEEKS: unknown[] = [
    OFFICE,
    NO_HOURS,
    { ...NO_HOURS, tuesday: [{ start: at(8, 30), end: at(12) }, { start: at(13), end: at(17, 45) }] },
    { monday: [{ end: at(17), start: at(9) }], sunday: [] },
    {},
    { monday: [] },
    { monday: 'weird: text', tuesday: [1, 'two', null, true] },
    { monday: [{ start: at(NaN), end: at(17) }] },
    { monday: [{ start: { hour: null, minute: 0, second: 0 }, end: at(17) }] },
    null,
    undefined,
    'not a week',
  ];
  const NAMES = ['Ann', 'Bo Li', "O'Neil", 'null', 'yes', '123', 'Zoë', ' padded ', 'a: b', '#tag', '- dash', ''];

  it('writes what one document of all the records writes, whatever the weeks, their key\'s place and the values beside them', () => {
    const records = Array.from({ length: 120 }, (_, i) => {
      const week = WEEKS[i % WEEKS.length];
      const fields: Record<string, unknown> = { email: `u${i}@x.test`, first_name: NAMES[i % NAMES.length], last_name: NAMES[(i * 7) % NAMES.length], role: i % 3 ? 'Member' : null };
      const copy = week && typeof week === 'object' ? structuredClone(week) : week;
      // work_hours last as export writes it, first, or in the middle.
      return i % 5 === 0 ? { work_hours: copy, ...fields } : i % 5 === 1 ? { email: fields.email, work_hours: copy, first_name: fields.first_name } : { ...fields, work_hours: copy };
    });
    expect(exportText(records, 'users', 'yaml')).toBe(oneDocument(records));
    expect(exportText(records.slice(0, 1), 'users', 'yaml')).toBe(oneDocument(records.slice(0, 1)));
    expect(exportText([{ email: 'a@x.test', work_hours: { monday: [] } }], 'users', 'yaml')).toBe('- email: a@x.test\n  work_hours:\n    monday: []\n');
  });
});

describe('the human diff', () => {
  const plan: Pick<Plan, 'changes' | 'unmanaged' | 'notes'> = {
    changes: [
      { kind: 'user', action: 'create', key: 'n@x.test', body: { department_id: null, role: 'Member' }, defaults: ['role', 'department'] },
      { kind: 'user', action: 'update', key: 'a@x.test', target_id: 1, before: { role: 'Member', last_name: 'L' }, after: { role: 'Admin' }, body: {} },
      { kind: 'attendee', action: 'add', key: 'w g@x.test', conference: 'w', conference_id: 5, body: { email: 'g@x.test', name: 'G' } },
      { kind: 'attendee', action: 'remove', key: 'w o@x.test', conference: 'w', conference_id: 5, attendee_id: 9, email: 'o@x.test' },
      { kind: 'conference', action: 'delete', key: 'old', target_id: 4, before: { title: 'Old', is_public: true } },
    ],
    unmanaged: { users: Array.from({ length: 22 }, (_, i) => `u${i}@x.test`), customers: [], conferences: [] },
    notes: ['a note'],
  };

  it('shows +, ~ and -, old → new per field, unmanaged keys, notes and the counts', () => {
    expect(renderPlan(plan, { color: false })).toEqual([
      '+ create user n@x.test (defaults: role "Member", department null)',
      '~ update user a@x.test',
      '    role: "Member" → "Admin"',
      '+ add attendee g@x.test of w ("G")',
      '- remove attendee o@x.test of w',
      '- delete conference old ("Old")',
      '',
      'Unmanaged (in the tenant, not in the files; users and customers are never deleted):',
      `  users: ${Array.from({ length: 20 }, (_, i) => `u${i}@x.test`).join(', ')} … and 2 more`,
      '',
      'Notes:',
      '  a note',
      '',
      'Plan: 1 to create, 1 to update, 1 to delete, 1 attendee to add, 1 to remove; 22 unmanaged.',
    ]);
  });

  it('colours only when asked', () => {
    const lines = renderPlan(plan, { color: true });
    expect(lines[0]).toBe('\x1b[32m+ create user n@x.test (defaults: role "Member", department null)\x1b[39m');
    expect(lines[1]).toBe('\x1b[33m~ update user a@x.test\x1b[39m');
    expect(lines[4]).toBe('\x1b[31m- remove attendee o@x.test of w\x1b[39m');
    expect(renderPlan({ changes: [], unmanaged: { users: [], customers: [], conferences: [] }, notes: [] }, { color: false })).toEqual(['', 'No changes: the tenant matches the files.']);
  });
});
