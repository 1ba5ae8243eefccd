import { describe, expect, it } from 'vitest';
import { CUSTOMER_EMAILS, fillFoldedTexts, type FoldedTexts, USER_NAMES } from '../../../src/store/postgres/folded-texts.js';
import { compileList, type PgListDef } from '../../../src/store/postgres/list-query.js';
import { PG_CUSTOMER_LIST_DEF, PG_USER_LIST_DEF } from '../../../src/store/postgres/people.js';
import { f, q } from '../contract/fixtures.js';
import { AT, textsDatabase } from './texts-fixture.js';

/** `def` with the columns of `texts` matched on the list's own rows, as before migration 12: the oracle. */
const onSource = (def: PgListDef, texts: FoldedTexts): PgListDef => ({
  ...def,
  columns: { ...def.columns, ...Object.fromEntries(Object.keys(texts.columns).map((column) => [column, { ...def.columns[column], texts: undefined }])) },
});

const LISTS = [
  { texts: USER_NAMES, def: PG_USER_LIST_DEF as PgListDef },
  { texts: CUSTOMER_EMAILS, def: PG_CUSTOMER_LIST_DEF as PgListDef },
];

/** Values probed on every column: broad and narrow, cased, non-ASCII, LIKE's own characters, none, and too short to go through the texts. */
const VALUES = ['ann', 'ANN', 'nn', 'row', 'exa', '@example', 'éze', 'ÉZE', '50%', 'a_b', 'zzz'];

/**
 * `Contains` on the users' names and the customers' e-mail through their folded texts' tables
 * (migration 12, folded-texts.ts): the same rows, order and totals as matching the users and
 * customers themselves, after every kind of write, in one statement or many, and after
 * `fillFoldedTexts`; and each table holds exactly the folded texts of its list's rows.
 */
