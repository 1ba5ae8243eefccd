/** SQLite's list counters (store/list-counts.ts): the table and triggers of migrations 13 and 16, and the recount. */
import { bucketOf, COUNTED_TABLES, type CounterKey, keyColumns, LIST_COUNTS, recountSql, type CountedTable } from '../list-counts.js';
import type { Db } from './db.js';

/** The insert triggers of `table`'s counters, which a bulk load may set aside if it then calls `recountListCounts`. */
export const counterInsertTrigger = (table: CountedTable) => `${table}_counts_insert`;

/** Adds `sign` times the row `row` (NEW or OLD) to its counter row of `table`. */
const add = (key: CounterKey, table: CountedTable, row: 'NEW' | 'OLD', sign: '+' | '-') => {
  const bucket = key === 'bucket' ? `, ${bucketOf(`${row}.`)}` : '';
  return `INSERT INTO ${LIST_COUNTS} (tenant_id, list${keyColumns(key)}, live, trashed) VALUES (${row}.tenant_id, '${table}'${bucket}, ${sign}(${row}.deleted_at IS NULL), ${sign}(${row}.deleted_at IS NOT NULL))
    ON CONFLICT (tenant_id, list${keyColumns(key)}) DO UPDATE SET live = live + excluded.live, trashed = trashed + excluded.trashed;`;
};

/**
 * The row triggers of one counted table. An update moves the counters only when it moves a row
 * between live and trashed or between tenants (or, bucketed, gives it another id): a PATCH of a
 * name runs no statement.
 */
function counterTriggers(key: CounterKey, table: CountedTable): string {
  const [of, moved] = key === 'bucket' ? ['id, tenant_id, deleted_at', 'OLD.id IS NOT NEW.id OR '] : ['tenant_id, deleted_at', ''];
  return `
CREATE TRIGGER ${counterInsertTrigger(table)} AFTER INSERT ON ${table} BEGIN
  ${add(key, table, 'NEW', '+')}
END;
CREATE TRIGGER ${table}_counts_delete AFTER DELETE ON ${table} BEGIN
  ${add(key, table, 'OLD', '-')}
END;
CREATE TRIGGER ${table}_counts_update AFTER UPDATE OF ${of} ON ${table}
  WHEN ${moved}OLD.tenant_id IS NOT NEW.tenant_id OR (OLD.deleted_at IS NULL) IS NOT (NEW.deleted_at IS NULL) BEGIN
  ${add(key, table, 'OLD', '-')}
  ${add(key, table, 'NEW', '+')}
END;`;
}

/**
 * The counters' table, its triggers, and the counts of the rows already there: keyed per tenant
 * (migration 13, as released) or per tenant and id bucket (migration 16, after `dropListCountsDdl`).
 */
export function listCountsDdl(key: CounterKey = 'tenant'): string {
  return `
CREATE TABLE ${LIST_COUNTS} (
  tenant_id INTEGER NOT NULL,
  list TEXT NOT NULL,${key === 'bucket' ? '\n  bucket INTEGER NOT NULL,' : ''}
  live INTEGER NOT NULL,
  trashed INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, list${keyColumns(key)})
);
${COUNTED_TABLES.map((table) => counterTriggers(key, table)).join('\n')}
CREATE TRIGGER tenants_counts_delete AFTER DELETE ON tenants BEGIN
  DELETE FROM ${LIST_COUNTS} WHERE tenant_id = OLD.id;
END;
${recountSql(COUNTED_TABLES, key).join(';\n')};
`;
}

/** Migration 16's first step: migration 13's counters and triggers go. */
export const dropListCountsDdl = () =>
  `${COUNTED_TABLES.flatMap((t) => ['insert', 'delete', 'update'].map((e) => `DROP TRIGGER ${t}_counts_${e};`)).join('\n')}
DROP TRIGGER tenants_counts_delete;
DROP TABLE ${LIST_COUNTS};`;

/** Counts `tables` again (in the caller's transaction): after a load that set their triggers aside. */
export function recountListCounts(db: Db, tables?: readonly CountedTable[]): void {
  for (const sql of recountSql(tables)) db.prepare(sql).run();
}
