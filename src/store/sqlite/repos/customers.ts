import { ADDRESS_FIELDS } from '../../../contract/address-fields.js';
import type { Db } from '../db.js';
import { type ListMode, ListRunner } from '../list-query.js';
import { withTrigrams } from '../trigram.js';
import type { CustomerInsert, CustomerPatch, CustomerRepo } from '../../types.js';
import { guardUnique, NotFoundError, nowIso } from '../../util.js';
import type { ListDef } from '../../rows/list-def.js';
import { addressParams, CUSTOMER_COLUMNS, CUSTOMER_FROM, CUSTOMER_LIST_DEF, CUSTOMER_SELECT, customerRow, type CustomerRow, customerSelect, toCustomer } from '../../rows/customers.js';

/** The customers' list on SQLite: its `Contains` of 3 or more characters through the trigram table. */
export const SQLITE_CUSTOMER_LIST_DEF: ListDef = withTrigrams(CUSTOMER_LIST_DEF, 'customers');

const PATCHABLE = ['first_name', 'middle_name', 'last_name', 'email', 'contact_number'] as const;

/** `mode`: the store's list mode (see `ListMode`), when `serve`'s read pool may run its lists. */
export function customerRepo(db: Db, mode?: ListMode): CustomerRepo {
  const lists = new ListRunner<CustomerRow>(db, SQLITE_CUSTOMER_LIST_DEF, mode);
  const selectAny = db.prepare(`SELECT ${CUSTOMER_SELECT} FROM ${CUSTOMER_FROM} WHERE c.tenant_id = ? AND c.id = ?`);
  const selectLive = db.prepare(`SELECT ${CUSTOMER_SELECT} FROM ${CUSTOMER_FROM} WHERE c.tenant_id = ? AND c.id = ? AND c.deleted_at IS NULL`);
  const byEmail = db.prepare(`SELECT ${CUSTOMER_SELECT} FROM ${CUSTOMER_FROM} WHERE c.email = ? COLLATE NOCASE AND c.tenant_id = ? AND c.deleted_at IS NULL`);
  const taken = db.prepare('SELECT 1 FROM customers WHERE email = ? COLLATE NOCASE AND tenant_id = ? AND deleted_at IS NULL AND id IS NOT ?');
  // Answers the stored row itself: reading it back was a statement more per `POST /customers`.
  const insert = db.prepare(
    `INSERT INTO customers (tenant_id, ${CUSTOMER_COLUMNS.join(', ')}) VALUES (@tenant_id, ${CUSTOMER_COLUMNS.map((c) => `@${c}`).join(', ')}) RETURNING ${customerSelect('')}`,
  );
  // One statement for every patch shape; `has_address` replaces all eight address columns at once.
  const update = db.prepare(`UPDATE customers SET
    ${PATCHABLE.map((f) => `${f} = CASE WHEN @has_${f} THEN @${f} ELSE ${f} END`).join(', ')},
    ${ADDRESS_FIELDS.map((f) => `${f} = CASE WHEN @has_address THEN @${f} ELSE ${f} END`).join(', ')},
    updated_at = @updated_at WHERE tenant_id = @tenant_id AND id = @id AND deleted_at IS NULL`);

  const getAny = (tenantId: number, id: number) => {
    const r = selectAny.get(tenantId, id) as CustomerRow | undefined;
    return r && toCustomer(r);
  };

  return {
    list(tenantId, query) {
      const { rows, total } = lists.run(tenantId, query);
      return { rows: rows.map(toCustomer), total };
    },
    get(tenantId, id) {
      const r = selectLive.get(tenantId, id) as CustomerRow | undefined;
      return r && toCustomer(r);
    },
    insert(tenantId, input: CustomerInsert) {
      return toCustomer(guardUnique(() => insert.get({ tenant_id: tenantId, ...customerRow(input) })) as CustomerRow);
    },
    update(tenantId, id, patch: CustomerPatch) {
      const has = (f: string) => Object.prototype.hasOwnProperty.call(patch, f) && (patch as Record<string, unknown>)[f] !== undefined;
      const params: Record<string, unknown> = { tenant_id: tenantId, id, updated_at: nowIso(), has_address: has('address') ? 1 : 0 };
      for (const f of PATCHABLE) {
        params[`has_${f}`] = has(f) ? 1 : 0;
        params[f] = has(f) ? (patch[f] ?? null) : null;
      }
      Object.assign(params, addressParams(has('address') ? patch.address : null));
      if (guardUnique(() => update.run(params)).changes === 0) throw new NotFoundError('Customer', id);
      return getAny(tenantId, id)!;
    },
    emailTaken: (tenantId, email, exceptId) => taken.get(email, tenantId, exceptId ?? null) !== undefined,
    findByEmail(tenantId, email) {
      const r = byEmail.get(email, tenantId) as CustomerRow | undefined;
      return r && toCustomer(r);
    },
  };
}
