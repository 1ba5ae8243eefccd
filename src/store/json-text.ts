/**
 * Pieces of hand-written JSON for serializers that write a resource's fields in order straight
 * from SQLite's values, without building the resource object first. Each piece is exactly what
 * `JSON.stringify` writes for that value (strings through `JSON.stringify` itself).
 */

/** A text column: a JSON string, or `null`. */
export const jsonText = (v: unknown): string => (v === null ? 'null' : JSON.stringify(v as string));

/** An integer column: its digits (what JSON.stringify writes for a safe integer), or `null`. */
export const jsonInt = (v: unknown): string => (v === null ? 'null' : String(v as number));

/**
 * A column holding JSON text written by `JSON.stringify` (work hours): spliced as is, since
 * `JSON.stringify(JSON.parse(text))` gives `text` back for such text; or `null`.
 */
export const jsonStored = (v: unknown): string => (v === null ? 'null' : (v as string));
