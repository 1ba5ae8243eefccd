import type pg from 'pg';
import type { Customer, ListQuery, User } from '../../contract/index.js';
import type { CustomerPatch, ListResult, UserInsert, UserPatch } from '../types.js';
import { addressParams, CUSTOMER_LIST_DEF, CUSTOMER_SELECT, type CustomerRow, toCustomer } from '../rows/customers.js';
import { toUser, USER_FROM, USER_LIST_DEF, USER_SELECT, type UserRow } from '../rows/users.js';
import { NotFoundError, nowIso } from '../util.js';
import { compileList, type IdSpan, type PgColumnDef } from './list-query.js';
import type { ListTotals } from './list-totals.js';
import type { ListLane } from './list-lane.js';
import { all, guardUnique, one, type Queryable } from './pool.js';
import { customerInserts } from './customer-inserts.js';
import { CUSTOMER_EMAILS, CUSTOMER_TEXTS_DEF, type FoldedTexts, USER_NAMES } from './folded-texts.js';
import { addressSql, cityCountrySql, fold } from './folded.js';
import { TurnQueue } from './turn.js';
import { ADDRESS_FIELDS } from '../../contract/address-fields.js';

/** How `serve`'s store reads its large lists: in the list lane, with the totals cached. */
export interface ListReads {
  lane: ListLane;
  totals: ListTotals;
}

/**
 * One list page and its exact total. With `reads` (`serve`'s store) it runs in the list lane, in
 * one snapshot (one statement while its total is cached and nothing it counts was written),
 * shared by the identical lists of one turn; without (a unit's steps) on `db`, the unit's transaction.
 */
export async function runList<Row extends pg.QueryResultRow, R>(
  db: Queryable,
  def: Parameters<typeof compileList>[0],
  tenantId: number,
  query: ListQuery,
  map: (row: Row) => R,
  reads?: ListReads,
): Promise<ListResult<R>> {
  const list = compileList(def, tenantId, query);
  const { page, count } = list;
  const read = (on: Queryable, { text, values }: typeof page) => on.query<Row>(text, values).then((r) => r.rows.map(map));
  if (reads) {
    const walked = async (tx: Queryable, walk: NonNullable<typeof list.walk>) => {
      const rows = await read(tx, walk.page);
      return rows.length === walk.rows ? rows : undefined;
    };
    // Not counted yet, a date range's page is walked for from the tenant's first row before the
    // count: found (a range of early dates), a plain count follows; else the count answers the
    // matches' id span too, and the page is walked for again from the first match on.
    const ahead = (tx: Queryable) => list.walk && list.spanCount && { page: () => walked(tx, list.walk!), count: list.spanCount };
    // The page compiled again with the total: a deep page is read from the nearer end, a page among scattered matches walked for first (within their id span).
    const atTotal = (tx: Queryable) => async (total: number, span?: IdSpan) => {
      const { page: full, walk } = compileList(def, tenantId, query, total, span);
      return (walk && (await walked(tx, walk))) ?? read(tx, full);
    };
    // A page with no walk, whose total is cached, is one statement (`readKnown`); else one snapshot.
    const single = (total: number) => {
      const compiled = compileList(def, tenantId, query, total);
      return compiled.walk ? undefined : compiled.page;
    };
    return reads.lane.shared(
      `${page.text}\0${JSON.stringify(page.values)}`,
      (lane) => lane.snapshot((tx) => reads.totals.read(tx, list, atTotal(tx), ahead(tx))),
      (once) => reads.totals.readKnown(once, list, single, map),
    );
  }
  const [rows, total] = await Promise.all([read(db, page), db.query<{ n: number }>(count.text, count.values).then((r) => Number(r.rows[0].n))]);
  return { rows, total };
}

/**
 * `SET col = $n, …` of the fields present in `patch` (whitelisted by `fields`), `updated_at` last;
 * `convert` maps a field's value to its stored form.
 */
export function patchSet(patch: object, fields: readonly string[], values: unknown[], convert: (field: string, value: unknown) => unknown = (_f, v) => v): string {
  const sets: string[] = [];
  for (const f of fields) {
    const v = (patch as Record<string, unknown>)[f];
    if (v === undefined) continue;
    values.push(convert(f, v));
    sets.push(`${f} = $${values.length}`);
  }
  values.push(nowIso());
  sets.push(`updated_at = $${values.length}`);
  return sets.join(', ');
}

