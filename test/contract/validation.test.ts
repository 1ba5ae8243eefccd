import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addError, orderErrors, parseWith, validationBody } from '../../src/contract/validation.js';

describe('Laravel-style validation messages (decisions §2, §10)', () => {
  const schema = z.object({
    name: z.string().min(1).max(5),
    count: z.number().int().optional(),
    flag: z.boolean().optional(),
    tags: z.array(z.string()).max(2).optional(),
    mail: z.email().optional(),
    kind: z.enum(['a', 'b']).optional(),
    nested: z.object({ x: z.string() }).optional(),
  });

  it('maps each failure to its message with the dotted attribute path', () => {
    const r = parseWith(schema, { name: 'toolong', count: 1.5, flag: 'yes', tags: ['a', 'b', 'c'], mail: 'nope', kind: 'c', nested: { x: 1 } });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors).toEqual({
      name: ['The name field must not be greater than 5 characters.'],
      count: ['The count field must be an integer.'],
      flag: ['The flag field must be true or false.'],
      tags: ['The tags field must not have more than 2 items.'],
      mail: ['The mail field must be a valid email address.'],
      kind: ['The selected kind is invalid.'],
      'nested.x': ['The nested.x field must be a string.'],
    });
  });

  it('treats missing, null and empty values as required', () => {
    for (const name of [undefined, null, '']) {
      const r = parseWith(schema, { name });
      expect(!r.ok && r.errors).toEqual({ name: ['The name field is required.'] });
    }
  });

  it('names a failing root value `body`', () => {
    const r = parseWith(z.array(z.string()), { not: 'an array' });
    expect(!r.ok && r.errors).toEqual({ body: ['The body field must be an array.'] });
  });

  it('summarises with (and N more error[s])', () => {
    expect(validationBody({ a: ['A.'] }).message).toBe('A.');
    expect(validationBody({ a: ['A.'], b: ['B.'] }).message).toBe('A. (and 1 more error)');
    expect(validationBody({ a: ['A.', 'A2.'], b: ['B.'] })).toEqual({ message: 'A. (and 2 more errors)', errors: { a: ['A.', 'A2.'], b: ['B.'] } });
  });

  it('orders attributes by the body schema and keeps messages unique', () => {
    const errors = {};
    addError(errors, 'email', 'The :attribute has already been taken.');
    addError(errors, 'email', 'The :attribute has already been taken.');
    addError(errors, 'address.city', 'The :attribute field must be a string.');
    addError(errors, 'first_name', 'The :attribute field is required.');
    expect(Object.keys(orderErrors(errors, ['first_name', 'email', 'address']))).toEqual(['first_name', 'email', 'address.city']);
    expect(errors).toMatchObject({ email: ['The email has already been taken.'] });
  });
});
