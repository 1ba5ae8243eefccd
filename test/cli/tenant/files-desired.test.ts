import { describe, expect, it } from 'vitest';
import { problemLine } from '../../../src/cli/tenant/desired.js';
import { fileKind } from '../../../src/cli/tenant/files.js';
import { read } from './fixtures.js';

describe('desired-state files', () => {
  it('tells the kind and format from the file name', () => {
    expect(fileKind('users.yaml')).toEqual({ kind: 'users', format: 'yaml' });
    expect(fileKind('customers-eu.csv')).toEqual({ kind: 'customers', format: 'csv' });
    expect(fileKind('conferences.yml')).toEqual({ kind: 'conferences', format: 'yaml' });
    expect(fileKind('users.jsonl')).toEqual({ kind: 'users', format: 'ndjson' });
    expect(fileKind('README.md')).toBeUndefined();
    expect(fileKind('people.yaml')).toBeUndefined();
  });

  it('names every problem with its file, line, key and field, not just the first', () => {
    const { desired, problems } = read('users', [
      '- email: not-an-email', // 1
      '  first_name: X',
      '  last_name: Y',
      '- email: ann@x.test', // 4
      '  last_name: L',
      '  colour: blue', // 6
      '- email: ANN@x.test', // 7
      '  first_name: A',
      '  last_name: L',
      '  timezone: Mars/Base', // 10
      '  work_hours:',
      '    sunday: []',
      '    monday:',
      '      - start: {hour: 9, minute: 0, second: 0}',
      '        end: {hour: 25, minute: 0, second: 0}', // 15
      '    tuesday: []',
      '    wednesday: []',
      '    thursday: []',
      '    friday: []',
      '    saturday: []',
      '  department: 7', // 21
    ].join('\n'));
    expect(desired).toEqual([]);
    expect(problems.map(problemLine)).toEqual([
      'users.yaml:1: not-an-email: email: The email field must be a valid email address.',
      'users.yaml:6: ann@x.test: colour: The colour field is unknown (users take email, first_name, last_name, department, role, timezone, work_hours, activate).',
      'users.yaml:4: ann@x.test: first_name: The first_name field is required.',
      'users.yaml:10: ANN@x.test: timezone: The timezone field must be a valid timezone.',
      'users.yaml:15: ANN@x.test: work_hours.monday.0.end.hour: The work_hours.monday.0.end.hour field must be between 0 and 24.',
      'users.yaml:21: ANN@x.test: department: The department field must be a string.',
      'users.yaml:7: ANN@x.test: email: The email has already been taken (also at users.yaml:4).',
    ]);
  });

  it('a record of a file is its object whole: keys left out are null; a sync record keeps only what it gives', () => {
    expect(read('users', '- {email: a@x.test, first_name: A, last_name: B}').desired[0].fields).toEqual({
      email: 'a@x.test', first_name: 'A', last_name: 'B', department: null, role: null, timezone: null, work_hours: null,
    });
    expect(read('users', '- {email: a@x.test, role: Admin}', 'yaml', true).desired[0].fields).toEqual({ email: 'a@x.test', role: 'Admin' });
    expect(read('conferences', '- {public_id: p, title: T, is_public: true, host: a@x.test}').desired[0].fields).toMatchObject({ account: null, attendees: [] });
  });

  it('reads YAML syntax errors, a file that is not a list, JSON and CSV with their lines', () => {
    const syntax = read('users', '- email: a@x.test\n  first_name: [A\n- email: b@x.test\n').problems;
    expect(syntax[0]).toMatchObject({ file: 'users.yaml', line: 3, message: expect.stringMatching(/^not valid YAML: /) });
    expect(read('users', 'email: a@x.test\n').problems.map(problemLine)).toEqual(['users.yaml:1: the file must be a list of records (each starting with "- ")']);
    expect(read('users', '').desired).toEqual([]);
    const aliased = read('customers', '- {email: a@x.test, first_name: A, last_name: B, address: &a {city: Rome}}\n- {email: b@x.test, first_name: A, last_name: B, address: *a}\n');
    expect(aliased.desired[1].fields.address).toEqual({ city: 'Rome' });
    const json = read('customers', '[\n  {"email": "a@c.test", "first_name": "A"},\n  {"email": "b@c.test", "first_name": "B", "last_name": "B"}\n]', 'json');
    expect(json.problems.map(problemLine)).toEqual(['customers.json:2: a@c.test: last_name: The last_name field is required.']);
    const csv = read('customers', 'email,first_name,last_name,contact_number,address.city\nb@c.test,B,C,12,Rome\n', 'csv');
    expect(csv.problems.map(problemLine)).toEqual(['customers.csv:2: b@c.test: contact_number: The contact_number field format is invalid.']);
    const users = read('users', `email,first_name,last_name,work_hours,activate\nu@x.test,U,V,"{""monday"":[]}",true\n`, 'csv');
    expect(users.problems.map((p) => p.field)).toEqual(['work_hours.sunday', 'work_hours.tuesday', 'work_hours.wednesday', 'work_hours.thursday', 'work_hours.friday', 'work_hours.saturday']);
  });

  it('checks conferences: public_id pattern, boolean, host e-mail, attendees, repeated keys', () => {
    const { problems } = read('conferences', [
      '- public_id: "bad id"',
      '  title: T',
      '  is_public: yes-please',
      '  host: nobody',
      '  attendees:',
      '    - {email: g@x.test}',
      '- {public_id: ok, title: T, is_public: false, host: h@x.test}',
      '- {public_id: OK, title: T, is_public: false, host: h@x.test}',
    ].join('\n'));
    expect(problems.map(problemLine)).toEqual([
      'conferences.yaml:1: bad id: public_id: The public_id field format is invalid.',
      'conferences.yaml:3: bad id: is_public: The is_public field must be true or false.',
      'conferences.yaml:4: bad id: host: The host field must be a valid email address.',
      'conferences.yaml:6: bad id: attendees.0.name: The attendees.0.name field is required.',
      'conferences.yaml:8: OK: public_id: The public_id has already been taken (also at conferences.yaml:7).',
    ]);
  });
});
