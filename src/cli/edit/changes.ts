/**
 * Which fields of an update would change the stored resource. PATCH is shallow (decisions §7,
 * §10): a sent object replaces the stored one whole, its missing keys becoming null, so nested
 * objects (address, work hours) compare with absent keys read as null.
 */

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values; key order is ignored and an absent key equals null. */
export function sameJson(a: Json, b: Json): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameJson(a[k] ?? null, b[k] ?? null));
  }
  return (a ?? null) === (b ?? null);
}

/** The fields of `wanted` whose value differs from the same field of `current`. */
export function changedFields(current: Record<string, Json>, wanted: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(wanted).filter(([k, v]) => !sameJson(current[k], v)));
}

/** `source` reduced to `keys` (absent keys left out). */
export function pickKeys(source: Record<string, Json>, keys: readonly string[]): Record<string, Json> {
  return Object.fromEntries(keys.filter((k) => k in source).map((k) => [k, source[k]]));
}
