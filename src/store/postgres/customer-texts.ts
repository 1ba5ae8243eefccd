import type pg from 'pg';
import { withDeferredIndexes } from './bulk-load.js';
import { addressSql, cityCountrySql, fold } from './folded.js';

/**
 * The customers' derived texts, folded, in a narrow table of their own (migration 9), kept by
 * triggers: `Contains` on `address` and `city_country` reads it instead of the customers. A
 * trigram index's matches must each be checked against the text itself; on the customers that
 * read a heap page of the wide table and computed the text for every match, so a broad value
 * (171,000 live matches of "germany" at 1M customers) read every page of the table: 320-590 ms
 * against 80-205 here (its count without parallel workers, interleaved, on a loaded 2-core
 * machine). A count reads this table alone: its rows mirror the customers', trashed ones too,
 * with their `deleted_at`.
 */
export const CUSTOMER_TEXTS = 'customer_texts';

/** The row of `CUSTOMER_TEXTS` of each customer of `rows` (a table or a transition table). */
const customerTextsSelect = (rows: string) =>
  `SELECT tenant_id, id, deleted_at, ${fold(addressSql())}, ${fold(cityCountrySql())} FROM ${rows}`;

/**
 * Migration 9: `CUSTOMER_TEXTS`, its statement-level triggers (after the change counters', which
 * PostgreSQL fires first by name: see list-counts.ts), its rows, and the customers' own trigram
 * indexes dropped (trigram.ts, `ensureTrigramIndexes`, builds the table's).
 */
export const customerTextsDdl = () => `
CREATE TABLE ${CUSTOMER_TEXTS} (
  tenant_id bigint NOT NULL,
  id bigint NOT NULL,
  deleted_at text COLLATE "C",
  address text COLLATE "C",
  city_country text COLLATE "C",
  PRIMARY KEY (tenant_id, id)
);
CREATE FUNCTION confctl_customer_texts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE ${CUSTOMER_TEXTS};
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM ${CUSTOMER_TEXTS} t USING old_rows o WHERE t.tenant_id = o.tenant_id AND t.id = o.id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ${CUSTOMER_TEXTS} ${customerTextsSelect('new_rows')};
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER customers_texts_insert AFTER INSERT ON customers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION confctl_customer_texts();
CREATE TRIGGER customers_texts_update AFTER UPDATE ON customers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION confctl_customer_texts();
CREATE TRIGGER customers_texts_delete AFTER DELETE ON customers REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION confctl_customer_texts();
CREATE TRIGGER customers_texts_truncate AFTER TRUNCATE ON customers FOR EACH STATEMENT EXECUTE FUNCTION confctl_customer_texts();
INSERT INTO ${CUSTOMER_TEXTS} ${customerTextsSelect('customers')};
DROP INDEX IF EXISTS customers_address_trgm, customers_city_country_trgm;
`;

/**
 * Migration 11: `CUSTOMER_TEXTS`' order indexes, one per text, on (tenant, text NULLS FIRST, id)
 * with `deleted_at`, in place of the customers' indexes on the same texts computed from their
 * six columns (migration 3). A page in the order of a text, or a count of a filter on it but a
 * `Contains` of 3 or more characters (the trigram index's), is then an index-only walk of the
 * narrow table (list-query.ts, `idsThroughTexts` and `throughTexts`): an expression index is
 * index-only only when it carries the columns the expression is made of, so through the
 * customers' each entry walked read its row from the heap. `admin copy` builds these from the
 * narrow rows instead of computing the texts again from the customers'.
 */
export const customerTextsOrderDdl = () => `
CREATE INDEX ${CUSTOMER_TEXTS}_address ON ${CUSTOMER_TEXTS} (tenant_id, address NULLS FIRST, id) INCLUDE (deleted_at);
CREATE INDEX ${CUSTOMER_TEXTS}_city_country ON ${CUSTOMER_TEXTS} (tenant_id, city_country NULLS FIRST, id) INCLUDE (deleted_at);
DROP INDEX customers_address, customers_city_country;
`;

/**
 * Writes `CUSTOMER_TEXTS` again from the customers, its indexes built after the rows, in the
 * caller's transaction: after a load with the customers' triggers set aside (`withDeferredIndexes`).
 */
export async function fillCustomerTexts(client: pg.ClientBase): Promise<void> {
  await client.query(`TRUNCATE ${CUSTOMER_TEXTS}`);
  await withDeferredIndexes(client, [CUSTOMER_TEXTS], () => client.query(`INSERT INTO ${CUSTOMER_TEXTS} ${customerTextsSelect('customers')}`));
}
