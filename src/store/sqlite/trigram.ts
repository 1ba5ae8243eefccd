/**
 * Trigram indexes for `Contains` of 3 or more characters on the large tables (migration 10).
 *
 * A `Contains` is a LIKE `%value%`, which no B-tree answers: at 1M rows its count read a whole
 * index (0.3-0.6 s), and on the customers' derived `address` and `city_country` the whole table
 * (10-17 s). An FTS5 table with the trigram tokenizer holds each live row's searched texts; a
 * phrase of 3 or more characters matches exactly the rows whose text contains it (consecutive
 * trigrams), and its doclist is read in a few ms. The texts are stored folded by SQLite's
 * `lower()`, which folds ASCII only (no ICU in better-sqlite3's build), and the tokenizer is
 * case-sensitive, so a match folds case exactly as the LIKE does (decisions §10: ASCII only).
 * The FTS tables are contentless (`content=''`, `contentless_delete=1`): they hold the index
 * alone, keyed by the row's id. Since migration 18 they hold the live rows alone, each with its
 * tenant as a text of its own (`LIVE_TENANT`), so a count is one FTS5 query, the value's phrase
 * AND the tenant's: before, each match was looked up in the tenant index to learn its tenant and
 * deletion, which at 1M customers cost more than the phrase itself (the count of "germany",
 * 171,000 live matches: 93 -> 52 ms of CPU).
 *
 * A phrase costs about the sum of its trigrams' doclists, and FTS5 reads a term's whole doclist,
 * every column's positions, even for a phrase filtered to one column. In one table of all a
 * customer's texts, a city's or country's trigrams stood twice per row (in `address` and in
 * `city_country`). Since migration 20 `city_country` has an FTS table of its own, which shares the
 * customers' pending ids and triggers: at 1M customers the count of "new york, united states"
 * (21 trigrams, 85,667 rows) fell from about 103 to 71 ms of CPU, and `address`'s city and
 * country values by a tenth to a fifth (docs/performance.md).
 *
 * Triggers keep them in step with every write by any process, through a plain table of pending
 * ids (migration 14, `trigramPendingDdl`): a write records the row's id there, and once
 * TRIGRAM_PENDING_MAX ids are pending the write that adds the last one brings the FTS table up to
 * date for all of them in one statement. Written row by row, FTS5 wrote a segment per insert (it
 * flushes its pending texts at every savepoint, and each statement of a transaction holding
 * others opens one): a customer's insert cost about 95 µs of CPU more than without the trigram
 * table, now about 30 (docs/performance.md). The ids pending are few, so a `Contains` reads the
 * FTS matches of the other rows and tests the pending rows' own texts (list-query.ts): exact at
 * every moment, in every process.
 */
import type { ListDef } from '../rows/list-def.js';
import { addressSql, cityCountrySql } from '../rows/texts.js';

/** One trigram table: the FTS5 table's name and, per list attribute, the SQL of its text from a row alias. */
export interface TrigramTable {
  table: 'users' | 'customers';
  fts: string;
  /**
   * The ids of the rows whose texts `fts` may not hold as they stand (migration 14): one table per
   * `table`, shared by its FTS tables, as are the triggers that record them (`triggers`).
   */
  pending: string;
  /** The name of the triggers that keep the FTS tables of `table` in step: the first's (see `trigramTriggers`). */
  triggers: string;
  columns: Readonly<Record<string, (alias: string) => string>>;
  /** The stored columns whose update changes a text. */
  sources: readonly string[];
}

const plain = (column: string) => (alias: string) => alias + column;

const USERS_TEXT: TrigramTable = {
  table: 'users',
  fts: 'users_text',
  pending: 'users_text_pending',
  triggers: 'users_text',
  columns: { first_name: plain('first_name'), last_name: plain('last_name'), email: plain('email') },
  sources: ['first_name', 'last_name', 'email'],
};

const CUSTOMER_TEXTS = {
  table: 'customers',
  pending: 'customers_text_pending',
  triggers: 'customers_text',
  sources: ['first_name', 'middle_name', 'last_name', 'email', 'contact_number', 'line_1', 'line_2', 'city', 'region', 'postal_code', 'country'],
} as const;

