import { describe, expect, it } from 'vitest';
import { desiredOf } from '../../../src/cli/tenant/desired.js';
import { readRecordsOf } from '../../../src/cli/tenant/files.js';
import { defaultsFor, mappingOf, mapRecords, parseDefaultsSpec, parseMapSpec, USER_DEFAULTS } from '../../../src/cli/tenant/mapping.js';
import type { Problem } from '../../../src/cli/tenant/model.js';

const HR = 'Work Email,Given Name,Family Name,Dept,Active\nann@x.test,Ann,Lee,Sales,true\nbob@x.test,Bob,,,\n';
const raws = (text: string) => readRecordsOf({ name: 'hr.csv', text }, 'csv', []);

describe('sync mapping', () => {
  it('maps columns to fields (case-insensitive names); empty cells manage nothing', () => {
    const mapping = parseMapSpec('work email=email, Given Name=first_name,Family Name=last_name,Dept=department,Active=activate', 'users');
    const problems: Problem[] = [];
    const desired = desiredOf('users', mapRecords(raws(HR), 'users', mapping), problems, { partial: true });
    expect(problems).toEqual([]);
    expect(desired.map((d) => d.fields)).toEqual([
      { email: 'ann@x.test', first_name: 'Ann', last_name: 'Lee', department: 'Sales', activate: true },
      { email: 'bob@x.test', first_name: 'Bob' },
    ]);
    expect(desired[1].where).toMatchObject({ file: 'hr.csv', line: 3 });
  });

  it('without a mapping takes the columns named like fields; address parts by dotted columns', () => {
    const r = mapRecords(raws('email,first_name,Shoe Size,address.city\nc@x.test,C,44,Rome\n'), 'customers', undefined);
    expect(r[0].value).toEqual({ email: 'c@x.test', first_name: 'C', address: { city: 'Rome' } });
  });

  it('a mapping that fits no column is refused at once, naming the columns; so is a file with no e-mail', () => {
    expect(() => mapRecords(raws(HR), 'users', parseMapSpec('Mail=email,Dept=department', 'users'))).toThrow(
      "the mapping names a column the file does not have: 'Mail' (its columns: Work Email, Given Name, Family Name, Dept, Active)",
    );
    expect(() => mapRecords(raws(HR), 'users', parseMapSpec('Dept=department', 'users'))).toThrow(/^no column gives email, the key/);
    expect(() => parseMapSpec('Dept=dept', 'users')).toThrow("the mapping names 'dept', not a field of users");
    expect(() => parseMapSpec('Dept', 'users')).toThrow("--map takes COLUMN=field pairs separated by commas, not 'Dept'");
    expect(mappingOf({ 'Work Email': 'email' }, 'users')).toEqual([['Work Email', 'email']]);
  });

  it('defaults: built in for users, k=v pairs with JSON values, unknown keys refused', () => {
    expect(defaultsFor('users', {})).toEqual(USER_DEFAULTS);
    expect(USER_DEFAULTS).toMatchObject({ timezone: 'UTC', role: 'Member', department: null, activate: false });
    expect(parseDefaultsSpec('timezone=Europe/Paris,role=Manager,activate=true,work_hours={"monday":[],"sunday":[]}')).toEqual({
      timezone: 'Europe/Paris', role: 'Manager', activate: true, work_hours: { monday: [], sunday: [] },
    });
    expect(() => defaultsFor('customers', { shoe: 1 })).toThrow("--defaults names 'shoe', not a field of customers");
  });
});

describe('sync customers', () => {
  it("an address part from the file changes that part only; a file's address is the whole address", async () => {
    const { makePlan } = await import('../../../src/cli/tenant/plan.js');
    const { snapshot } = await import('./fixtures.js');
    const berlin = { line_1: '1 Main St', line_2: null, city: 'Berlin', region: null, region_code: null, country: 'Germany', country_code: 'DE', postal_code: null };
    const tenant = snapshot({ customers: [{ id: 7, email: 'cat@c.test', first_name: 'Cat', middle_name: null, last_name: 'C', contact_number: null, address: berlin }] });
    const problems: Problem[] = [];
    const synced = desiredOf('customers', mapRecords(raws('email,address.city\ncat@c.test,Hamburg\n'), 'customers', undefined), problems, { partial: true });
    const { plan } = makePlan({ desired: { customers: synced }, snapshot: tenant, prune: false, baseUrl: '', sources: [], now: new Date(0) });
    expect(plan!.changes[0]).toMatchObject({ after: { address: { ...berlin, city: 'Hamburg' } }, body: { address: { ...berlin, city: 'Hamburg' } } });
  });
});
