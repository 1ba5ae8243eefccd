/**
 * Complete request bodies, as the hosted service requires them (see `contract/complete-bodies`):
 * an update carries every writable field, the fetched values where nothing changes them; a
 * customer create carries all six keys. No I/O.
 */
import { COMPLETE_BODIES } from '../../contract/complete-bodies.js';
import { pickKeys } from './changes.js';

type Body = Record<string, unknown>;

/** The keys of `given` that are not among `writable`. */
export const unknownKeys = (given: Body, writable: readonly string[]): string[] => Object.keys(given).filter((k) => !writable.includes(k));

/**
 * The whole writable body: the fetched values of `writable`, with `changes` over them. A key
 * missing from `changes` (e.g. removed in the editor) keeps its fetched value.
 */
export function mergeUpdate(current: Body, changes: Body, writable: readonly string[]): Body {
  return { ...Object.fromEntries(writable.map((k) => [k, current[k] ?? null])), ...pickKeys(changes, writable) };
}

/** A customer's `address` as an object: the hosted reference types it so, `{}` meaning none. */
export function withAddressObject(body: Body): Body {
  return body.address === null || body.address === undefined ? { ...body, address: {} } : body;
}

/**
 * The body of `POST /customers` from flags, `--data` or a bulk record: every key, null for a
 * missing name part or contact number, `{}` for no address. Keys that are not writable (a
 * record exported with `id`, `name`, `created_at`) are left out.
 */
export function customerCreateBody(input: Body): Body {
  return withAddressObject(Object.fromEntries(COMPLETE_BODIES.createCustomer.keys.map((k) => [k, input[k] ?? null])));
}