const CUSTOMER_NAMES = {
  first_name: plain('first_name'),
  middle_name: plain('middle_name'),
  last_name: plain('last_name'),
  email: plain('email'),
  contact_number: plain('contact_number'),
  address: addressSql,
};

/** The trigram tables of migrations 10 to 19 (their DDL is built from these): each customer's texts, `city_country` too, in one. */
export const RELEASED_TRIGRAM_TABLES: readonly TrigramTable[] = [
  USERS_TEXT,
  { ...CUSTOMER_TEXTS, fts: 'customers_text', columns: { ...CUSTOMER_NAMES, city_country: cityCountrySql } },
];

/** The trigram tables since migration 20: the customers' `city_country` in an FTS table of its own (see the module's comment). */
export const TRIGRAM_TABLES: readonly TrigramTable[] = [
  USERS_TEXT,
  { ...CUSTOMER_TEXTS, fts: 'customers_text', columns: CUSTOMER_NAMES },
  { ...CUSTOMER_TEXTS, fts: 'customers_city_country_text', columns: { city_country: cityCountrySql } },
];

/** The trigram tables of `table` (since migration 20), which share its pending ids and triggers. */
export const trigramTablesOf = (table: TrigramTable['table']) => TRIGRAM_TABLES.filter((t) => t.table === table);

/** The shortest value a trigram index answers (in characters, as the tokenizer counts them). */
export const TRIGRAM_MIN = 3;

/** Pending ids (per trigram table) at which a write brings the FTS table up to date (see the module's comment). */
export const TRIGRAM_PENDING_MAX = 256;

/**
 * The FTS tables' column holding a live row's tenant (migration 18), as `<id>`: one trigram for
 * ids under 10, a phrase of consecutive ones above; matched only by `liveTenantMatch`.
 */
const LIVE_TENANT = 'live_tenant';

/** `t`'s texts of the row `alias` (`NEW.`, or '' for the table's own rows), folded, in column order. */
const textsSql = (t: TrigramTable, alias: string) => Object.keys(t.columns).map((c) => `lower(${t.columns[c](alias)})`);

/** A trigger's insert of `t`'s texts for the row `NEW` (migration 10). */
function trigramInsertSql(t: TrigramTable): string {
  return `INSERT INTO ${t.fts}(rowid, ${Object.keys(t.columns).join(', ')}) VALUES (NEW.id, ${textsSql(t, 'NEW.').join(', ')})`;
}

/** Migrations 10 and 14's fill of `t.fts`: the texts of the rows `where` selects, no tenant. */
function textsFillSql(t: TrigramTable, where: string): string {
  return `INSERT INTO ${t.fts}(rowid, ${Object.keys(t.columns).join(', ')}) SELECT id, ${textsSql(t, '').join(', ')} FROM ${t.table} WHERE ${where}`;
}

/** The names of the triggers that keep `t` in step, by what fires them (`flush`: an id added to `t.pending`). */
export const trigramTriggers = (t: TrigramTable) => ({ insert: `${t.triggers}_insert`, update: `${t.triggers}_update`, delete: `${t.triggers}_delete`, flush: `${t.triggers}_flush` });

/** Migration 10's DDL for one table: the FTS table, its triggers and the texts of the rows already stored. */
export function trigramDdl(t: TrigramTable): string {
  const names = trigramTriggers(t);
  const cols = Object.keys(t.columns);
  return `
CREATE VIRTUAL TABLE ${t.fts} USING fts5(${cols.join(', ')}, content='', contentless_delete=1, tokenize='trigram case_sensitive 1');
CREATE TRIGGER ${names.insert} AFTER INSERT ON ${t.table} BEGIN
  ${trigramInsertSql(t)};
END;
CREATE TRIGGER ${names.update} AFTER UPDATE OF ${t.sources.join(', ')} ON ${t.table} BEGIN
  DELETE FROM ${t.fts} WHERE rowid = OLD.id;
  ${trigramInsertSql(t)};
END;
CREATE TRIGGER ${names.delete} AFTER DELETE ON ${t.table} BEGIN
  DELETE FROM ${t.fts} WHERE rowid = OLD.id;
END;
${textsFillSql(t, 'true')};
`;
}

