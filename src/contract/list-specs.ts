/**
 * The plain data of the list operations (decisions §6): filter and order attributes, operators and
 * page-size bounds. Free of zod, so the CLI can build help and check `--filter` without loading it;
 * `list-query.ts` builds the server's query schemas from these specs.
 */

/**
 * How a filter attribute's value is parsed and compared (decisions §6). A `boolean` takes
 * `true`/`false`/`1`/`0` with every operator and compares as 1/0 (`Contains` as equality).
 */
export type AttributeType = 'integer' | 'text' | 'date' | 'boolean';

export const OPERATORS = [
  'Equal',
  'NotEqual',
  'Contains',
  'GreaterThan',
  'GreaterThanOrEqual',
  'LessThan',
  'LessThanOrEqual',
  'IsNull',
  'NotNull',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** The filter and order attributes one list operation accepts. */
export interface ListSpec {
  filters: Readonly<Record<string, AttributeType>>;
  orders: readonly string[];
}

export const USER_LIST: ListSpec = {
  filters: {
    id: 'integer',
    first_name: 'text',
    last_name: 'text',
    email: 'text',
    status: 'integer',
    timezone: 'text',
    role: 'text',
    department: 'text',
    department_id: 'integer',
    created_at: 'date',
    updated_at: 'date',
    deleted_at: 'date',
  },
  orders: ['id', 'first_name', 'last_name', 'email', 'status', 'timezone', 'role', 'created_at', 'updated_at', 'deleted_at'],
};

const CUSTOMER_ATTRIBUTES = {
  id: 'integer',
  first_name: 'text',
  middle_name: 'text',
  last_name: 'text',
  email: 'text',
  contact_number: 'text',
  address: 'text',
  city_country: 'text',
  created_at: 'date',
  updated_at: 'date',
  deleted_at: 'date',
} as const satisfies Record<string, AttributeType>;

export const CUSTOMER_LIST: ListSpec = { filters: CUSTOMER_ATTRIBUTES, orders: Object.keys(CUSTOMER_ATTRIBUTES) };

const CONFERENCE_ATTRIBUTES = {
  id: 'integer',
  online_conference_account_id: 'integer',
  backer_event_id: 'integer',
  public_id: 'text',
  title: 'text',
  is_public: 'boolean',
  is_occurred: 'boolean',
  started_at: 'date',
  ended_at: 'date',
  created_at: 'date',
  updated_at: 'date',
  deleted_at: 'date',
} as const satisfies Record<string, AttributeType>;

export const CONFERENCE_LIST: ListSpec = { filters: CONFERENCE_ATTRIBUTES, orders: Object.keys(CONFERENCE_ATTRIBUTES) };

/** The `true`/`false`/`1`/`0` a boolean filter takes, as 1/0; undefined for anything else. */
export function booleanValue(raw: string): 0 | 1 | undefined {
  return raw === 'true' || raw === '1' ? 1 : raw === 'false' || raw === '0' ? 0 : undefined;
}

export const PAGE_SIZE_DEFAULT = 15;
export const PAGE_SIZE_MAX = 100;
