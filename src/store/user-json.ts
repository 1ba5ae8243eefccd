/**
 * A user as JSON text written by the database, for the hot GET and list paths: the keys and order
 * of `JSON.stringify(toUser(row))`. Both stores build it from this one list of fields, each
 * quoted with its own JSON function (SQLite's `json_quote`, PostgreSQL's `to_json`).
 */

/**
 * The fields of a user's JSON text in `JSON.stringify(toUser(row))` order: each key, its SQL
 * expression (over `users u LEFT JOIN departments d`), and whether that expression is JSON text
 * already (work hours, stored as `JSON.stringify` wrote them).
 */
export const USER_JSON_FIELDS: readonly (readonly [key: string, sql: string, raw?: true])[] = [
  ['id', 'u.id'],
  ['department_id', 'u.department_id'],
  ['first_name', 'u.first_name'],
  ['last_name', 'u.last_name'],
  ['email', 'u.email'],
  ['timezone', 'u.timezone'],
  ['work_hours', 'u.work_hours', true],
  ['role', 'u.role'],
  ['created_at', 'u.created_at'],
  ['updated_at', 'u.updated_at'],
  ['status', 'u.status'],
  ['avatar_url', 'u.avatar_url'],
  ['name', "u.first_name || ' ' || u.last_name"],
  ['department_name', 'd.name'],
  ['deleted_at', 'u.deleted_at'],
];

/**
 * One `format()` call writing the JSON object of `fields`: `quote` turns an expression into its
 * JSON text (null as `null`); raw fields are spliced as stored, `null` when NULL.
 */
export function jsonSelect(fields: typeof USER_JSON_FIELDS, quote: (sql: string) => string): string {
  const values = fields.map(([, sql, raw]) => (raw ? `coalesce(${sql}, 'null')` : quote(sql)));
  return `format('{${fields.map(([key]) => `"${key}":%s`).join(',')}}', ${values.join(', ')})`;
}

/**
 * SQLite's user JSON text: values through `json_quote` (which escapes exactly as `JSON.stringify`
 * does, checked over every code point in test/store/users-json.test.ts); one `format()` call
 * (about a third cheaper than chaining `||`).
 */
export const SQLITE_USER_JSON = jsonSelect(USER_JSON_FIELDS, (sql) => `json_quote(${sql})`);

/** The id a user's JSON text starts with (`{"id":42,…`), or undefined. */
export const idOfUserJson = (text: string): number | undefined => {
  const m = /^\{"id":(\d+),/.exec(text);
  return m ? Number(m[1]) : undefined;
};

/**
 * PostgreSQL's user JSON text: `to_json` escapes text exactly as `JSON.stringify` does (checked
 * over every code point in test/store/postgres/json.test.ts).
 */
export const PG_USER_JSON = jsonSelect(USER_JSON_FIELDS, (sql) => `coalesce(to_json(${sql})::text, 'null')`);
