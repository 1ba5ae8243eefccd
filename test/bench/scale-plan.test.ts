import { describe, expect, it } from 'vitest';
import { cycle, listClasses, listPath, meetsGoal, noisyPaths, seedInstant, substrings } from '../../bench/lib/scale-plan.js';
import { percentile } from '../../bench/lib/stats.js';
import * as names from '../../src/admin/seed/names.js';

type ListClass = { name: string; table: string; goal: string; cold: string[]; warm: string };

describe('percentile', () => {
  it('answers the nearest-rank value: the smallest with at least p % at or below it', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(percentile(twenty, 50)).toBe(10);
    expect(percentile(twenty, 99)).toBe(20);
    expect(percentile(twenty, 95)).toBe(19);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([3, 1, 2], 100)).toBe(3);
    expect(() => percentile([], 50)).toThrow('percentile of no values');
  });
});

describe('scale plan helpers', () => {
  it('listPath encodes the query and leaves out undefined parameters', () => {
    expect(listPath('users', { filter_attribute: 'city_country', filter_value: 'Berlin, Germany', page_number: undefined })).toBe(
      '/api/public/v2.0/users?filter_attribute=city_country&filter_value=Berlin%2C%20Germany',
    );
    expect(listPath('customers')).toBe('/api/public/v2.0/customers');
  });

  it('substrings are distinct, lower-case letters only, in first-seen order', () => {
    expect(substrings(['Lovelace', 'van Rossum', 'Berners-Lee'], 3)).toEqual([
      'lov', 'ove', 'vel', 'ela', 'lac', 'ace', 'van', 'ros', 'oss', 'ssu', 'sum', 'ber', 'ern', 'rne', 'ner', 'ers', 'lee',
    ]);
    expect(substrings(['Aa', 'ab'], 1)).toEqual(['a', 'b']);
  });

  it('cycle repeats only after every value was used', () => {
    expect(cycle(['a', 'b', 'c'], 5)).toEqual(['a', 'b', 'c', 'a', 'b']);
    expect(() => cycle([], 1)).toThrow();
  });

  it('seedInstant is the seeder stamp n minutes after 2024-01-01', () => {
    expect(seedInstant(0)).toBe('2024-01-01T00:00:00.000Z');
    expect(seedInstant(61)).toBe('2024-01-01T01:01:00.000Z');
  });

  it('meetsGoal: cold p99 ≤ 100 ms (≤ 500 ms for 1–2 letter Contains) and warm p99 ≤ 20 ms', () => {
    expect(meetsGoal('list', { p99: 100 }, { p99: 20 })).toBe(true);
    expect(meetsGoal('list', { p99: 100.1 }, { p99: 1 })).toBe(false);
    expect(meetsGoal('list', { p99: 1 }, { p99: 20.5 })).toBe(false);
    expect(meetsGoal('short', { p99: 500 }, { p99: 20 })).toBe(true);
    expect(meetsGoal('short', { p99: 501 }, { p99: 1 })).toBe(false);
  });
});

describe('listClasses', () => {
  const samples = 20;
  const classes: ListClass[] = listClasses({
    users: 1_000_000,
    customers: 1_000_000,
    liveUsers: 950_000,
    liveCustomers: 950_010,
    samples,
    names,
    roles: ['Admin', 'Manager', 'Member'],
    departmentIds: Array.from({ length: 50 }, (_, i) => i + 1),
    sampled: { userEmails: ['a@x.example', 'b@x.example'], customerEmails: ['c@x.example'], contactNumbers: ['+15550000001'] },
  });
  const byName = (name: string) => {
    const found = classes.find((c) => c.name === name);
    if (!found) throw new Error(`no class ${name}`);
    return found;
  };
  const values = (c: ListClass) => c.cold.map((p) => new URL(p, 'http://x').searchParams.get('filter_value'));

  it('gives every class `samples` cold paths, a warm path among them, a table and a goal; names are unique', () => {
    expect(new Set(classes.map((c) => c.name)).size).toBe(classes.length);
    for (const c of classes) {
      expect(c.cold).toHaveLength(samples);
      expect(c.cold).toContain(c.warm);
      expect(['users', 'customers']).toContain(c.table);
      expect(c.cold.every((p) => p.startsWith(`/api/public/v2.0/${c.table}`))).toBe(true);
      expect(['list', 'short']).toContain(c.goal);
    }
  });

  it('pages: the last page from the live total, the middle half of it', () => {
    expect(byName('users: last page (63,334)').warm).toBe('/api/public/v2.0/users?page_number=63334');
    expect(byName('customers: last page (63,334)').warm).toBe('/api/public/v2.0/customers?page_number=63334');
    expect(byName('users: middle page (31,667)').warm).toBe('/api/public/v2.0/users?page_number=31667');
  });

  it('cold Contains values of three or more letters are all different (no cache of an earlier total can answer)', () => {
    for (const name of ['users: `last_name` Contains 3 letters (many rows)', 'users: `email` Contains `.N@` (few rows)', 'customers: `email` Contains `.N@` (few rows)', 'customers: `address` Contains a house and street (few rows)']) {
      const v = values(byName(name));
      expect(new Set(v).size, name).toBe(samples);
    }
    expect(values(byName('users: `last_name` Contains 3 letters (many rows)')).every((v) => v!.length === 3)).toBe(true);
    const short = byName('users: `last_name` Contains 1–2 letters');
    expect(short.goal).toBe('short');
    expect(new Set(values(short)).size).toBe(samples);
    expect(values(short).every((v) => v!.length >= 1 && v!.length <= 2)).toBe(true);
  });

  it('covers the issue\'s classes: Equal on the indexed attributes, dates, the department, with_trashed, address and city_country, each order at pages 1 and 1,000', () => {
    const names_ = classes.map((c) => c.name);
    for (const attribute of ['first_name', 'last_name', 'email', 'timezone', 'role', 'status', 'department_id', 'created_at']) expect(names_).toContain(`users: \`${attribute}\` Equal`);
    expect(names_).toContain('users: `department` Equal (the name)');
    expect(values(byName('users: `department` Equal (the name)'))).toEqual(names.BULK_DEPARTMENTS.slice(0, samples));
    expect(names_).toContain('users: `created_at` GreaterThan');
    expect(names_).toContain('customers: `created_at` LessThan');
    expect(byName('users: `with_trashed`, first page').warm).toBe('/api/public/v2.0/users?with_trashed=true');
    expect(names_).toContain('customers: `city_country` Contains');
    expect(values(byName('customers: `city_country` Contains'))).toContain('Berlin, Germany');
    for (const attribute of ['id', 'first_name', 'last_name', 'email', 'status', 'timezone', 'role', 'created_at', 'updated_at', 'deleted_at']) {
      expect(byName(`users: order by \`${attribute}\`, page 1,000`).cold[1]).toBe(`/api/public/v2.0/users?order_by=${attribute}&order_direction=desc&page_number=1000`);
    }
    expect(byName('customers: order by `city_country`, page 1').warm).toBe('/api/public/v2.0/customers?order_by=city_country&order_direction=asc');
  });

  it('noisyPaths: last_name Contains lists of three letters, varied', () => {
    const paths: string[] = noisyPaths(names, 40);
    expect(new Set(paths).size).toBe(40);
    expect(paths[0]).toBe('/api/public/v2.0/users?filter_attribute=last_name&filter_operator=Contains&filter_value=lov');
  });
});
