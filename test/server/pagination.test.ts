import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/server/pagination.js';

const at = (query: string) => ({ origin: 'http://acme.test:8080', pathname: '/api/public/v2.0/users', params: new URLSearchParams(query) });
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));
const U = 'http://acme.test:8080/api/public/v2.0/users';

describe('paginate', () => {
  it('a middle page: absolute URLs keeping other parameters as sent, canonical paging last', () => {
    const env = paginate({ rows: rows(16, 15), total: 40 }, { page_number: 2, page_size: 15 }, at('filter_attribute=email&filter_value=a%2Bb&page=2&per_page=15&order_by=id'));
    expect(env).toEqual({
      message: 'Success.',
      data: rows(16, 15),
      current_page: 2,
      first_page_url: `${U}?filter_attribute=email&filter_value=a%2Bb&order_by=id&page_number=1&page_size=15`,
      from: 16,
      last_page: 3,
      last_page_url: `${U}?filter_attribute=email&filter_value=a%2Bb&order_by=id&page_number=3&page_size=15`,
      next_page_url: `${U}?filter_attribute=email&filter_value=a%2Bb&order_by=id&page_number=3&page_size=15`,
      path: U,
      per_page: 15,
      prev_page_url: `${U}?filter_attribute=email&filter_value=a%2Bb&order_by=id&page_number=1&page_size=15`,
      to: 30,
      total: 40,
    });
  });

  it('the first and the last page: prev and next null at the ends; a partial last page', () => {
    const first = paginate({ rows: rows(1, 2), total: 5 }, { page_number: 1, page_size: 2 }, at('page_number=1&page_size=2'));
    expect([first.prev_page_url, first.next_page_url, first.from, first.to, first.last_page]).toEqual([null, `${U}?page_number=2&page_size=2`, 1, 2, 3]);
    const last = paginate({ rows: rows(5, 1), total: 5 }, { page_number: 3, page_size: 2 }, at(''));
    expect([last.prev_page_url, last.next_page_url, last.from, last.to, last.last_page_url]).toEqual([`${U}?page_number=2&page_size=2`, null, 5, 5, `${U}?page_number=3&page_size=2`]);
  });

  it('an empty list: from/to null, last_page 1, no next; a page past the end is empty too', () => {
    const none = paginate({ rows: [], total: 0 }, { page_number: 1, page_size: 15 }, at(''));
    expect([none.from, none.to, none.last_page, none.next_page_url, none.prev_page_url]).toEqual([null, null, 1, null, null]);
    const past = paginate({ rows: [], total: 3 }, { page_number: 4, page_size: 2 }, at('with_trashed=true'));
    expect([past.from, past.to, past.last_page, past.next_page_url]).toEqual([null, null, 2, null]);
    expect(past.prev_page_url).toBe(`${U}?with_trashed=true&page_number=3&page_size=2`);
  });

  it('a total that fills whole pages has no empty page after it', () => {
    const env = paginate({ rows: rows(3, 2), total: 4 }, { page_number: 2, page_size: 2 }, at(''));
    expect([env.last_page, env.next_page_url, env.to]).toEqual([2, null, 4]);
  });
});
