import { CUSTOMER_TEXTS_DEF, foldedTextsDdl } from './folded-texts.js';

/**
 * The customers' derived texts, folded, in a narrow table of their own (migration 9,
 * folded-texts.ts): `Contains` on `address` and `city_country` reads it instead of the customers.
 * A trigram index's matches must each be checked against the text itself; on the customers that
 * read a heap page of the wide table and computed the text for every match, so a broad value
 * (171,000 live matches of "germany" at 1M customers) read every page of the table: 320-590 ms
 * against 80-205 here (its count without parallel workers, interleaved, on a loaded 2-core
 * machine).
 */
export const CUSTOMER_TEXTS = CUSTOMER_TEXTS_DEF.table;

/** Migration 9: `CUSTOMER_TEXTS` (see `foldedTextsDdl`) and the customers' own trigram indexes dropped (trigram.ts builds the table's). */
export const customerTextsDdl = () => `${foldedTextsDdl(CUSTOMER_TEXTS_DEF)}DROP INDEX IF EXISTS customers_address_trgm, customers_city_country_trgm;
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
