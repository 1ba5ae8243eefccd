import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRecordsOf } from '../../../src/cli/tenant/files.js';
import { yamlValues } from '../../../src/cli/tenant/yaml-values.js';
import type { Problem } from '../../../src/cli/tenant/model.js';

/** Plain scalars whose type differs between schemas: YAML 1.1, js-yaml's own core schema, the `yaml` package's. */
const SCALARS = [
  '~', 'null', 'Null', 'NULL', 'nULL', '', 'true', 'True', 'TRUE', 'tRUE', 'false', 'yes', 'no', 'on', 'off', 'y',
  '0', '007', '+12', '-12', '0o17', '0O17', '-0o17', '0x1F', '0X1F', '-0x1F', '0b101', '1_000', '99999999999999999999',
  '1.5', '1.', '.5', '-.5', '1e3', '1E-3', '+1.5e+2', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', 'NaN', 'inf',
  '2024-01-01', '2024-01-01T10:00:00Z', '12:30', '1:20:30', '<<', '=', 'Europe/Paris', '+44 20 7946 0958',
];

describe('yamlValues (js-yaml with the yaml package\'s core schema)', () => {
  it('reads every plain scalar as the yaml package does, as a value and as a key', () => {
    for (const s of SCALARS) {
      const text = `- value: ${s}\n  ${s || '""'}: key\n`;
      expect(Object.is((yamlValues(text)!.value as any)[0].value, parse(text)[0].value), s).toBe(true);
      // The one difference: a null key (`~: x`) is the key "null" here and "" there; both are unknown fields.
      if (!['~', 'null', 'Null', 'NULL'].includes(s)) expect(yamlValues(text), s).toEqual({ value: parse(text) });
      else expect([Object.keys((yamlValues(text)!.value as any)[0]), Object.keys(parse(text)[0])]).toEqual([['value', 'null'], ['value', '']]);
    }
  });

  it('reads quoted scalars, explicit core tags, aliases and a repeated key (the last wins) as the yaml package does', () => {
    const text = [
      '- a: "123"',
      "  b: '~'",
      '  c: !!str 12',
      '  d: !!int "12"',
      '  e: !!float "1.5"',
      '  hours: &h {monday: [{start: {hour: 9}}]}',
      '- a: 1',
      '  a: 2',
      '  hours: *h',
      '  text: |',
      '    two',
      '    lines',
    ].join('\n');
    expect(yamlValues(text)).toEqual({ value: parse(text, { uniqueKeys: false }) });
  });

  it('leaves to the yaml package what it would read otherwise: other tags, a %YAML directive, broken text', () => {
    expect(yamlValues('- !!binary aGk=')).toBeUndefined();
    expect(yamlValues('- !!timestamp 2024-01-01')).toBeUndefined();
    expect(yamlValues('- !mine x')).toBeUndefined();
    expect(yamlValues('%YAML 1.1\n---\n- yes')).toBeUndefined();
    expect(yamlValues('- a: [1, 2')).toBeUndefined();
    expect(yamlValues('- a\n---\n- b')).toBeUndefined();
  });
});

describe('YAML records', () => {
  const records = (text: string) => {
    const problems: Problem[] = [];
    return { records: readRecordsOf({ name: 'users.yaml', text }, 'yaml', problems), problems };
  };

  it('finds a record\'s lines, and its keys\', as the yaml package places them', () => {
    const { records: rs, problems } = records(['# users', '- email: a@x.test', '  first_name: A', '', '- email: b@x.test', '  work_hours:', '    monday: []'].join('\n'));
    expect(problems).toEqual([]);
    expect(rs.map((r) => r.value)).toEqual([{ email: 'a@x.test', first_name: 'A' }, { email: 'b@x.test', work_hours: { monday: [] } }]);
    expect(rs.map((r) => r.line)).toEqual([2, 5]);
    expect(rs[0].lineOf('first_name')).toBe(3);
    expect(rs[1].lineOf('work_hours.monday')).toBe(7);
    expect(rs[1].lineOf('nothing')).toBe(5);
  });

  it('reads YAML 1.2\'s core schema, or 1.1\'s under its directive (docs/tenant-as-code.md)', () => {
    expect(records('- a: yes\n  b: on\n  c: 2024-01-01\n  d: 0x1F\n  e: 0o17\n  f: 1\n  f: 2\n  g: &w {monday: []}\n- g: *w\n')).toEqual({
      records: [expect.objectContaining({ value: { a: 'yes', b: 'on', c: '2024-01-01', d: 31, e: 15, f: 2, g: { monday: [] } } }), expect.objectContaining({ value: { g: { monday: [] } } })],
      problems: [],
    });
    expect(records('%YAML 1.1\n---\n- a: yes\n').records.map((r) => r.value)).toEqual([{ a: true }]);
  });

  it('names broken YAML with the yaml package\'s message and line, and a file that is not a list', () => {
    expect(records('- email: a@x.test\n- email: [b\n').problems).toEqual([expect.objectContaining({ file: 'users.yaml', line: 3, message: expect.stringMatching(/^not valid YAML: Flow sequence in block collection must be sufficiently indented/) })]);
    expect(records('email: a@x.test\n').problems).toEqual([{ file: 'users.yaml', line: 1, message: 'the file must be a list of records (each starting with "- ")' }]);
    expect(records('# nothing yet\n')).toEqual({ records: [], problems: [] });
  });
});
