/** PostgreSQL's list counters (store/list-counts.ts): the table and triggers of migrations 6 and 7, and the recount. */
import type pg from 'pg';
import { bucketOf, COUNTED_TABLES, type CounterKey, keyColumns, LIST_COUNTS, recountSql, type CountedTable } from '../list-counts.js';

/**
 * `sign` times the rows of the transition table `rows`, as (tenant_id[, bucket], live, trashed)
 * per row; the triggers sum them per counter row.
 */
const signed = (key: CounterKey, rows: string, sign: '' | '-') =>
  `SELECT tenant_id${key === 'bucket' ? `, ${bucketOf()} AS bucket` : ''}, ${sign}(deleted_at IS NULL)::int AS live, ${sign}(deleted_at IS NOT NULL)::int AS trashed FROM ${rows}`;

/**
 * Statement-level triggers with transition tables, unlike SQLite's row triggers: a statement
 * writes each counter row it moves (a tenant's, or a tenant's bucket's) once, however many rows
 * it wrote (a batch of the bulk seed inserts 5,000; row by row, each update would leave one more
 * version of the same row for the next to step over until the transaction ends). An update
 * writes nothing unless it moved rows between live and trashed, tenants or buckets. Named after the change-counter triggers
 * (`TABLE_changes_*`), which PostgreSQL fires first: every writer locks the 'all' change counter
 * before a counter row, so writers never wait for each other in a circle. A TRUNCATE empties the
 * table's counters. A counter row written is locked from the write to commit, as
 * the 'all' change counter already is for every writer.
 */
/** Adds the signed rows of `source` (see `signed`) to their counter rows. */
const addRows = (key: CounterKey, source: string) => {
  const [columns, bucket] = [keyColumns(key), key === 'bucket' ? ', bucket' : ''];
  return `
    INSERT INTO ${LIST_COUNTS} AS c (tenant_id, list${columns}, live, trashed)
    SELECT tenant_id, TG_TABLE_NAME${bucket}, sum(live), sum(trashed) FROM (${source}) AS d
    GROUP BY tenant_id${bucket} HAVING sum(live) <> 0 OR sum(trashed) <> 0
    ON CONFLICT (tenant_id, list${columns}) DO UPDATE SET live = c.live + excluded.live, trashed = c.trashed + excluded.trashed;`;
};

/** One branch per event: a statement may name only the transition tables of its trigger. */
const counterFunction = (key: CounterKey) => `
CREATE ${key === 'bucket' ? 'OR REPLACE ' : ''}FUNCTION confctl_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM ${LIST_COUNTS} WHERE list = TG_TABLE_NAME;
  ELSIF TG_OP = 'INSERT' THEN${addRows(key, signed(key, 'new_rows', ''))}
  ELSIF TG_OP = 'DELETE' THEN${addRows(key, signed(key, 'old_rows', '-'))}
  ELSE${addRows(key, `${signed(key, 'new_rows', '')} UNION ALL ${signed(key, 'old_rows', '-')}`)}
  END IF;
  RETURN NULL;
END
$$;`;

function counterTriggers(table: CountedTable): string {
  const run = 'FOR EACH STATEMENT EXECUTE FUNCTION confctl_count_rows()';
  return `
CREATE TRIGGER ${table}_counts_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows ${run};
CREATE TRIGGER ${table}_counts_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows ${run};
CREATE TRIGGER ${table}_counts_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows ${run};
CREATE TRIGGER ${table}_counts_truncate AFTER TRUNCATE ON ${table} ${run};`;
}

/**
 * Migration 6 (as released): the counters' table keyed per tenant (SQLite's migration 13's), its
 * triggers, and the counts of the rows already there.
 */
export function listCountsDdl(): string {
  return `
CREATE TABLE ${LIST_COUNTS} (
  tenant_id bigint NOT NULL,
  list text COLLATE "C" NOT NULL,
  live bigint NOT NULL,
  trashed bigint NOT NULL,
  PRIMARY KEY (tenant_id, list)
);
${counterFunction('tenant')}
${COUNTED_TABLES.map(counterTriggers).join('\n')}
CREATE FUNCTION confctl_drop_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ${LIST_COUNTS} WHERE tenant_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END
$$;
CREATE TRIGGER tenants_counts_delete AFTER DELETE ON tenants REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION confctl_drop_counts();
${recountSql(COUNTED_TABLES, 'tenant').join(';\n')};
`;
}

/**
 * Migration 7 (SQLite's 16): the counters keyed per tenant and id bucket too. The table is made
 * again (so both stores' tables stay alike for `admin copy`) and counted; the triggers stay and
 * call the function made again, which now adds each row to its bucket's counter.
 */
export function bucketedListCountsDdl(): string {
  return `
DROP TABLE ${LIST_COUNTS};
CREATE TABLE ${LIST_COUNTS} (
  tenant_id bigint NOT NULL,
  list text COLLATE "C" NOT NULL,
  bucket bigint NOT NULL,
  live bigint NOT NULL,
  trashed bigint NOT NULL,
  PRIMARY KEY (tenant_id, list, bucket)
);
${counterFunction('bucket')}
${recountSql().join(';\n')};
`;
}

/** Counts every counted table again, in the caller's transaction: after a load with the triggers set aside (`withDeferredIndexes`). */
export async function recountListCounts(client: pg.ClientBase): Promise<void> {
  for (const sql of recountSql()) await client.query(sql);
}
