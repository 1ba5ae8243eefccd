import type { Customer } from '../../contract/index.js';
import { CUSTOMER_COLUMNS, CUSTOMER_SELECT, customerRow, type CustomerRow, toCustomer } from '../rows/customers.js';
import type { CustomerInsert } from '../types.js';
import { UniqueViolation } from '../util.js';
import { all, guardUnique, one, type Queryable } from './pool.js';
import { TurnQueue } from './turn.js';

const COLUMNS = ['tenant_id', ...CUSTOMER_COLUMNS];
const INSERT_ONE = `INSERT INTO customers AS c (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${CUSTOMER_SELECT}`;
/** Every column but the id is text; the id and tenant are bigint. */
const INSERT_MANY = `INSERT INTO customers AS c (id, ${COLUMNS.join(', ')})
  SELECT * FROM unnest(${['id', ...COLUMNS].map((_, i) => `$${i + 1}::${i < 2 ? 'bigint' : 'text'}[]`).join(', ')})
  ON CONFLICT DO NOTHING RETURNING ${CUSTOMER_SELECT}`;
const NEXT_IDS = "SELECT nextval(pg_get_serial_sequence('customers', 'id')) AS id FROM generate_series(1, $1)";

type Outcome = { row: CustomerRow } | { error: unknown };

/**
 * Customer creation: the creations asked for in one turn of the event loop (the POSTs of a
 * pipelined batch) are one multi-row INSERT, and so one round trip and one commit, instead of one
 * each. Their ids are drawn from the sequence in the order they were asked for, and each row
 * stands alone: one whose live e-mail clashes (with a row of the same batch, or one written since
 * the e-mail was checked) is skipped and its caller alone gets the `UniqueViolation`, as a single
 * INSERT would give it; its drawn id stays unused. Should the batch fail whole (any other error),
 * each creation is tried again alone, in the order asked, so one bad row never fails another's
 * request.
 */
export function customerInserts(db: Queryable): (tenantId: number, input: CustomerInsert) => Promise<Customer> {
  const single = (values: unknown[]): Promise<Outcome> =>
    guardUnique(one<CustomerRow>(db, INSERT_ONE, values)).then(
      (row) => ({ row: row! }),
      (error: unknown) => ({ error }),
    );
  const many = async (asked: unknown[][]): Promise<Outcome[]> => {
    const ids = (await all<{ id: number }>(db, NEXT_IDS, [asked.length])).map((r) => r.id);
    const rows = await all<CustomerRow>(db, INSERT_MANY, [ids, ...COLUMNS.map((_, c) => asked.map((values) => values[c]))]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => {
      const row = byId.get(id);
      return row ? { row } : { error: new UniqueViolation('email') };
    });
  };
  const inserts = new TurnQueue(async (asked: unknown[][]): Promise<Outcome[]> => {
    if (asked.length > 1) {
      const outcomes = await many(asked).catch(() => undefined);
      if (outcomes) return outcomes;
    }
    const outcomes: Outcome[] = [];
    for (const values of asked) outcomes.push(await single(values));
    return outcomes;
  });
  return async (tenantId, input) => {
    const row = customerRow(input);
    const outcome = await inserts.ask('', [tenantId, ...CUSTOMER_COLUMNS.map((c) => row[c])]);
    if ('error' in outcome) throw outcome.error;
    return toCustomer(outcome.row);
  };
}