/**
 * Migration 14's DDL for one table: migration 10's triggers replaced by ones recording ids in
 * `t.pending`, and the trigger that writes the pending rows' texts once TRIGRAM_PENDING_MAX are
 * pending (deleting their old texts first: an updated or deleted row's, and nothing for a new one).
 */
export function trigramPendingDdl(t: TrigramTable): string {
  const names = trigramTriggers(t);
  return `
DROP TRIGGER ${names.insert};
DROP TRIGGER ${names.update};
DROP TRIGGER ${names.delete};
CREATE TABLE ${t.pending} (id INTEGER PRIMARY KEY);
${pendingTriggersSql(t, t.sources, textsFillSql(t, `id IN (SELECT id FROM ${t.pending})`))}
`;
}

/**
 * Migration 18's DDL for one table: the FTS table made again with the live rows' texts and tenants
 * alone (`LIVE_TENANT`), and triggers that also record a row whose tenant or deletion changes.
 * Every live row is written at once, so nothing is pending.
 */
export function trigramLiveTenantDdl(t: TrigramTable): string {
  const names = trigramTriggers(t);
  return `
DROP TRIGGER ${names.insert};
DROP TRIGGER ${names.update};
DROP TRIGGER ${names.delete};
DROP TRIGGER ${names.flush};
DROP TABLE ${t.fts};
${liveTextsTableSql(t)};
${pendingTriggersSql(t, [...t.sources, 'tenant_id', 'deleted_at'], trigramFillSql(t, `id IN (SELECT id FROM ${t.pending})`))}
DELETE FROM ${t.pending};
${liveTextsFillSql(t)}
`;
}

/**
 * Migration 20's DDL for one table: its FTS table of migration 18 (`released`) made again as
 * `tables` (which share its pending ids and its triggers recording them), and the trigger writing
 * the pending rows' texts made again to write them to each. Every live row is written at once.
 */
export function trigramSplitDdl(released: TrigramTable, tables: readonly TrigramTable[]): string {
  return `
DROP TRIGGER ${trigramTriggers(released).flush};
DROP TABLE ${released.fts};
${tables.map((t) => `${liveTextsTableSql(t)};`).join('\n')}
${flushTriggerSql(tables, (t) => trigramFillSql(t, `id IN (SELECT id FROM ${t.pending})`))}
DELETE FROM ${released.pending};
${tables.map(liveTextsFillSql).join('\n')}
`;
}

/** The FTS5 table `t.fts` of live rows' texts and tenants (migration 18). */
const liveTextsTableSql = (t: TrigramTable) =>
  `CREATE VIRTUAL TABLE ${t.fts} USING fts5(${Object.keys(t.columns).join(', ')}, ${LIVE_TENANT}, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`;

/** Writes every live row's texts to `t.fts`, with a TRIGRAM_FILL_HASH_BYTES pending index. */
const liveTextsFillSql = (t: TrigramTable) => `${trigramHashsizeSql(t, TRIGRAM_FILL_HASH_BYTES)};
${trigramFillSql(t, 'true')};
${trigramHashsizeSql(t, FTS5_DEFAULT_HASH_BYTES)};`;

/**
 * FTS5's in-memory index of pending texts while every row's texts are written at once by a
 * migration: its `hashsize`, bytes (a bulk load sets a larger one, see store/sqlite/bulk.ts).
 * Each time it fills, FTS5 writes a segment and merges segments. Filling the texts of 1,000,000 customers took 21.1 s of
 * CPU with FTS5's default, 13.6 s with 64 MiB and 11.0 s with 256 MiB, but with 256 MiB the seed
 * of 1M users and 1M customers peaked at 703 MB RSS instead of 473 MB.
 */
export const TRIGRAM_FILL_HASH_BYTES = 64 * 1024 * 1024;
/** FTS5's own `hashsize` when none is set (FTS5_DEFAULT_HASHSIZE), set back after a fill: FTS5 has no command to remove a setting. */
export const FTS5_DEFAULT_HASH_BYTES = 1024 * 1024;
/** Sets `t`'s FTS5 `hashsize` (see TRIGRAM_FILL_HASH_BYTES). */
export const trigramHashsizeSql = (t: TrigramTable, bytes: number) => `INSERT INTO ${t.fts}(${t.fts}, rank) VALUES ('hashsize', ${bytes})`;

