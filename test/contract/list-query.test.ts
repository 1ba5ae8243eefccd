import { describe, expect, it } from 'vitest';
import { CUSTOMER_LIST, parseListQuery, parsePageQuery, USER_LIST } from '../../src/contract/list-query.js';

const q = (s: string) => new URLSearchParams(s);

describe('list query parameters (decisions §6)', () => {
  it('has the documented defaults', () => {
    expect(parseListQuery(USER_LIST, q(''))).toEqual({
      ok: true,
      value: { page_size: 15, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: null },
    });
  });

  it('maps the aliases per_page and page; canonical names win', () => {
    const r = parseListQuery(USER_LIST, q('per_page=20&page=3&page_size=30'));
    expect(r.ok && [r.value.page_size, r.value.page_number]).toEqual([30, 3]);
  });

  it('parses filter values by attribute type', () => {
    const date = parseListQuery(USER_LIST, q('filter_attribute=created_at&filter_operator=LessThan&filter_value=2026-02-01'));
    expect(date.ok && date.value.filter).toEqual({ attribute: 'created_at', type: 'date', operator: 'LessThan', value: '2026-02-01T00:00:00.000Z' });
    const int = parseListQuery(USER_LIST, q('filter_attribute=status&filter_value=1'));
    expect(int.ok && int.value.filter).toEqual({ attribute: 'status', type: 'integer', operator: 'Equal', value: 1 });
    const contains = parseListQuery(CUSTOMER_LIST, q('filter_attribute=id&filter_operator=Contains&filter_value=12'));
    expect(contains.ok && contains.value.filter?.value).toBe('12');
    const isNull = parseListQuery(USER_LIST, q('filter_attribute=timezone&filter_operator=IsNull'));
    expect(isNull.ok && isNull.value.filter).toEqual({ attribute: 'timezone', type: 'text', operator: 'IsNull', value: null });
  });

  it('rejects bad parameters with one message each', () => {
    const r = parseListQuery(USER_LIST, q('page_size=101&page_number=0&with_trashed=maybe&order_by=address&order_direction=up&filter_attribute=city_country&filter_operator=Like'));
    expect(!r.ok && r.errors).toEqual({
      page_size: ['The page_size field must be between 1 and 100.'],
      page_number: ['The page_number field must be at least 1.'],
      with_trashed: ['The with_trashed field must be true or false.'],
      order_by: ['The selected order_by is invalid.'],
      order_direction: ['The selected order_direction is invalid.'],
      filter_attribute: ['The selected filter_attribute is invalid.'],
      filter_operator: ['The selected filter_operator is invalid.'],
    });
    const value = parseListQuery(USER_LIST, q('filter_attribute=id&filter_value=abc'));
    expect(!value.ok && value.errors).toEqual({ filter_value: ['The filter_value field must be an integer.'] });
    const missing = parseListQuery(USER_LIST, q('filter_attribute=email&filter_operator=Equal'));
    expect(!missing.ok && missing.errors).toEqual({ filter_value: ['The filter_value field is required.'] });
    const date = parseListQuery(USER_LIST, q('filter_attribute=updated_at&filter_operator=GreaterThan&filter_value=yesterday'));
    expect(!date.ok && date.errors).toEqual({ filter_value: ['The filter_value field must be a valid date.'] });
  });

  it('with_trashed takes true/false/1/0; an integer filter takes only whole numbers; an empty value is missing', () => {
    const trashed = (v: string) => {
      const r = parseListQuery(USER_LIST, q(`with_trashed=${v}`));
      return r.ok ? r.value.with_trashed : r.errors;
    };
    expect(['true', '1', 'false', '0'].map(trashed)).toEqual([true, true, false, false]);
    expect(trashed('yes')).toEqual({ with_trashed: ['The with_trashed field must be true or false.'] });
    for (const bad of ['12abc', 'abc12', '1.5', '9007199254740993']) {
      const r = parseListQuery(USER_LIST, q(`filter_attribute=status&filter_value=${bad}`));
      expect(!r.ok && r.errors, bad).toEqual({ filter_value: ['The filter_value field must be an integer.'] });
    }
    const negative = parseListQuery(USER_LIST, q('filter_attribute=id&filter_operator=GreaterThan&filter_value=-3'));
    expect(negative.ok && negative.value.filter?.value).toBe(-3);
    const empty = parseListQuery(USER_LIST, q('filter_attribute=email&filter_value='));
    expect(!empty.ok && empty.errors).toEqual({ filter_value: ['The filter_value field is required.'] });
    const orders = ['asc', 'desc'].map((d) => parseListQuery(USER_LIST, q(`order_direction=${d}`)));
    expect(orders.map((r) => r.ok && r.value.order_direction)).toEqual(['asc', 'desc']);
  });

  it('page-only lists read page_size and page_number only', () => {
    expect(parsePageQuery(q('page=2&per_page=5&order_by=x&filter_attribute=y'))).toEqual({ ok: true, value: { page_size: 5, page_number: 2 } });
    expect(parsePageQuery(q('page_size=0')).ok).toBe(false);
  });
});
