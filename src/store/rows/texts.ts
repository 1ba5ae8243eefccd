/** The customers' derived texts, the same SQL on both stores (their lists, indexes and trigram tables). */

/** The derived texts of decisions §10: non-empty parts joined by `sep`, NULL when none is left. */
export function joinPartsSql(sep: string, cols: readonly string[]): string {
  return `NULLIF(concat_ws('${sep}', ${cols.map((c) => `NULLIF(${c}, '')`).join(', ')}), '')`;
}

/** A customer's `address` (decisions §6), its parts read through `alias` (`c.`, `NEW.`). */
export const addressSql = (alias: string) => joinPartsSql(', ', ['line_1', 'line_2', 'city', 'region', 'postal_code', 'country'].map((c) => alias + c));
/** A customer's `city_country`. */
export const cityCountrySql = (alias: string) => joinPartsSql(', ', [alias + 'city', alias + 'country']);
