import { describe, expect, it } from 'vitest';
import { CUSTOMER_TEXTS } from '../../../src/store/postgres/customer-texts.js';
import { CUSTOMER_TEXTS_DEF, fillFoldedTexts } from '../../../src/store/postgres/folded-texts.js';
import { compileList } from '../../../src/store/postgres/list-query.js';
import { PG_CUSTOMER_LIST_DEF } from '../../../src/store/postgres/people.js';
import { f, q } from '../contract/fixtures.js';
import { AT, ON_CUSTOMERS, textsDatabase } from './texts-fixture.js';

/**
 * `Contains` on the customers' address and city-and-country through their folded texts' table
 * (migration 9, customer-texts.ts): the same rows, order and totals as matching the customers
 * themselves, after every kind of write, in one statement or many, and after `fillFoldedTexts`.
 */
describe("the customers' texts table", () => {
  const { client: c, list } = textsDatabase();

  /** Inserts customers of `tenant` in one statement: [first_name, line_1, city, country]. */
  const insert = (tenant: number, rows: [string, string | null, string | null, string | null][]) =>
    c().query(
      `INSERT INTO customers (tenant_id, first_name, last_name, email, line_1, city, country, created_at, updated_at) VALUES
       ${rows.map((_, i) => `($1, $${4 * i + 2}, 'Row', lower($${4 * i + 2}) || '@example.com', $${4 * i + 3}, $${4 * i + 4}, $${4 * i + 5}, '${AT}', '${AT}')`).join(', ')}`,
      [tenant, ...rows.flat()],
    );

  /** The filters probed: each operator on both texts, and one filter on another attribute. */
  const filters = [
    null,
    f('first_name', 'text', 'Equal', 'ann'),
    ...['address', 'city_country'].flatMap((attribute) => [
      ...['main', 'PARIS', ', fr', '50%', 'a_b', 'ÉZE', 'ai'].map((value) => f(attribute, 'text', 'Contains', value)),
      ...['PARIS, FRANCE', '1 main st, paris, france'].map((value) => f(attribute, 'text', 'Equal', value)),
      f(attribute, 'text', 'NotEqual', 'paris, france'),
      f(attribute, 'text', 'GreaterThan', 'M'),
      f(attribute, 'text', 'LessThanOrEqual', 'b'),
      f(attribute, 'text', 'IsNull'),
      f(attribute, 'text', 'NotNull'),
    ]),
  ];
  /** The orders and pages probed: id order, and each text's order both ways, a page past the first, live and trashed rows. */
  const orders = [
    { with_trashed: true },
    { order_by: 'address', order_direction: 'desc' as const, page_size: 2, page_number: 2 },
    { order_by: 'city_country', page_size: 2, page_number: 2, with_trashed: true },
  ];

  /**
   * Every probe answers as on the customers (the filters and orders of the texts through their
   * table since migrations 9 and 11), and the texts' table holds exactly the customers' texts.
   */
  const same = async () => {
    let matched = 0;
    for (const tenant of [1, 2])
      for (const filter of filters)
        for (const over of orders) {
          const query = q({ filter, page_size: 100, ...over });
          const expected = await list(ON_CUSTOMERS, tenant, query);
          expect({ tenant, query, ...(await list(PG_CUSTOMER_LIST_DEF, tenant, query)) }).toEqual({ tenant, query, ...expected });
          matched += expected.total;
        }
    expect(matched).toBeGreaterThan(0);
    const { address, city_country } = PG_CUSTOMER_LIST_DEF.columns;
    const recomputed = `SELECT tenant_id, id, deleted_at, ${[address, city_country].map((col) => `lower((${col.sql.replaceAll('c.', '')}) COLLATE "C")`).join(', ')} FROM customers`;
    const differ = await c().query(`(${recomputed} EXCEPT SELECT * FROM ${CUSTOMER_TEXTS}) UNION ALL (SELECT * FROM ${CUSTOMER_TEXTS} EXCEPT ${recomputed})`);
    expect(differ.rows).toEqual([]);
  };

  it('answers as the customers do after inserts, updates, trashing, restoring, deleting and truncating', async () => {
    await insert(1, [
      ['Ann', '1 Main St', 'Paris', 'France'],
      ['Bob', null, null, null],
      ['Cy', '50% Rd', 'a_b', 'b'],
      ['Dee', '', 'Éze', 'France'],
    ]);
    await insert(2, [['Fay', '2 Main St', 'Paris', 'France']]);
    await insert(1, [['Eve', '3 Main St', 'Berlin', 'Germany']]);
    const count = compileList(PG_CUSTOMER_LIST_DEF, 1, q({ filter: f('address', 'text', 'Contains', 'main') })).count.text;
    expect(count).toMatch(new RegExp(`FROM ${CUSTOMER_TEXTS} t WHERE`));
    expect(count).not.toMatch(/\bcustomers\b/);
    const ordered = compileList(PG_CUSTOMER_LIST_DEF, 1, q({ order_by: 'city_country', page_number: 3 })).page.text;
    expect(ordered).toMatch(new RegExp(`SELECT t.id FROM ${CUSTOMER_TEXTS} t WHERE .* ORDER BY t.city_country ASC NULLS FIRST, t.id ASC`));
    await same();
    await c().query("UPDATE customers SET city = 'Parisville', line_1 = NULL WHERE first_name IN ('Ann', 'Fay')");
    await same();
    await c().query(`UPDATE customers SET deleted_at = '${AT}' WHERE first_name IN ('Cy', 'Eve')`);
    await same();
    await c().query("UPDATE customers SET deleted_at = NULL WHERE first_name = 'Eve'");
    await same();
    await c().query("DELETE FROM customers WHERE first_name = 'Dee'");
    await same();
    await c().query('TRUNCATE customers CASCADE');
    expect((await c().query(`SELECT count(*)::int AS n FROM ${CUSTOMER_TEXTS}`)).rows).toEqual([{ n: 0 }]);
    await insert(1, [['Gus', '4 Main St', 'Paris', 'France']]);
    await same();
  }, 60_000);

  it('fillFoldedTexts writes the table again from the customers (after a load with the triggers set aside)', async () => {
    await insert(2, [['Hal', '5 Main St', 'Tokyo', 'Japan']]);
    await c().query(`DELETE FROM ${CUSTOMER_TEXTS} WHERE id = (SELECT max(id) FROM customers); UPDATE ${CUSTOMER_TEXTS} SET address = 'stale'`);
    await c().query('BEGIN');
    await fillFoldedTexts(c(), CUSTOMER_TEXTS_DEF);
    await c().query('COMMIT');
    await same();
    const indexes = await c().query(`SELECT indexname FROM pg_indexes WHERE tablename = '${CUSTOMER_TEXTS}' ORDER BY indexname`);
    expect(indexes.rows.map((r) => r.indexname)).toEqual([
      'customer_texts_address',
      'customer_texts_address_trgm',
      'customer_texts_city_country',
      'customer_texts_city_country_trgm',
      'customer_texts_pkey',
    ]);
  });
});