/** A user's JSON text, as stored (`users.json`, kept by the triggers of migration 2). */
const USER_JSON = 'u.json AS json';
/** The columns of `def` that `texts`' table (folded-texts.ts) holds, read there (see `PgColumnDef.texts`) as its columns of the same names. */
const throughTexts = <D extends { columns: Readonly<Record<string, PgColumnDef>> }>(def: D, texts: FoldedTexts): D => ({
  ...def,
  columns: {
    ...def.columns,
    ...Object.fromEntries(Object.keys(texts.columns).map((column) => [column, { ...def.columns[column], texts: { table: texts.table, column, ordered: texts.ordered } }])),
  },
});

/** The users' list: the SQLite store's definition with `Contains` on the names read from their folded texts' own table (`USER_NAMES`). */
export const PG_USER_LIST_DEF = throughTexts(USER_LIST_DEF, USER_NAMES);
const USER_JSON_LIST_DEF = { ...PG_USER_LIST_DEF, select: USER_JSON, selectJoins: false };

/**
 * `emailTaken` of `table` (users or customers): whether a live row of the tenant, other than
 * `exceptId`, has the e-mail, ignoring ASCII case. The checks one tenant asks for in one turn
 * (the creations of a pipelined batch) are one statement, each through the live e-mail index.
 */
function emailTaken(db: Queryable, table: 'users' | 'customers') {
  const taken = new TurnQueue(async (asked: Array<{ tenantId: number; email: string; exceptId: number | null }>) => {
    const found = await all<{ email: string }>(
      db,
      `SELECT x.email FROM unnest($1::text[]) AS x(email) WHERE EXISTS (SELECT 1 FROM ${table} t WHERE ${fold('t.email')} = ${fold('x.email')}
        AND t.tenant_id = $2 AND t.deleted_at IS NULL AND t.id IS DISTINCT FROM $3)`,
      [[...new Set(asked.map((a) => a.email))], asked[0].tenantId, asked[0].exceptId],
    );
    const emails = new Set(found.map((r) => r.email));
    return asked.map((a) => emails.has(a.email));
  });
  return (tenantId: number, email: string, exceptId?: number) =>
    taken.ask(`${tenantId}\0${exceptId ?? ''}`, { tenantId, email, exceptId: exceptId ?? null });
}

const USER_PATCHABLE = ['department_id', 'first_name', 'last_name', 'email', 'timezone', 'work_hours', 'role'] as const;
const workHours = (w: unknown) => (w ? JSON.stringify(w) : null);

/** Users (as the SQLite store's `userRepo`); JSON text is `JSON.stringify` of the user. */
export function pgUsers(db: Queryable, reads?: ListReads) {
  // The users of one tenant asked for in one turn, read in one statement.
  const liveJson = new TurnQueue(async (asked: Array<{ tenantId: number; id: number }>) => {
    const rows = await all<{ id: number; json: string }>(
      db,
      `SELECT u.id, ${USER_JSON} FROM users u WHERE u.tenant_id = $1 AND u.id = ANY($2::bigint[]) AND u.deleted_at IS NULL`,
      [asked[0].tenantId, [...new Set(asked.map((a) => a.id))]],
    );
    const byId = new Map(rows.map((r) => [r.id, r.json]));
    return asked.map((a) => byId.get(a.id));
  });
  const read = async (tenantId: number, id: number, live: boolean): Promise<User | undefined> => {
    const r = await one<UserRow>(db, `SELECT ${USER_SELECT} FROM ${USER_FROM} WHERE u.tenant_id = $1 AND u.id = $2${live ? ' AND u.deleted_at IS NULL' : ''}`, [tenantId, id]);
    return r && toUser(r);
  };
  return {
    list: (tenantId: number, query: ListQuery) => runList(db, PG_USER_LIST_DEF, tenantId, query, toUser, reads),
    listJson: (tenantId: number, query: ListQuery) => runList(db, USER_JSON_LIST_DEF, tenantId, query, (r: { json: string }) => r.json, reads),
    get: (tenantId: number, id: number) => read(tenantId, id, true),
    getJson: (tenantId: number, id: number) => liveJson.ask(String(tenantId), { tenantId, id }),
    insert: async (tenantId: number, input: UserInsert): Promise<User> => {
      const created = input.created_at ?? nowIso();
      const row = await guardUnique(
        one<{ id: number }>(
          db,
          `INSERT INTO users (tenant_id, department_id, first_name, last_name, email, timezone, work_hours, role, status, avatar_url,
            created_at, updated_at, deleted_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
          [tenantId, input.department_id ?? null, input.first_name, input.last_name, input.email, input.timezone ?? null, workHours(input.work_hours),
            input.role ?? null, input.status ?? 1, input.avatar_url ?? null, created, input.updated_at ?? created, input.deleted_at ?? null],
        ),
      );
      return (await read(tenantId, row!.id, false))!;
    },
    update: async (tenantId: number, id: number, patch: UserPatch): Promise<User> => {
      const values: unknown[] = [tenantId, id];
      const set = patchSet(patch, USER_PATCHABLE, values, (f, v) => (f === 'work_hours' ? workHours(v) : v));
      const r = await guardUnique(db.query(`UPDATE users SET ${set} WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, values));
      if (r.rowCount === 0) throw new NotFoundError('User', id);
      return (await read(tenantId, id, false))!;
    },
    emailTaken: emailTaken(db, 'users'),
    findByEmail: async (tenantId: number, email: string) => {
      const r = await one<UserRow>(db, `SELECT ${USER_SELECT} FROM ${USER_FROM} WHERE ${fold('u.email')} = ${fold('$1::text')} AND u.tenant_id = $2 AND u.deleted_at IS NULL`, [email, tenantId]);
      return r && toUser(r);
    },
  };
}

