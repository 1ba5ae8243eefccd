/**
 * Bulk inserts for the seeder on PostgreSQL (`admin seed --database --users N --customers N`):
 * the rows `users.insert` and `customers.insert` store, BATCH_ROWS at a time, each batch one
 * multi-row INSERT from arrays (`unnest`) in the caller's transaction, with ids drawn from the
 * table's sequence in row order (as one insert after the other would draw them). The triggers
 * (the users' JSON text, the change counters) run as for any insert.
 */
import type { CustomerInsert, UserInsert } from '../types.js';
import { CUSTOMER_COLUMNS, customerRow } from '../rows/customers.js';
import { USER_COLUMNS, userRow } from '../rows/users.js';
import { all, type Queryable } from './pool.js';

/** Rows per INSERT: one round trip each, a few MB of parameters. */
const BATCH_ROWS = 5_000;

/** Each table's columns with their array types (text unless named). */
const TABLES = {
  users: { columns: USER_COLUMNS, types: { department_id: 'bigint', status: 'integer' } as Record<string, string>, row: (r: UserInsert) => userRow(r) as Record<string, unknown> },
  customers: { columns: CUSTOMER_COLUMNS, types: {} as Record<string, string>, row: (r: CustomerInsert) => customerRow(r) },
};

type Rows = { users: Iterable<UserInsert>; customers: Iterable<CustomerInsert> };

/** Inserts the first `count` of `rows` into `table` for the tenant; throws when `rows` holds fewer. Answers `count`. */
export async function pgBulkInsert<T extends keyof Rows>(db: Queryable, table: T, tenantId: number, count: number, rows: Rows[T]): Promise<number> {
  const { columns, types, row } = TABLES[table];
  const arrays = ['id', 'tenant_id', ...columns].map((c, i) => `$${i + 1}::${i < 2 ? 'bigint' : (types[c] ?? 'text')}[]`);
  const insert = `INSERT INTO ${table} (id, tenant_id, ${columns.join(', ')}) SELECT * FROM unnest(${arrays.join(', ')})`;
  const nextIds = `SELECT nextval(pg_get_serial_sequence('${table}', 'id'))::bigint AS id FROM generate_series(1, $1)`;
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    const ids = (await all<{ id: string }>(db, nextIds, [batch.length])).map((r) => r.id);
    await db.query(insert, [ids, ids.map(() => tenantId), ...columns.map((c) => batch.map((r) => r[c]))]);
    batch = [];
  };
  let n = 0;
  if (count > 0) {
    for (const r of rows as Iterable<UserInsert & CustomerInsert>) {
      batch.push(row(r));
      if (batch.length === BATCH_ROWS) await flush();
      if (++n === count) break;
    }
  }
  if (batch.length) await flush();
  if (n < count) throw new Error(`bulk load: ${count} rows expected, ${n} given`);
  return n;
}
