import { ADDRESS_FIELDS } from '../../../contract/address-fields.js';
import type { Address, Customer } from '../../../contract/index.js';
import type { Db } from '../db.js';
import { type ListDef, type ListMode, ListRunner } from '../list-query.js';
import { addressSql, cityCountrySql, withTrigrams } from '../trigram.js';
import type { CustomerInsert, CustomerPatch, CustomerRepo } from '../../types.js';
import { guardUnique, NotFoundError, nowIso } from '../../util.js';

export type CustomerRow = Omit<Customer, 'address'> & Record<(typeof ADDRESS_FIELDS)[number], string | null>;

const ADDRESS_SQL = addressSql('c.');
const CITY_COUNTRY_SQL = cityCountrySql('c.');
const NAME_SQL = `concat_ws(' ', NULLIF(c.first_name, ''), NULLIF(c.middle_name, ''), NULLIF(c.last_name, ''))`;

export const CUSTOMER_SELECT = `c.id, c.first_name, c.middle_name, c.last_name, c.email, c.contact_number,
  ${ADDRESS_FIELDS.map((f) => `c.${f}`).join(', ')}, c.created_at, c.updated_at, ${NAME_SQL} AS name, c.deleted_at`;
const FROM = 'customers c';

/** Customers' list attributes; `address` and `city_country` are derived text (decisions §6). */
export const CUSTOMER_LIST_DEF: ListDef = withTrigrams({
  select: CUSTOMER_SELECT,
  from: FROM,
  tenantColumn: 'c.tenant_id',
  deletedColumn: 'c.deleted_at',
  idColumn: 'c.id',
  tenantIndex: 'customers_tenant',
  counted: 'customers',
  tenantIdsIndex: 'customers_tenant_ids',
  columns: {
    id: { sql: 'c.id', type: 'integer' },
    first_name: { sql: 'c.first_name', type: 'text', countIndex: 'customers_first_name_count', countIndexById: true },
    middle_name: { sql: 'c.middle_name', type: 'text', countIndex: 'customers_middle_name_count', countIndexById: true },
    last_name: { sql: 'c.last_name', type: 'text', countIndex: 'customers_last_name_count', countIndexById: true },
    email: { sql: 'c.email', type: 'text', countIndex: 'customers_email_count', countIndexById: true },
    contact_number: { sql: 'c.contact_number', type: 'text', countIndex: 'customers_contact_number_count', countIndexById: true },
    address: { sql: ADDRESS_SQL, type: 'text' },
    city_country: { sql: CITY_COUNTRY_SQL, type: 'text' },
    created_at: { sql: 'c.created_at', type: 'date', countIndex: 'customers_created_at_count', countIndexById: true },
    updated_at: { sql: 'c.updated_at', type: 'date', countIndex: 'customers_updated_at_count', countIndexById: true },
    deleted_at: { sql: 'c.deleted_at', type: 'date' },
  },
}, 'customers');

/** The address object with all eight keys, or null when every part is null. */
export function toCustomer(r: CustomerRow): Customer {
  const address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, r[f]])) as Address;
  const { id, first_name, middle_name, last_name, email, contact_number, created_at, updated_at, name, deleted_at } = r;
  const empty = ADDRESS_FIELDS.every((f) => address[f] === null);
  return { id, first_name, middle_name, last_name, email, contact_number, address: empty ? null : address, created_at, updated_at, name, deleted_at };
}

/** The columns an insert writes besides `tenant_id`. */
export const CUSTOMER_COLUMNS = ['first_name', 'middle_name', 'last_name', 'email', 'contact_number', ...ADDRESS_FIELDS, 'created_at', 'updated_at', 'deleted_at'];

/** A customer's stored columns (`CUSTOMER_COLUMNS`) for an insert: defaults applied, the address as its eight parts. */
export function customerRow(input: CustomerInsert): Record<string, unknown> {
  const created = input.created_at ?? nowIso();
  return {
    first_name: input.first_name,
    middle_name: input.middle_name ?? null,
    last_name: input.last_name,
    email: input.email,
    contact_number: input.contact_number ?? null,
    ...addressParams(input.address),
    created_at: created,
    updated_at: input.updated_at ?? created,
    deleted_at: input.deleted_at ?? null,
  };
}

export const addressParams = (a: Partial<Address> | null | undefined) => Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, a?.[f] ?? null]));
const PATCHABLE = ['first_name', 'middle_name', 'last_name', 'email', 'contact_number'] as const;

/** `mode`: the store's list mode (see `ListMode`), when `serve`'s read pool may run its lists. */
export function customerRepo(db: Db, mode?: ListMode): CustomerRepo {
  const lists = new ListRunner<CustomerRow>(db, CUSTOMER_LIST_DEF, mode);
  const selectAny = db.prepare(`SELECT ${CUSTOMER_SELECT} FROM ${FROM} WHERE c.tenant_id = ? AND c.id = ?`);
  const selectLive = db.prepare(`SELECT ${CUSTOMER_SELECT} FROM ${FROM} WHERE c.tenant_id = ? AND c.id = ? AND c.deleted_at IS NULL`);
  const byEmail = db.prepare(`SELECT ${CUSTOMER_SELECT} FROM ${FROM} WHERE c.email = ? COLLATE NOCASE AND c.tenant_id = ? AND c.deleted_at IS NULL`);
  const taken = db.prepare('SELECT 1 FROM customers WHERE email = ? COLLATE NOCASE AND tenant_id = ? AND deleted_at IS NULL AND id IS NOT ?');
  const insert = db.prepare(`INSERT INTO customers (tenant_id, ${CUSTOMER_COLUMNS.join(', ')}) VALUES (@tenant_id, ${CUSTOMER_COLUMNS.map((c) => `@${c}`).join(', ')})`);
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
      return getAny(tenantId, Number(guardUnique(() => insert.run({ tenant_id: tenantId, ...customerRow(input) })).lastInsertRowid))!;
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
