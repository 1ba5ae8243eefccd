/** SQLite's list counters (store/list-counts.ts): migration 13's table and triggers, and the recount. */
import { COUNTED_TABLES, LIST_COUNTS, recountSql, type CountedTable } from '../list-counts.js';
import type { Db } from './db.js';

/** The insert triggers of `table`'s counters, which a bulk load may set aside if it then calls `recountListCounts`. */
export const counterInsertTrigger = (table: CountedTable) => `${table}_counts_insert`;

/** Adds `sign` times the row `row` (NEW or OLD) to its tenant's counters of `table`. */
const add = (table: CountedTable, row: 'NEW' | 'OLD', sign: '+' | '-') =>
  `INSERT INTO ${LIST_COUNTS} (tenant_id, list, live, trashed) VALUES (${row}.tenant_id, '${table}', ${sign}(${row}.deleted_at IS NULL), ${sign}(${row}.deleted_at IS NOT NULL))
    ON CONFLICT (tenant_id, list) DO UPDATE SET live = live + excluded.live, trashed = trashed + excluded.trashed;`;

/**
 * The row triggers of one counted table. An update moves the counters only when it moves a row
 * between live and trashed or between tenants (a PATCH of a name runs no statement).
 */
function counterTriggers(table: CountedTable): string {
  return `
CREATE TRIGGER ${counterInsertTrigger(table)} AFTER INSERT ON ${table} BEGIN
  ${add(table, 'NEW', '+')}
END;
CREATE TRIGGER ${table}_counts_delete AFTER DELETE ON ${table} BEGIN
  ${add(table, 'OLD', '-')}
END;
CREATE TRIGGER ${table}_counts_update AFTER UPDATE OF tenant_id, deleted_at ON ${table}
  WHEN OLD.tenant_id IS NOT NEW.tenant_id OR (OLD.deleted_at IS NULL) IS NOT (NEW.deleted_at IS NULL) BEGIN
  ${add(table, 'OLD', '-')}
  ${add(table, 'NEW', '+')}
END;`;
}

/** Migration 13: the counters' table, its triggers, and the counts of the rows already there. */
export function listCountsDdl(): string {
  return `
CREATE TABLE ${LIST_COUNTS} (
  tenant_id INTEGER NOT NULL,
  list TEXT NOT NULL,
  live INTEGER NOT NULL,
  trashed INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, list)
);
${COUNTED_TABLES.map(counterTriggers).join('\n')}
CREATE TRIGGER tenants_counts_delete AFTER DELETE ON tenants BEGIN
  DELETE FROM ${LIST_COUNTS} WHERE tenant_id = OLD.id;
END;
${recountSql().join(';\n')};
`;
}

/** Counts `tables` again (in the caller's transaction): after a load that set their triggers aside. */
export function recountListCounts(db: Db, tables?: readonly CountedTable[]): void {
  for (const sql of recountSql(tables)) db.prepare(sql).run();
}
