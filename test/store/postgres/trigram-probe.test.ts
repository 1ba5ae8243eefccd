import { describe, expect, it } from 'vitest';
import { compileList } from '../../../src/store/postgres/list-query.js';
import { PG_CUSTOMER_LIST_DEF } from '../../../src/store/postgres/people.js';
import { TRIGRAM_PROBE } from '../../../src/store/postgres/trigram-probe.js';
import { f, q } from '../contract/fixtures.js';
import { AT, ON_CUSTOMERS, textsDatabase } from './texts-fixture.js';

/**
 * The trigram probe (migration 14, trigram-probe.ts): the count of a `Contains` of several words
 * reads the trigram index for the word the statistics give as rarest, when it is about as rare as
 * the whole value, and tests the whole value on each candidate: the totals are the customers'.
 */
describe('the trigram probe', () => {
  const { client: c, list } = textsDatabase();
  const probe = async (column: string, pattern: string) =>
    (await c().query<{ p: string }>(`SELECT ${TRIGRAM_PROBE}('customer_texts', $1, $2) AS p`, [column, pattern])).rows[0].p;

  it('reads the rarest word when the statistics give it about the whole value\'s share, and counts exactly', async () => {
    // Tenant 1: 200 customers on Main Street in Berlin, 100 on Quay Lane in Paris; those of a house number ending in 0 trashed. Tenant 2: 10 in Paris.
    const rows = [...Array.from({ length: 300 }, (_, i) => [1, `${i} ${i < 200 ? 'Main Street' : 'Quay Lane'}`, i < 200 ? 'Berlin' : 'Paris', i < 200 ? 'Germany' : 'France'] as const),
      ...Array.from({ length: 10 }, (_, i) => [2, `${i} Quay Lane`, 'Paris', 'France'] as const)];
    for (const [tenant, line, city, country] of rows)
      await c().query(`INSERT INTO customers (tenant_id, first_name, last_name, email, line_1, city, country, created_at, updated_at) VALUES ($1, 'Ann', 'Row', $2, $3, $4, $5, '${AT}', '${AT}')`, [
        tenant, `${tenant}.${line.replace(/ /g, '.')}@example.com`, line, city, country,
      ]);
    await c().query(`UPDATE customers SET deleted_at = '${AT}' WHERE line_1 LIKE '%0 %'`);
    await c().query('ANALYZE customer_texts');

    // Each word of "quay lane, paris" is in a third of the rows, as the whole: the longest word is read.
    expect(await probe('address', '%quay lane, paris%')).toBe('%paris%');
    expect(await probe('city_country', '%paris, france%')).toBe('%france%');
    // "17 main street" is in 2 of 310 rows, each of its words in 200: every trigram is read.
    expect(await probe('address', '%17 main street%')).toBe('%17 main street%');
    // "7 main street": the 7 has no trigram in the pattern, so its trigrams reach every row of "main street", as "street" does.
    expect(await probe('address', '%7 main street%')).toBe('%street%');
    // No statistics, or no word of 3 letters or more: the whole pattern, escapes and all.
    expect(await probe('nonesuch', '%quay lane%')).toBe('%quay lane%');
    expect(await probe('address', '%50\\% a\\_b%')).toBe('%50\\% a\\_b%');

    for (const [attribute, value] of [['address', 'Quay Lane, Paris'], ['address', '7 MAIN STREET'], ['address', '17 main street'], ['address', 'lane, paris, fr'], ['city_country', 'Paris, France'], ['city_country', 'in, Ge'], ['address', 'main']])
      for (const tenant of [1, 2])
        for (const with_trashed of [false, true]) {
          const query = q({ filter: f(attribute, 'text', 'Contains', value), with_trashed, page_size: 5 });
          const { count } = compileList(PG_CUSTOMER_LIST_DEF, tenant, query);
          // Only a value of several words is probed.
          expect(count.text.includes(TRIGRAM_PROBE)).toBe(value !== 'main');
          expect({ attribute, value, tenant, with_trashed, ...(await list(PG_CUSTOMER_LIST_DEF, tenant, query)) }).toEqual({
            attribute, value, tenant, with_trashed, ...(await list(ON_CUSTOMERS, tenant, query)),
          });
        }
    const total = async (value: string) => (await list(PG_CUSTOMER_LIST_DEF, 1, q({ filter: f('address', 'text', 'Contains', value) }))).total;
    expect([await total('Quay Lane, Paris'), await total('7 main street')]).toEqual([90, 20]);
  });
});