/**
 * The customers' list: the SQLite store's definition with the derived address and city-and-country
 * written as migration 3's indexed expressions (the same values, see `addressSql`), their filters
 * and orders read from their folded texts' own table (`CUSTOMER_TEXTS_DEF`), and a `Contains` of
 * the e-mail from `CUSTOMER_EMAILS`.
 */
export const PG_CUSTOMER_LIST_DEF = throughTexts(
  throughTexts(
    {
      ...CUSTOMER_LIST_DEF,
      columns: {
        ...CUSTOMER_LIST_DEF.columns,
        address: { sql: addressSql('c.'), type: 'text' as const },
        city_country: { sql: cityCountrySql('c.'), type: 'text' as const },
      },
    },
    CUSTOMER_TEXTS_DEF,
  ),
  CUSTOMER_EMAILS,
);

const CUSTOMER_PATCHABLE = ['first_name', 'middle_name', 'last_name', 'email', 'contact_number'] as const;

/** Customers (as the SQLite store's `customerRepo`); a sent `address` replaces all eight parts. */
export function pgCustomers(db: Queryable, reads?: ListReads) {
  const read = async (tenantId: number, id: number, live: boolean): Promise<Customer | undefined> => {
    const r = await one<CustomerRow>(db, `SELECT ${CUSTOMER_SELECT} FROM customers c WHERE c.tenant_id = $1 AND c.id = $2${live ? ' AND c.deleted_at IS NULL' : ''}`, [tenantId, id]);
    return r && toCustomer(r);
  };
  return {
    list: (tenantId: number, query: ListQuery) => runList(db, PG_CUSTOMER_LIST_DEF, tenantId, query, toCustomer, reads),
    get: (tenantId: number, id: number) => read(tenantId, id, true),
    insert: customerInserts(db),
    update: async (tenantId: number, id: number, patch: CustomerPatch): Promise<Customer> => {
      const values: unknown[] = [tenantId, id];
      const flat: Record<string, unknown> = { ...patch };
      delete flat.address;
      if (patch.address !== undefined) Object.assign(flat, addressParams(patch.address));
      const fields = patch.address !== undefined ? [...CUSTOMER_PATCHABLE, ...ADDRESS_FIELDS] : CUSTOMER_PATCHABLE;
      const set = patchSet(flat, fields, values, (_f, v) => v ?? null);
      const r = await guardUnique(db.query(`UPDATE customers SET ${set} WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, values));
      if (r.rowCount === 0) throw new NotFoundError('Customer', id);
      return (await read(tenantId, id, false))!;
    },
    emailTaken: emailTaken(db, 'customers'),
    findByEmail: async (tenantId: number, email: string) => {
      const r = await one<CustomerRow>(db, `SELECT ${CUSTOMER_SELECT} FROM customers c WHERE ${fold('c.email')} = ${fold('$1::text')} AND c.tenant_id = $2 AND c.deleted_at IS NULL`, [email, tenantId]);
      return r && toCustomer(r);
    },
  };
}
