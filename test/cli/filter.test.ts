import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/errors.js';
import { parseFilter, parseSort } from '../../src/cli/filter.js';
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
