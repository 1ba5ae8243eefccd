/** PostgreSQL's list counters (store/list-counts.ts): the table and triggers of migrations 6, 7 and 10, and the recount. */
import type pg from 'pg';
import { BOUND_COLUMNS, boundValues, bucketOf, COUNTED_TABLES, type CounterKey, highest, keyColumns, LIST_COUNTS, lowest, recountSql, STAMPS, type CountedTable } from '../list-counts.js';

/**
 * `sign` times the rows of the transition table `rows`, as (tenant_id[, bucket], live, trashed)
 * per row; the triggers sum them per counter row.
 */
const signed = (key: CounterKey, rows: string, sign: '' | '-', bounds: boolean) =>
  `SELECT tenant_id${key === 'bucket' ? `, ${bucketOf()} AS bucket` : ''}, ${sign}(deleted_at IS NULL)::int AS live, ${sign}(deleted_at IS NOT NULL)::int AS trashed${bounds ? `, ${STAMPS.join(', ')}` : ''} FROM ${rows}`;

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
/**
 * Adds the signed rows of `source` (see `signed`) to their counter rows. With `bounds` (migration
 * 10), each counter row's stamp bounds widen to take in the rows' stamps, and a statement that
 * moved no count writes a counter row only when it widens it (a PATCH whose `updated_at` passes
 * its bucket's greatest); a counter row it leaves is still locked.
 */
const addRows = (key: CounterKey, source: string, bounds: boolean) => {
  const [columns, bucket] = [keyColumns(key), key === 'bucket' ? ', bucket' : ''];
  const moved = 'sum(live) <> 0 OR sum(trashed) <> 0';
  const conflict = `ON CONFLICT (tenant_id, list${columns}) DO UPDATE SET live = c.live + excluded.live, trashed = c.trashed + excluded.trashed`;
  if (!bounds) {
    return `
    INSERT INTO ${LIST_COUNTS} AS c (tenant_id, list${columns}, live, trashed)
    SELECT tenant_id, TG_TABLE_NAME${bucket}, sum(live), sum(trashed) FROM (${source}) AS d
    GROUP BY tenant_id${bucket} HAVING ${moved}
    ${conflict};`;
  }
  const widen = STAMPS.flatMap((s) => [`${lowest(s)} = least(c.${lowest(s)}, excluded.${lowest(s)})`, `${highest(s)} = greatest(c.${highest(s)}, excluded.${highest(s)})`]).join(', ');
  const widens = STAMPS.flatMap((s) => [`excluded.${lowest(s)} < c.${lowest(s)}`, `excluded.${highest(s)} > c.${highest(s)}`]).join(' OR ');
  return `
    INSERT INTO ${LIST_COUNTS} AS c (tenant_id, list${columns}, live, trashed, ${BOUND_COLUMNS.join(', ')})
    SELECT tenant_id, TG_TABLE_NAME${bucket}, sum(live), sum(trashed), ${boundValues('', 'min', 'max')} FROM (${source}) AS d
    GROUP BY tenant_id${bucket}
    ${conflict}, ${widen}
    WHERE excluded.live <> 0 OR excluded.trashed <> 0 OR ${widens};`;
};

/** One branch per event: a statement may name only the transition tables of its trigger. */
const counterFunction = (key: CounterKey, bounds = false) => `
CREATE ${key === 'bucket' ? 'OR REPLACE ' : ''}FUNCTION confctl_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM ${LIST_COUNTS} WHERE list = TG_TABLE_NAME;
  ELSIF TG_OP = 'INSERT' THEN${addRows(key, signed(key, 'new_rows', '', bounds), bounds)}
  ELSIF TG_OP = 'DELETE' THEN${addRows(key, signed(key, 'old_rows', '-', bounds), bounds)}
  ELSE${addRows(key, `${signed(key, 'new_rows', '', bounds)} UNION ALL ${signed(key, 'old_rows', '-', bounds)}`, bounds)}
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
${recountSql(COUNTED_TABLES, 'bucket', false).join(';\n')};
`;
}

/**
 * Migration 10 (SQLite's 19): the counters hold each bucket's stamp bounds too
 * (store/stamp-bounds.ts), widened by the function made again (see `addRows`), and counted. Until
 * the recount, a new column holds the widest bounds ('' and '~', around every ISO text).
 */
export function stampBoundsDdl(): string {
  const columns = STAMPS.flatMap((s) => [`ADD COLUMN ${lowest(s)} text COLLATE "C" NOT NULL DEFAULT ''`, `ADD COLUMN ${highest(s)} text COLLATE "C" NOT NULL DEFAULT '~'`]);
  return `
ALTER TABLE ${LIST_COUNTS} ${columns.join(', ')};
${counterFunction('bucket', true)}
${recountSql().join(';\n')};
`;
}

/** Counts every counted table again, in the caller's transaction: after a load with the triggers set aside (`withDeferredIndexes`). */
export async function recountListCounts(client: pg.ClientBase): Promise<void> {
  for (const sql of recountSql()) await client.query(sql);
}
