import { describe, expect, it } from 'vitest';
import { desiredOf } from '../../../src/cli/tenant/desired.js';
import { readRecordsOf } from '../../../src/cli/tenant/files.js';
import { defaultsFor, mappingOf, mapRecords, parseDefaultsSpec, parseMapSpec, syncKeyOf, USER_DEFAULTS } from '../../../src/cli/tenant/mapping.js';
import { problemLine } from '../../../src/cli/tenant/desired.js';
import { makePlan } from '../../../src/cli/tenant/plan.js';
import { snapshot, user } from './fixtures.js';
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

describe('sync --key', () => {
  const ROSTER = 'Staff Id,Work Email,Given Name,Family Name\n1,ann.new@x.test,,Lee\n3,,,Cy\n,new@x.test,Nia,New\n,bob@x.test,,Bee\n';
  const MAP = parseMapSpec('Staff Id=id,Work Email=email,Given Name=first_name,Family Name=last_name', 'users');
  const tenant = snapshot({ users: [user(1, 'ann@x.test'), user(2, 'bob@x.test'), user(3, 'cy@x.test')] });
  const syncPlan = (text: string, key: 'email' | 'id', mapping = MAP) => {
    const problems: Problem[] = [];
    const desired = desiredOf('users', mapRecords(raws(text), 'users', mapping, key), problems, { partial: true, matchById: key === 'id' })
      .map((d) => ({ ...d, defaults: USER_DEFAULTS }));
    if (problems.length) return { problems };
    return makePlan({ desired: { users: desired }, snapshot: tenant, prune: false, baseUrl: '', sources: [], now: new Date(0) });
  };

  it('is email or id, or a column mapped to one of them; any other field is refused, saying why', () => {
    expect(syncKeyOf(undefined, MAP, 'users')).toBe('email');
    expect(syncKeyOf('id', undefined, 'users')).toBe('id');
    expect(syncKeyOf('staff id', MAP, 'users')).toBe('id');
    expect(() => syncKeyOf('Family Name', MAP, 'users')).toThrow(
      "--key 'Family Name' (mapped to last_name) cannot match users: the API keeps users unique only by email (ignoring case) and by id, so only those can match a record to one of them (--key email or --key id)",
    );
    expect(() => syncKeyOf('employee_number', undefined, 'customers')).toThrow("--key 'employee_number' cannot match customers: the API keeps customers unique only by email");
  });

  it('an id column is read only with --key id, and then it must be given', () => {
    expect(() => mapRecords(raws(ROSTER), 'users', MAP, 'email')).toThrow('the mapping gives id, which only matches records to the tenant\'s: add --key id');
    expect(() => mapRecords(raws(ROSTER), 'users', parseMapSpec('Work Email=email', 'users'), 'id')).toThrow(/^no column gives id, the key .*e\.g\. --map "Staff Id=id"/);
  });

  it('by id: an e-mail may change, a row without an id matches by e-mail or is created, and the rest are unmanaged', () => {
    const r = syncPlan(ROSTER, 'id');
    expect(r.problems).toEqual([]);
    expect(r.plan!.changes.map((c) => [c.action, c.key, 'after' in c ? c.after : undefined])).toEqual([
      ['update', 'ann@x.test', { email: 'ann.new@x.test', last_name: 'Lee' }],
      ['update', 'cy@x.test', { last_name: 'Cy' }],
      ['create', 'new@x.test', undefined],
      ['update', 'bob@x.test', { last_name: 'Bee' }],
    ]);
    expect(r.plan!.changes[0]).toMatchObject({ target_id: 1, body: { email: 'ann.new@x.test', last_name: 'Lee', first_name: 'F' } });
    expect(r.plan!.unmanaged.users).toEqual([]);
    // By e-mail (the default), the same people without the id column: Ann's new address is somebody new.
    const byEmail = syncPlan('Work Email,Given Name,Family Name\nann.new@x.test,Ann,Lee\n', 'email', parseMapSpec('Work Email=email,Given Name=first_name,Family Name=last_name', 'users'));
    expect(byEmail.plan!.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['create ann.new@x.test']);
    expect(byEmail.plan!.unmanaged.users).toEqual(['ann@x.test', 'bob@x.test', 'cy@x.test']);
  });

  it('by id: an id no live row has, a bad or repeated id, and an e-mail another row holds are plan problems with their lines', () => {
    const MAP = parseMapSpec('Staff Id=id,Work Email=email,Family Name=last_name', 'users');
    const r = syncPlan('Staff Id,Work Email,Family Name\n99,,X\nseven,,Y\n1,bob@x.test,Z\n3,,C\n3,,D\n', 'id', MAP);
    expect(r.problems.map(problemLine)).toEqual([
      'hr.csv:3: id: The id field must be an integer.',
      'hr.csv:6: id 3: id: The id has already been taken (also at hr.csv:5).',
    ]);
    const s = syncPlan('Staff Id,Work Email,Family Name\n99,,X\n1,BOB@x.test,Z\n', 'id', MAP);
    expect(s.problems.map(problemLine)).toEqual([
      'hr.csv:2: id 99: id: The selected id is invalid: no user of the tenant (not deleted) has id 99, and the API makes ids itself.',
      'hr.csv:3: BOB@x.test: email: The email has already been taken (by user id 2).',
    ]);
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
