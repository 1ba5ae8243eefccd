import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/errors.js';
import { parseFilter, parseFilters, parseSort } from '../../src/cli/filter.js';
import { withProfile } from './helpers.js';
import { CUSTOMER_LIST, USER_LIST } from '../../src/contract/list-query.js';

describe('parseFilter', () => {
  it.each([
    ['email=ada@acme.com', 'email', 'Equal', 'ada@acme.com'],
    ['email!=ada@acme.com', 'email', 'NotEqual', 'ada@acme.com'],
    ['email~@acme.com', 'email', 'Contains', '@acme.com'],
    ['id>10', 'id', 'GreaterThan', '10'],
    ['id>=10', 'id', 'GreaterThanOrEqual', '10'],
    ['created_at<2026-01-01', 'created_at', 'LessThan', '2026-01-01'],
    ['created_at<=2026-01-01T10:00:00Z', 'created_at', 'LessThanOrEqual', '2026-01-01T10:00:00Z'],
    ['role = Admin ', 'role', 'Equal', 'Admin'],
    ['first_name=a=b', 'first_name', 'Equal', 'a=b'],
  ])('%s', (expr, attribute, operator, value) => {
    expect(parseFilter(expr, USER_LIST)).toEqual({ filter_attribute: attribute, filter_operator: operator, filter_value: value });
  });

  it('reads :null and :notnull without a value', () => {
    expect(parseFilter('deleted_at:null', USER_LIST)).toEqual({ filter_attribute: 'deleted_at', filter_operator: 'IsNull' });
    expect(parseFilter('timezone:notnull', USER_LIST)).toEqual({ filter_attribute: 'timezone', filter_operator: 'NotNull' });
  });

  it('names the allowed attributes of the list for an unknown one', () => {
    expect(() => parseFilter('middle_name=x', USER_LIST)).toThrow(UsageError);
    try {
      parseFilter('zip=1', CUSTOMER_LIST);
    } catch (err) {
      expect((err as UsageError).message).toBe("cannot filter by 'zip'");
      expect((err as UsageError).hint).toContain('city_country');
      expect((err as UsageError).exitCode).toBe(2);
    }
    expect.assertions(4);
  });

  it.each(['email', '1abc=x', '=x', 'email^x', 'email:empty', 'email=', 'id>'])('rejects %j', (expr) => {
    expect(() => parseFilter(expr, USER_LIST)).toThrow(UsageError);
  });

  it('checks values against the attribute type before any request (Contains takes any text)', () => {
    expect(() => parseFilter('id>abc', USER_LIST)).toThrow("'id' compares whole numbers, not 'abc'");
    expect(() => parseFilter('status=1.5', USER_LIST)).toThrow(UsageError);
    expect(() => parseFilter('created_at>=yesterday', USER_LIST)).toThrow("'created_at' compares ISO 8601 dates, not 'yesterday'");
    expect(() => parseFilter('updated_at<2026-02-30', USER_LIST)).toThrow(UsageError);
    expect(parseFilter('id~12', USER_LIST)).toEqual({ filter_attribute: 'id', filter_operator: 'Contains', filter_value: '12' });
    expect(parseFilter('created_at~2026-01', USER_LIST).filter_value).toBe('2026-01');
    expect(parseFilter('id!=-3', USER_LIST).filter_value).toBe('-3');
  });
});

describe('parseSort', () => {
  it('reads direction from a leading -', () => {
    expect(parseSort('-created_at', USER_LIST)).toEqual({ order_by: 'created_at', order_direction: 'desc' });
    expect(parseSort('last_name', CUSTOMER_LIST)).toEqual({ order_by: 'last_name', order_direction: 'asc' });
  });
  it('rejects attributes outside the order list', () => {
    expect(() => parseSort('department', USER_LIST)).toThrow(/cannot sort by 'department'/);
  });
});

describe('a doubled comparison sign', () => {
  it.each(['email==x', 'email!==x', 'id>==3', 'role <== b'])('%j is a usage error listing the operators, not a search for "=…"', (expr) => {
    try {
      parseFilter(expr, USER_LIST);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).message).toMatch(/is not an operator/);
      expect((err as UsageError).hint).toContain('attr!=value');
      expect((err as UsageError).hint).toContain('attr:notnull');
    }
  });
  it('a value may still hold = after its first character, and Contains may start with =', () => {
    expect(parseFilter('first_name=a=b', USER_LIST).filter_value).toBe('a=b');
    expect(parseFilter('email~=x', USER_LIST).filter_value).toBe('=x');
  });
});

describe('parseFilters', () => {
  const exprs = ['email~@acme.com', 'status=1', 'timezone:null'];
  it('sends the first filter and keeps the others for the rows (--all)', () => {
    expect(parseFilters(exprs, USER_LIST, { all: true, raw: false })).toEqual({
      server: { filter_attribute: 'email', filter_operator: 'Contains', filter_value: '@acme.com' },
      client: [
        { attribute: 'status', operator: 'Equal', value: '1' },
        { attribute: 'timezone', operator: 'IsNull', value: undefined },
      ],
    });
    expect(parseFilters([], USER_LIST, { all: false, raw: false })).toEqual({ server: undefined, client: [] });
  });
  it('more than one without --all, or with --raw, is a usage error that says why', () => {
    expect(() => parseFilters(exprs, USER_LIST, { all: false, raw: false })).toThrow('more than one --filter needs --all');
    expect(() => parseFilters(exprs, USER_LIST, { all: true, raw: true })).toThrow('--raw takes one --filter');
    try {
      parseFilters(exprs.slice(0, 2), USER_LIST, { all: false, raw: false });
    } catch (err) {
      expect((err as UsageError).exitCode).toBe(2);
      expect((err as UsageError).hint).toMatch(/one attribute per request/);
    }
  });

  it('through the CLI: the first filter is the query, the rest drop rows client-side; no request without --all', async () => {
    const f = await withProfile();
    const rows = [
      { id: 1, email: 'a@acme.com', status: 1, timezone: null },
      { id: 2, email: 'b@acme.com', status: 0, timezone: null },
      { id: 3, email: 'c@acme.com', status: 1, timezone: 'UTC' },
    ];
    f.agent
      .get('https://acme.test')
      .intercept({ path: (p) => p.startsWith('/api/public/v2.0/users?') && p.includes('filter_attribute=email') && !p.includes('status') })
      .reply(200, { data: rows, current_page: 1, last_page: 1, next_page_url: null, total: 3 }, { headers: { 'content-type': 'application/json' } });
    expect(await f.run(['users', 'list', '--all', '--filter', 'email~@acme.com', '--filter', 'status=1', '--filter', 'timezone:null', '-o', 'json'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual([rows[0]]);
    f.agent.assertNoPendingInterceptors();
    const g = await withProfile();
    expect(await g.run(['users', 'list', '--filter', 'email~@acme.com', '--filter', 'status=1'])).toBe(2);
    expect(g.stderr()).toContain('more than one --filter needs --all');
  });
});
