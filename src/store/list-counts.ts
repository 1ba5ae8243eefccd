/**
 * Exact row counters per tenant for the lists whose unfiltered totals they answer (SQLite's
 * migration 13, PostgreSQL's migration 6; the same table on both, so `admin copy` copies it as it
 * is): `list_counts` holds, per tenant and table, its live rows and its soft-deleted ones. Each
 * store's triggers keep them exact on every row write by any process (insert, soft delete and
 * back, hard delete, a row moved to another tenant), so the unfiltered total (and with trashed)
 * of a million rows is one row read instead of a count of the tenant's index entries. A bulk path
 * that writes rows with the triggers set aside calls its store's recount (`recountSql`) before it
 * commits.
 */

/** The counters' table. */
export const LIST_COUNTS = 'list_counts';

/** The tables counted: the lists with unfiltered totals of large tenants. */
export const COUNTED_TABLES = ['users', 'customers', 'conferences'] as const;
export type CountedTable = (typeof COUNTED_TABLES)[number];

/**
 * The statements that count the counted `tables` again from their rows, replacing their counters.
 * `tenant_id > 0` (every row) lets SQLite count through the covering partial tenant indexes
 * (migration 2 and 4); PostgreSQL reads it as the no-op it is.
 */
export function recountSql(tables: readonly CountedTable[] = COUNTED_TABLES): string[] {
  return [
    `DELETE FROM ${LIST_COUNTS} WHERE list IN (${tables.map((t) => `'${t}'`).join(', ')})`,
    ...tables.map(
      (table) =>
        `INSERT INTO ${LIST_COUNTS} (tenant_id, list, live, trashed)
         SELECT tenant_id, '${table}', count(*) - count(deleted_at), count(deleted_at) FROM ${table} WHERE tenant_id > 0 GROUP BY tenant_id`,
    ),
  ];
}

/**
 * The exact unfiltered total of `table`'s rows of the tenant bound at `tenant` (a placeholder):
 * live ones, or with the trashed ones too; 0 for a tenant that never had a row there.
 */
export function counterTotalSql(table: CountedTable, withTrashed: boolean, tenant: string): string {
  return `SELECT coalesce((SELECT ${withTrashed ? 'live + trashed' : 'live'} FROM ${LIST_COUNTS} WHERE tenant_id = ${tenant} AND list = '${table}'), 0) AS n`;
}