/**
 * The triggers recording in `t.pending` the ids of the rows inserted, deleted, or updated in a
 * column of `sources`, and the one that, once TRIGRAM_PENDING_MAX are pending, deletes their FTS
 * rows and runs `fill` (of the pending rows).
 */
function pendingTriggersSql(t: TrigramTable, sources: readonly string[], fill: string): string {
  const names = trigramTriggers(t);
  const record = (ids: string) => `INSERT OR IGNORE INTO ${t.pending}(id) VALUES ${ids}`;
  return `CREATE TRIGGER ${names.insert} AFTER INSERT ON ${t.table} BEGIN
  ${record('(NEW.id)')};
END;
CREATE TRIGGER ${names.update} AFTER UPDATE OF ${sources.join(', ')} ON ${t.table} BEGIN
  ${record('(OLD.id), (NEW.id)')};
END;
CREATE TRIGGER ${names.delete} AFTER DELETE ON ${t.table} BEGIN
  ${record('(OLD.id)')};
END;
${flushTriggerSql([t], () => fill)}`;
}

/**
 * The trigger that, once TRIGRAM_PENDING_MAX ids are pending, deletes the pending rows from each
 * FTS table of `tables` (one table's, sharing its pending ids), runs each one's `fill`, and
 * forgets the ids.
 */
function flushTriggerSql(tables: readonly TrigramTable[], fill: (t: TrigramTable) => string): string {
  const [t] = tables;
  return `CREATE TRIGGER ${trigramTriggers(t).flush} AFTER INSERT ON ${t.pending} WHEN (SELECT count(*) FROM ${t.pending}) >= ${TRIGRAM_PENDING_MAX} BEGIN
${tables.map((x) => `  DELETE FROM ${x.fts} WHERE rowid IN (SELECT id FROM ${t.pending});`).join('\n')}
${tables.map((x) => `  ${fill(x)};`).join('\n')}
  DELETE FROM ${t.pending};
END;`;
}

/**
 * Writes the texts and tenants of `t.table`'s live rows that `where` selects (rows loaded with the
 * insert trigger suspended, or the pending ones).
 */
export function trigramFillSql(t: TrigramTable, where: string): string {
  return `INSERT INTO ${t.fts}(rowid, ${Object.keys(t.columns).join(', ')}, ${LIVE_TENANT}) SELECT id, ${textsSql(t, '').join(', ')}, '<' || tenant_id || '>' FROM ${t.table} WHERE deleted_at IS NULL AND (${where})`;
}

/**
 * The MATCH term, on the FTS table `fts`, of the live rows of the tenant bound to its one
 * parameter (cast: better-sqlite3 binds a number as a REAL, whose text would be `<1.0>`).
 */
export const liveTenantMatch = (fts: string) => `${fts} MATCH ('{${LIVE_TENANT}} : "<' || CAST(? AS INTEGER) || '>"')`;

/** Folds ASCII letters as SQLite's `lower()` and LIKE do, and nothing else. */
const foldAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The FTS5 query for "`column` contains `value`", or undefined when the value is too short for a
 * trigram: the value as one quoted phrase (quotes doubled; everything else is literal inside).
 */
export function trigramMatch(column: string, value: string): string | undefined {
  if ([...value].length < TRIGRAM_MIN) return undefined;
  return `{${column}} : "${foldAscii(value).replace(/"/g, '""')}"`;
}

/** `def` with each attribute of `table`'s trigram tables answered through the one holding it (`ColumnDef.trigram`). */
export function withTrigrams(def: ListDef, table: TrigramTable['table']): ListDef {
  const tables = trigramTablesOf(table);
  const columns = Object.fromEntries(
    Object.entries(def.columns).map(([name, col]) => {
      const t = tables.find((x) => name in x.columns);
      return [name, t ? { ...col, trigram: { fts: t.fts, pending: t.pending, column: name } } : col];
    }),
  );
  return { ...def, columns };
}
