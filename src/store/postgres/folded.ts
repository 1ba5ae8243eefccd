/** PostgreSQL's text expressions: the ASCII case fold and the customers' derived texts (schema.ts indexes them). */

/**
 * The ASCII case fold of a text expression, as lists compare it and the case-insensitive unique
 * indexes are built on it: `lower` under the "C" collation maps only A-Z (decisions §10; SQLite's
 * NOCASE does the same), while under the database's locale it would also fold `É` or turn `I`
 * into a dotless `ı` (Turkish). It is immutable, so indexable; use exactly this text in queries
 * so that the planner matches them to the indexes. Its result carries the "C" collation, so it
 * also orders by code point.
 */
export function fold(sqlExpr: string): string {
  return `lower((${sqlExpr}) COLLATE "C")`;
}

/**
 * Non-empty parts joined by `sep`, NULL when none is left: SQLite's `NULLIF(concat_ws(sep,
 * NULLIF(a, ''), …), '')` (decisions §10, "Derived text") written with `||` alone, so that it is
 * immutable and a customer's address and city-and-country can be indexed (concat_ws is only
 * STABLE, as it may format any type). Each non-empty part is prefixed by `sep`; the first prefix
 * is cut off. `alias` prefixes each column.
 */
const joinPartsSql = (sep: string, cols: readonly string[], alias: string) =>
  `NULLIF(substr(${cols.map((c) => `COALESCE('${sep}' || NULLIF(${alias}${c}, ''), '')`).join(' || ')}, ${sep.length + 1}), '')`;
/** A customer's derived `address` (list attribute), as an indexable expression. */
export const addressSql = (alias = '') => joinPartsSql(', ', ['line_1', 'line_2', 'city', 'region', 'postal_code', 'country'], alias);
/** A customer's derived `city_country` (list attribute), as an indexable expression. */
export const cityCountrySql = (alias = '') => joinPartsSql(', ', ['city', 'country'], alias);
