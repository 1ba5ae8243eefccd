/**
 * What a list is made of, on both stores: a resource's whitelisted attributes and the SQL
 * fragments its list queries are compiled from (sqlite/list-query.ts, postgres/list-query.ts).
 * The index names are SQLite's plan hints; PostgreSQL's compiler reads the rest.
 */
import type { AttributeType } from '../../contract/index.js';
import type { CountedTable } from '../list-counts.js';

/** One whitelisted attribute: the SQL expression it stands for and how it compares. */
export interface ColumnDef {
  sql: string;
  type: AttributeType;
  /** The expression needs the definition's `joins` (the count query joins only when needed). */
  join?: boolean;
  /**
   * Filter as a semi-join instead of through the join: `fk IN (SELECT id FROM table WHERE
   * tenant_id = <tenant> AND <filter on column>)`, so the filter can use the index on `fk`
   * (filtering on the joined column scanned users). IsNull/NotNull test `fk` itself (the
   * foreign key guarantees the joined row, whose `column` is NOT NULL). A large tenant's count
   * names `index`, on (fk, tenant, deleted_at) WHERE tenant > 0 (covering; 0.2-0.4 ms at 100,000
   * users): left to choose, the planner walked users_email_live and read every row out of order
   * (134 ms), or through the join counted via the plain fk index (8.6 ms).
   */
  semi?: { fk: string; table: string; column: string; index: string };
  /**
   * The covering index that a large tenant's count of a filter on this column names: it reads the
   * index alone, never the rows. On (column, tenant, deleted_at) WHERE tenant > 0 (migrations 9
   * and 10), or on (column, id, tenant, deleted_at) (`countIndexById`).
   */
  countIndex?: string;
  /**
   * `countIndex` is on (column, id, tenant, deleted_at), of every row (migrations 15 and 17): a value's
   * entries hold every tenant's rows, live and trashed, in id order, so a walk of them is in id
   * order but may step over other tenants' entries (no `CompiledList.range`).
   */
  countIndexById?: boolean;
  /**
   * SQLite's trigram table (sqlite/trigram.ts) that answers this attribute's `Contains` of 3 or more
   * characters for a large tenant's live rows, the attribute's column in it, and the table of the
   * ids whose texts it may not hold yet.
   */
  trigram?: { fts: string; pending: string; column: string };
}

/**
 * A resource's list definition. Only these fragments ever reach SQL; user input is bound.
 * `from` must alias the main table so that `idColumn`, `tenantColumn` and `deletedColumn` resolve;
 * `joins` (LEFT JOINs for selected or derived columns) is left out of the count unless the filter
 * needs it: counting 100,000 rows through a join cost ~5x the plain count.
 */
export interface ListDef {
  select: string;
  /**
   * False when `select` reads the main table alone (users' stored JSON text): `joins` then go
   * into the page query only for a filter or an order that needs them. Default true.
   */
  selectJoins?: boolean;
  from: string;
  joins?: string;
  tenantColumn: string;
  deletedColumn: string;
  idColumn: string;
  /** The main table's index on (tenant, deleted_at) WHERE tenant > 0 (migration 2); see `TenantAccess`. */
  tenantIndex: string;
  /** The main table, when its rows are counted per tenant (store/list-counts.ts): unfiltered totals read the counter. */
  counted?: CountedTable;
  /**
   * The main table's index on (tenant) WHERE tenant > 0 (migration 13): every row of a tenant,
   * trashed ones too, in id order, so a `with_trashed` page in id order skips ids alone.
   */
  tenantIdsIndex?: string;
  columns: Readonly<Record<string, ColumnDef>>;
}

/** Whether a list ordered by `orderBy` is in id order (both stores' definitions: the order's column is the id column). */
export const orderedById = (def: Pick<ListDef, 'idColumn'> & { columns: Readonly<Record<string, { sql: string }>> }, orderBy: string): boolean =>
  def.columns[orderBy]?.sql === def.idColumn;
