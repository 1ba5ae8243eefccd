import { z } from 'zod';

/** A Laravel-style message template; `:attribute` is replaced by the dotted path of the field. */
export type MessageTemplate = string;

export const id = z.number().int().positive();

/** A NUL character, or a UTF-16 surrogate without its pair (JSON's `"\ud800"` parses to one). */
const ILL_FORMED = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True for text that can be stored and read back as sent: no NUL, no lone surrogate. */
export function isWellFormedText(value: string): boolean {
  return !ILL_FORMED.test(value);
}

/**
 * The contract's input string, the base of every text field of every body: text with NUL or a
 * lone surrogate is `The X field format is invalid.`, and no other check of that field runs.
 */
export const inputString = () =>
  z.string().refine(isWellFormedText, { error: 'The :attribute field format is invalid.', abort: true });
export const timestamp = z.string().describe('ISO 8601 date-time, UTC, e.g. 2026-01-31T09:30:00.000Z');
export const nullableTimestamp = timestamp.nullable();

/** Type names used in `attendee_type`, `owner_type`, `canceled_by_type` (decisions §7). */
export const TypeName = z.enum(['User', 'Customer']);
export type TypeName = z.infer<typeof TypeName>;

/** The three envelopes of spec §2, built around a resource schema. */
export function singleEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ message: z.string(), data });
}

export function arrayEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ message: z.string(), data: z.array(item) });
}

export function paginatedEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    message: z.string(),
    data: z.array(item),
    current_page: z.number().int(),
    first_page_url: z.string(),
    from: z.number().int().nullable(),
    last_page: z.number().int(),
    last_page_url: z.string(),
    next_page_url: z.string().nullable(),
    path: z.string(),
    per_page: z.number().int(),
    prev_page_url: z.string().nullable(),
    to: z.number().int().nullable(),
    total: z.number().int(),
  });
}

/** The envelope of a paginated list, as a TypeScript type. */
export interface Paginated<T> {
  message: string;
  data: T[];
  current_page: number;
  first_page_url: string;
  from: number | null;
  last_page: number;
  last_page_url: string;
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
  total: number;
}

export interface Single<T> {
  message: string;
  data: T;
}

/** The JSON body of a 400 validation failure (decisions §2). */
export const ValidationErrorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;
