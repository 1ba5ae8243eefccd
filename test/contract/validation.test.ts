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

  it('numbers out of range, empty text, odd types and formats: each its own message', () => {
    const ranged = z.object({
      n: z.number().max(10).optional(),
      m: z.number().min(3).optional(),
      big: z.number().int().optional(),
      small: z.number().int().optional(),
      text: z.string().optional(),
      list: z.array(z.string()).optional(),
      obj: z.object({}).optional(),
      id: z.string().regex(/^x+$/).optional(),
      deep: z.object({ inner: z.object({ leaf: z.string() }) }).optional(),
    });
    const r = parseWith(ranged, { n: 11, m: 2, big: 2 ** 60, small: -(2 ** 60), text: 5, list: 'no', obj: 1, id: 'y', deep: { inner: 'flat' } });
    expect(!r.ok && r.errors).toEqual({
      n: ['The n field must not be greater than 10.'],
      m: ['The m field must be at least 3.'],
      big: ['The big field must be an integer.'],
      small: ['The small field must be an integer.'],
      text: ['The text field must be a string.'],
      list: ['The list field must be an array.'],
      obj: ['The obj field must be an array.'],
      id: ['The id field format is invalid.'],
      'deep.inner': ['The deep.inner field must be an array.'],
    });
    const required = parseWith(z.object({ a: z.string(), b: z.number(), c: z.boolean(), d: z.object({ e: z.string() }) }), { b: null, c: '', d: null });
    expect(!required.ok && required.errors).toEqual({
      a: ['The a field is required.'],
      b: ['The b field is required.'],
      c: ['The c field is required.'],
      d: ['The d field is required.'],
    });
    expect(validationBody({})).toEqual({ message: 'The given data was invalid.', errors: {} });
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
