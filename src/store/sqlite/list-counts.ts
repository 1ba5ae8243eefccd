/** SQLite's list counters (store/list-counts.ts): the table and triggers of migrations 13, 16 and 19, and the recount. */
import {
  BOUND_COLUMNS,
  boundValues,
  bucketOf,
  COUNTED_TABLES,
  type CounterKey,
  highest,
  keyColumns,
  LIST_COUNTS,
  lowest,
  recountSql,
  STAMPS,
  type CountedTable,
} from '../list-counts.js';
import type { Db } from './db.js';

/** The insert triggers of `table`'s counters, which a bulk load may set aside if it then calls `recountListCounts`. */
export const counterInsertTrigger = (table: CountedTable) => `${table}_counts_insert`;

/** The counters' stamp bounds widened to take in `excluded`'s (SQLite's two-argument min and max). */
const widened = STAMPS.flatMap((s) => [`${lowest(s)} = min(${lowest(s)}, excluded.${lowest(s)})`, `${highest(s)} = max(${highest(s)}, excluded.${highest(s)})`]).join(', ');

/** Adds `sign` times the row `row` (NEW or OLD) to its counter row of `table`; with `bounds`, widening its bucket's stamp bounds to the row's (migration 19). */
const add = (key: CounterKey, table: CountedTable, row: 'NEW' | 'OLD', sign: '+' | '-', bounds = false) => {
  const bucket = key === 'bucket' ? `, ${bucketOf(`${row}.`)}` : '';
  const [columns, values, widen] = bounds ? [`, ${BOUND_COLUMNS.join(', ')}`, `, ${boundValues(`${row}.`)}`, `, ${widened}`] : ['', '', ''];
  return `INSERT INTO ${LIST_COUNTS} (tenant_id, list${keyColumns(key)}, live, trashed${columns}) VALUES (${row}.tenant_id, '${table}'${bucket}, ${sign}(${row}.deleted_at IS NULL), ${sign}(${row}.deleted_at IS NOT NULL)${values})
    ON CONFLICT (tenant_id, list${keyColumns(key)}) DO UPDATE SET live = live + excluded.live, trashed = trashed + excluded.trashed${widen};`;
};

/** The insert and update triggers of one counted table (`bounds`: see `add`). */
function writeTriggers(key: CounterKey, table: CountedTable, bounds: boolean): string {
  const [of, moved] = key === 'bucket' ? ['id, tenant_id, deleted_at', 'OLD.id IS NOT NEW.id OR '] : ['tenant_id, deleted_at', ''];
  return `
CREATE TRIGGER ${counterInsertTrigger(table)} AFTER INSERT ON ${table} BEGIN
  ${add(key, table, 'NEW', '+', bounds)}
END;
CREATE TRIGGER ${table}_counts_update AFTER UPDATE OF ${of} ON ${table}
  WHEN ${moved}OLD.tenant_id IS NOT NEW.tenant_id OR (OLD.deleted_at IS NULL) IS NOT (NEW.deleted_at IS NULL) BEGIN
  ${add(key, table, 'OLD', '-', bounds)}
  ${add(key, table, 'NEW', '+', bounds)}
END;`;
}

/**
 * The row triggers of one counted table. An update moves the counters only when it moves a row
 * between live and trashed or between tenants (or, bucketed, gives it another id): a PATCH of a
 * name runs no statement.
 */
function counterTriggers(key: CounterKey, table: CountedTable): string {
  return `${writeTriggers(key, table, false)}
CREATE TRIGGER ${table}_counts_delete AFTER DELETE ON ${table} BEGIN
  ${add(key, table, 'OLD', '-')}
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
${recountSql(COUNTED_TABLES, key, false).join(';\n')};
`;
}

/** Migration 16's first step: migration 13's counters and triggers go. */
export const dropListCountsDdl = () =>
  `${COUNTED_TABLES.flatMap((t) => ['insert', 'delete', 'update'].map((e) => `DROP TRIGGER ${t}_counts_${e};`)).join('\n')}
DROP TRIGGER tenants_counts_delete;
DROP TABLE ${LIST_COUNTS};`;

/**
 * Migration 19: the counters hold each bucket's stamp bounds too (store/stamp-bounds.ts). The
 * insert and update triggers are made again to widen them with each row they count; an update
 * of a stamp alone widens its bucket's bounds when the new stamp lies outside them (a PATCH whose
 * `updated_at` passes the bucket's greatest: one update of the counter row). A delete leaves
 * them. Until the recount at the end, a new column holds the widest bounds ('' and '~', around
 * every ISO text), true of any row.
 */
export function stampBoundsDdl(): string {
  const columns = STAMPS.flatMap((s) => [`ALTER TABLE ${LIST_COUNTS} ADD COLUMN ${lowest(s)} TEXT NOT NULL DEFAULT '';`, `ALTER TABLE ${LIST_COUNTS} ADD COLUMN ${highest(s)} TEXT NOT NULL DEFAULT '~';`]);
  const outside = STAMPS.flatMap((s) => [`${lowest(s)} > NEW.${s}`, `${highest(s)} < NEW.${s}`]).join(' OR ');
  const triggers = COUNTED_TABLES.map(
    (table) => `DROP TRIGGER ${counterInsertTrigger(table)};
DROP TRIGGER ${table}_counts_update;
${writeTriggers('bucket', table, true)}
CREATE TRIGGER ${table}_bounds_update AFTER UPDATE OF ${STAMPS.join(', ')} ON ${table} BEGIN
  UPDATE ${LIST_COUNTS} SET ${STAMPS.flatMap((s) => [`${lowest(s)} = min(${lowest(s)}, NEW.${s})`, `${highest(s)} = max(${highest(s)}, NEW.${s})`]).join(', ')}
    WHERE tenant_id = NEW.tenant_id AND list = '${table}' AND bucket = ${bucketOf('NEW.')} AND (${outside});
END;`,
  );
  return `${columns.join('\n')}
${triggers.join('\n')}
${recountSql(COUNTED_TABLES, 'bucket', true).join(';\n')};
`;
}

/** The most rows, deleted included, that one tenant has in one counted table (0 when none has any): from the counters, a few hundred rows at a million. */
export function largestTenantRows(db: Db): number {
  return db.prepare(`SELECT coalesce(max(n), 0) FROM (SELECT sum(live + trashed) AS n FROM ${LIST_COUNTS} GROUP BY tenant_id, list)`).pluck().get() as number;
}

/** Counts `tables` again (in the caller's transaction): after a load that set their triggers aside. */
export function recountListCounts(db: Db, tables?: readonly CountedTable[]): void {
  for (const sql of recountSql(tables)) db.prepare(sql).run();
}