describe("the users' names and the customers' e-mails tables", () => {
  const { client: c, list } = textsDatabase();

  /** Inserts users and customers of `tenant` alike, each in one statement: [first_name, last_name, email]. */
  const insert = async (tenant: number, rows: [string, string, string][]) => {
    const values = rows.map((_, i) => `($1, $${3 * i + 2}, $${3 * i + 3}, $${3 * i + 4}, '${AT}', '${AT}')`).join(', ');
    for (const table of ['users', 'customers'])
      await c().query(`INSERT INTO ${table} (tenant_id, first_name, last_name, email, created_at, updated_at) VALUES ${values}`, [tenant, ...rows.flat()]);
  };

  /** Every probe answers as on the list's own rows, and each table holds exactly its list's folded texts. */
  const same = async () => {
    let matched = 0;
    for (const { texts, def } of LISTS) {
      const oracle = onSource(def, texts);
      for (const tenant of [1, 2])
        for (const attribute of Object.keys(texts.columns))
          for (const value of VALUES)
            for (const over of [{}, { with_trashed: true }, { order_by: attribute, order_direction: 'desc' as const, page_size: 2, page_number: 2 }]) {
              const query = q({ filter: f(attribute, 'text', 'Contains', value), page_size: 100, ...over });
              const expected = await list(oracle, tenant, query);
              expect({ tenant, query, ...(await list(def, tenant, query)) }).toEqual({ tenant, query, ...expected });
              matched += expected.total;
            }
      const recomputed = `SELECT tenant_id, id, deleted_at, ${Object.values(texts.columns).map((column) => `lower(${column} COLLATE "C")`).join(', ')} FROM ${texts.source}`;
      const differ = await c().query(`(${recomputed} EXCEPT SELECT * FROM ${texts.table}) UNION ALL (SELECT * FROM ${texts.table} EXCEPT ${recomputed})`);
      expect(differ.rows).toEqual([]);
    }
    expect(matched).toBeGreaterThan(0);
  };

  it("keeps the customers' texts and e-mails by one trigger function (migration 13): one trigger per write, not one per table", async () => {
    const { rows } = await c().query<{ tgname: string; proname: string }>(
      `SELECT t.tgname, p.proname FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid WHERE t.tgrelid = 'customers'::regclass AND p.proname LIKE 'confctl_customer_%' ORDER BY t.tgname`,
    );
    expect(rows).toEqual(['delete', 'insert', 'truncate', 'update'].map((op) => ({ tgname: `customers_texts_${op}`, proname: 'confctl_customer_texts' })));
  });

  it('answers as the users and customers do after inserts, updates, trashing, restoring, deleting and truncating', async () => {
    await insert(1, [
      ['Ann', 'Row', 'ann@example.com'],
      ['Bob', 'Éze', 'BOB@EXAMPLE.COM'],
      ['Cy', '50% a_b', 'cy.50%@example.com'],
      ['Dee', 'Rowan', 'dee@éze.fr'],
    ]);
    await insert(2, [['Fay', 'Annan', 'fay@example.com']]);
    await insert(1, [['Eve', 'Barrow', 'eve@example.org']]);
    for (const { texts, def } of LISTS) {
      const count = compileList(def, 1, q({ filter: f(Object.keys(texts.columns)[0], 'text', 'Contains', 'ann') })).count.text;
      expect(count).toMatch(new RegExp(`FROM ${texts.table} t WHERE`));
      expect(count).not.toMatch(new RegExp(`\\b${texts.source}\\b`));
      // Only a Contains of 3 or more characters reads the narrow table (it has no order index): other filters and orders read the list's own indexes.
      const attribute = Object.keys(texts.columns)[0];
      for (const other of [q({ filter: f(attribute, 'text', 'Equal', 'ann') }), q({ filter: f(attribute, 'text', 'Contains', 'an') }), q({ order_by: attribute, page_number: 3 })]) {
        const compiled = compileList(def, 1, other, 100);
        expect(`${compiled.count.text}\n${compiled.page.text}`).not.toMatch(new RegExp(`\\b${texts.table}\\b`));
      }
    }
    await same();
    for (const table of ['users', 'customers']) {
      await c().query(`UPDATE ${table} SET last_name = 'Annex', email = 'x.' || email WHERE first_name IN ('Ann', 'Fay')`);
      await c().query(`UPDATE ${table} SET deleted_at = '${AT}' WHERE first_name IN ('Cy', 'Eve')`);
    }
    await same();
    for (const table of ['users', 'customers']) {
      await c().query(`UPDATE ${table} SET deleted_at = NULL WHERE first_name = 'Eve'`);
      await c().query(`DELETE FROM ${table} WHERE first_name = 'Dee'`);
    }
    await same();
    await c().query('TRUNCATE users, customers CASCADE');
    for (const { texts } of LISTS) expect((await c().query(`SELECT count(*)::int AS n FROM ${texts.table}`)).rows).toEqual([{ n: 0 }]);
    await insert(1, [['Gus', 'Rowland', 'gus@example.com']]);
    await same();
  });

  it('fillFoldedTexts writes each table again from its list (after a load with the triggers set aside)', async () => {
    await insert(2, [['Hal', 'Annandale', 'hal@example.com']]);
    for (const { texts } of LISTS) {
      const column = Object.keys(texts.columns)[0];
      await c().query(`DELETE FROM ${texts.table} WHERE id = (SELECT max(id) FROM ${texts.source}); UPDATE ${texts.table} SET ${column} = 'stale'`);
      await c().query('BEGIN');
      await fillFoldedTexts(c(), texts);
      await c().query('COMMIT');
    }
    await same();
    const indexes = await c().query(`SELECT indexname FROM pg_indexes WHERE tablename IN ('user_names', 'customer_emails') ORDER BY indexname`);
    expect(indexes.rows.map((r) => r.indexname)).toEqual(['customer_emails_email_trgm', 'customer_emails_pkey', 'user_names_first_name_trgm', 'user_names_last_name_trgm', 'user_names_pkey']);
  });
});
