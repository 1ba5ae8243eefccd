import type { z } from 'zod';
import type { ValidationErrorBody } from './common.js';

/** Errors of a validation failure: dotted attribute path → messages, in insertion order. */
export type FieldErrors = Record<string, string[]>;

/** Replaces the `:attribute` placeholder of a message template with the attribute's dotted path. */
export function fillTemplate(template: string, attribute: string): string {
  return template.replaceAll(':attribute', attribute);
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

const TYPE_MESSAGES: Record<string, string> = {
  string: 'The :attribute field must be a string.',
  number: 'The :attribute field must be an integer.',
  int: 'The :attribute field must be an integer.',
  boolean: 'The :attribute field must be true or false.',
  array: 'The :attribute field must be an array.',
  object: 'The :attribute field must be an array.',
};

/** One zod issue as a Laravel-style message template (decisions §10). */
function issueTemplate(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.message.includes(':attribute')) return issue.message;
  switch (issue.code) {
    case 'invalid_type': {
      const value = valueAt(input, issue.path);
      if (value === undefined || value === null || value === '') return 'The :attribute field is required.';
      return TYPE_MESSAGES[issue.expected] ?? 'The :attribute field format is invalid.';
    }
    case 'too_big':
      // zod's integers stop at the safe range; beyond it a number is not an integer we can take.
      if (issue.origin === 'int' && Number(issue.maximum) === Number.MAX_SAFE_INTEGER) return TYPE_MESSAGES.int;
      if (issue.origin === 'string') return `The :attribute field must not be greater than ${issue.maximum} characters.`;
      if (issue.origin === 'array') return `The :attribute field must not have more than ${issue.maximum} items.`;
      return `The :attribute field must not be greater than ${issue.maximum}.`;
    case 'too_small':
      if (issue.origin === 'int' && Number(issue.minimum) === Number.MIN_SAFE_INTEGER) return TYPE_MESSAGES.int;
      if (issue.origin === 'string') return 'The :attribute field is required.';
      return `The :attribute field must be at least ${issue.minimum}.`;
    case 'invalid_format':
      return issue.format === 'email' ? 'The :attribute field must be a valid email address.' : 'The :attribute field format is invalid.';
    case 'invalid_value':
      return 'The selected :attribute is invalid.';
    default:
      return 'The :attribute field format is invalid.';
  }
}

/**
 * Turns zod issues into Laravel-style field errors. `prefix` names the root when the input
 * itself is the failing value (an array body has no attribute name of its own).
 */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[], input: unknown, prefix = 'body'): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const attribute = issue.path.length ? issue.path.map(String).join('.') : prefix;
    const message = fillTemplate(issueTemplate(issue, input), attribute);
    const list = (errors[attribute] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return errors;
}

/** Adds one message to an error map, keeping each attribute's messages unique. */
export function addError(errors: FieldErrors, attribute: string, template: string): void {
  const message = fillTemplate(template, attribute);
  const list = (errors[attribute] ??= []);
  if (!list.includes(message)) list.push(message);
}

/**
 * Orders the attributes of an error map by the position of their first path segment in
 * `fieldOrder` (the body schema's key order); unknown roots keep their relative order, last.
 */
export function orderErrors(errors: FieldErrors, fieldOrder: readonly string[]): FieldErrors {
  const rank = (attribute: string) => {
    const i = fieldOrder.indexOf(attribute.split('.')[0]);
    return i === -1 ? fieldOrder.length : i;
  };
  const keys = Object.keys(errors);
  const sorted = keys.map((k, i) => ({ k, i })).sort((a, b) => rank(a.k) - rank(b.k) || a.i - b.i);
  return Object.fromEntries(sorted.map(({ k }) => [k, errors[k]]));
}

/** The 400 body: `message` is the first message plus ` (and N more error[s])`. */
export function validationBody(errors: FieldErrors): ValidationErrorBody {
  const all = Object.values(errors).flat();
  const rest = all.length - 1;
  const message = rest > 0 ? `${all[0]} (and ${rest} more ${rest === 1 ? 'error' : 'errors'})` : (all[0] ?? 'The given data was invalid.');
  return { message, errors };
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** Parses `input` with `schema`, answering Laravel-style field errors on failure. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, prefix = 'body'): ParseResult<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, errors: issuesToErrors(result.error.issues, input, prefix) };
}
