/** A customer as both stores keep it: its columns, its list definition and its mapping to the contract. */
import { ADDRESS_FIELDS } from '../../contract/address-fields.js';
import type { Address, Customer } from '../../contract/index.js';
import type { CustomerInsert } from '../types.js';
import { nowIso } from '../util.js';
import type { ListDef } from './list-def.js';
import { addressSql, cityCountrySql } from './texts.js';

export type CustomerRow = Omit<Customer, 'address'> & Record<(typeof ADDRESS_FIELDS)[number], string | null>;

const ADDRESS_SQL = addressSql('c.');
const CITY_COUNTRY_SQL = cityCountrySql('c.');

/** A customer's columns and derived `name` (a `CustomerRow`) read from the row `alias` (`c.`, or '' in SQLite's RETURNING, which takes no alias). */
export const customerSelect = (alias: string) => `${alias}id, ${alias}first_name, ${alias}middle_name, ${alias}last_name, ${alias}email, ${alias}contact_number,
  ${ADDRESS_FIELDS.map((f) => alias + f).join(', ')}, ${alias}created_at, ${alias}updated_at,
  concat_ws(' ', NULLIF(${alias}first_name, ''), NULLIF(${alias}middle_name, ''), NULLIF(${alias}last_name, '')) AS name, ${alias}deleted_at`;
export const CUSTOMER_SELECT = customerSelect('c.');
export const CUSTOMER_FROM = 'customers c';

/** Customers' list attributes; `address` and `city_country` are derived text (decisions §6). */
export const CUSTOMER_LIST_DEF: ListDef = {
  select: CUSTOMER_SELECT,
  from: CUSTOMER_FROM,
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
};

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
