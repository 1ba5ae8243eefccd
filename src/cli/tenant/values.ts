/** Comparing values as the server does: keys fold ASCII case; objects compare by content. */
import { ADDRESS_FIELDS } from '../../contract/resources.js';
import type { Address } from './model.js';

/** A key as the server compares e-mails and public ids: ASCII letters folded to lower case. */
export const foldKey = (key: string): string => key.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Deep equality of JSON values, object keys in any order, an undefined key the same as an absent one, null the same as undefined. */
export function same(a: unknown, b: unknown): boolean {
  if (a === b || (a == null && b == null)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => same(v, (b as unknown[])[i]));
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);
  const kx = keys(x);
  return kx.length === keys(y).length && kx.every((k) => same(x[k], y[k]));
}

/** An address with its eight parts (missing ones null), or null when it has none: `{}`, null and all-null parts mean the same. */
export function normalAddress(value: unknown): Address | null {
  if (!value || typeof value !== 'object') return null;
  const source = value as Record<string, unknown>;
  const address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, typeof source[f] === 'string' && source[f] !== '' ? source[f] : null])) as Address;
  return Object.values(address).some((v) => v !== null) ? address : null;
}
