import type pg from 'pg';
import { withDeferredIndexes } from './bulk-load.js';
import { addressSql, cityCountrySql, fold } from './folded.js';

/**
 * A narrow table of some texts of a list's table, folded (see `fold`), kept by statement-level
 * triggers: `Contains` of 3 or more characters on them reads it instead of the list's table
 * (list-query.ts, `PgColumnDef.texts`). A trigram index's matches must each be checked against
 * the text on its heap page; a value in many rows has matches on every page, so the count read
 * every page of the table holding the texts. At 1,000,000 users that was the users' 140,000 pages
 * (or an index-only scan of a name's B-tree, 8,100 pages, testing the LIKE on every entry),
 * against about 7,700 here. Its rows mirror the table's, trashed ones too, with their `deleted_at`.
 */
export interface FoldedTexts {
  /** The table of texts. */
  table: string;
  /** The list's table it mirrors. */
  source: string;
  /** Its triggers' names are `${triggers}_insert`, `_update`, `_delete` and `_truncate`. */
  triggers: string;
  /** Each column of the texts and the expression over the source's columns it holds, folded. */
  columns: Readonly<Record<string, string>>;
  /**
   * Each column also has an order index (tenant, text NULLS FIRST, id) INCLUDE (deleted_at), so
   * every filter and the order on it read this table (list-query.ts, `PgColumnDef.texts`), not
   * only a `Contains` of 3 or more characters.
   */
  ordered?: boolean;
}

/** The customers' derived address and city-and-country (migration 9; ordered since migration 11, customer-texts.ts). */
export const CUSTOMER_TEXTS_DEF: FoldedTexts = {
  table: 'customer_texts',
  source: 'customers',
  triggers: 'customers_texts',
  columns: { address: addressSql(), city_country: cityCountrySql() },
  ordered: true,
};

/** The users' first and last names (migration 12). */
export const USER_NAMES: FoldedTexts = { table: 'user_names', source: 'users', triggers: 'users_names', columns: { first_name: 'first_name', last_name: 'last_name' } };

/** The customers' e-mail addresses (migration 12). */
export const CUSTOMER_EMAILS: FoldedTexts = { table: 'customer_emails', source: 'customers', triggers: 'customers_emails', columns: { email: 'email' } };

/** Every table of folded texts (`admin copy` writes each again after its load). */
export const FOLDED_TEXTS: readonly FoldedTexts[] = [CUSTOMER_TEXTS_DEF, USER_NAMES, CUSTOMER_EMAILS];

/** The rows of `texts` of each row of `rows` (the source table or a transition table). */
const textsSelect = (texts: FoldedTexts, rows: string) =>
  `SELECT tenant_id, id, deleted_at, ${Object.values(texts.columns).map((expr) => fold(expr)).join(', ')} FROM ${rows}`;

/**
 * The trigger function `name` (made by `create`) keeping every table of `group` (all of one source) in step with its
 * source's writes: one function, so that a write to the source runs one trigger for all of them.
 * Each trigger PostgreSQL runs per statement costs its own call and queue entry: with the
 * customers' e-mail in a trigger of its own beside their texts', a single-row insert cost 330-350
 * µs of PostgreSQL's CPU against 300-310 with one function for both (interleaved, 4 connections).
 */
const foldedTextsFunction = (name: string, group: readonly FoldedTexts[], create = 'CREATE') => `
${create} FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
${group.map((texts) => `    TRUNCATE ${texts.table};`).join('\n')}
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
${group.map((texts) => `    DELETE FROM ${texts.table} t USING old_rows o WHERE t.tenant_id = o.tenant_id AND t.id = o.id;`).join('\n')}
  END IF;
  IF TG_OP <> 'DELETE' THEN
${group.map((texts) => `    INSERT INTO ${texts.table} ${textsSelect(texts, 'new_rows')};`).join('\n')}
  END IF;
  RETURN NULL;
END
$$;`;

/** `texts`' statement-level triggers (after the change counters', which PostgreSQL fires first by name: see list-counts.ts), running `fn`. */
const foldedTextsTriggers = (texts: FoldedTexts, fn: string) => `
CREATE TRIGGER ${texts.triggers}_insert AFTER INSERT ON ${texts.source} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
CREATE TRIGGER ${texts.triggers}_update AFTER UPDATE ON ${texts.source} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
CREATE TRIGGER ${texts.triggers}_delete AFTER DELETE ON ${texts.source} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
CREATE TRIGGER ${texts.triggers}_truncate AFTER TRUNCATE ON ${texts.source} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`;

/**
 * The table of `texts`, its trigger function and its statement-level triggers, and its rows: a
 * migration's SQL. Its trigram indexes are trigram.ts's (`ensureTrigramIndexes`).
 */
export const foldedTextsDdl = (texts: FoldedTexts) => `
CREATE TABLE ${texts.table} (
  tenant_id bigint NOT NULL,
  id bigint NOT NULL,
  deleted_at text COLLATE "C",
  ${Object.keys(texts.columns).map((column) => `${column} text COLLATE "C"`).join(',\n  ')},
  PRIMARY KEY (tenant_id, id)
);${foldedTextsFunction(`confctl_${texts.table}`, [texts])}${foldedTextsTriggers(texts, `confctl_${texts.table}`)}
INSERT INTO ${texts.table} ${textsSelect(texts, texts.source)};
`;

/**
 * One trigger function and one set of triggers, `first`'s, for `first` and `others` (tables of the
 * same source made by `foldedTextsDdl`): the others' triggers and functions are dropped. A
 * migration's SQL (see `foldedTextsFunction`).
 */
export const mergedFoldedTextsDdl = (first: FoldedTexts, others: readonly FoldedTexts[]) => `${others
  .map((texts) => ['insert', 'update', 'delete', 'truncate'].map((op) => `DROP TRIGGER ${texts.triggers}_${op} ON ${texts.source};`).join('\n') + `\nDROP FUNCTION confctl_${texts.table}();`)
  .join('\n')}${foldedTextsFunction(`confctl_${first.table}`, [first, ...others], 'CREATE OR REPLACE')}
`;

/**
 * Writes the table of `texts` again from its source, its indexes built after the rows, in the
 * caller's transaction: after a load with the source's triggers set aside (`withDeferredIndexes`).
 * The primary key is built after the rows too (no foreign key refers to it): at 1M users the
 * names' rows took 7.9-12.1 s with it kept row by row, against 3.0-3.6 s and 0.6-0.7 s to build it
 * after (loaded 2-core machine).
 */
export async function fillFoldedTexts(client: pg.ClientBase, texts: FoldedTexts): Promise<void> {
  await client.query(`TRUNCATE ${texts.table}`);
  await client.query(`ALTER TABLE ${texts.table} DROP CONSTRAINT ${texts.table}_pkey`);
  await withDeferredIndexes(client, [texts.table], () => client.query(`INSERT INTO ${texts.table} ${textsSelect(texts, texts.source)}`));
  await client.query(`ALTER TABLE ${texts.table} ADD PRIMARY KEY (tenant_id, id)`);
}
