/** Comparing values as the server does: keys fold ASCII case; objects compare by content. */
import { ADDRESS_FIELDS } from '../contract/resources.js';
import type { Address } from './model.js';

/** A key as the server compares e-mails and public ids: ASCII letters folded to lower case. */
export const foldKey = (key: string): string => key.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** JSON text with object keys sorted, so equal values give equal text whatever their key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

/** An address with its eight parts (missing ones null), or null when it has none: `{}`, null and all-null parts mean the same. */
export function normalAddress(value: unknown): Address | null {
  if (!value || typeof value !== 'object') return null;
  const source = value as Record<string, unknown>;
  const address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, typeof source[f] === 'string' && source[f] !== '' ? source[f] : null])) as Address;
  return Object.values(address).some((v) => v !== null) ? address : null;
}
