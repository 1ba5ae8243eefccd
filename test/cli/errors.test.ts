import { describe, expect, it } from 'vitest';
import { CliError, errorLines, exitCodeFor, UsageError } from '../../src/cli/errors.js';
import { ApiError, NetworkError } from '../../src/client/errors.js';

const api = (status: number, message = 'x', errors?: Record<string, string[]>) => new ApiError(status, message, 'GET', '/users', {}, errors, ['users.read.*']);

describe('exit codes', () => {
  it.each([
    [400, 6],
    [401, 3],
    [403, 3],
    [404, 4],
    [405, 1],
    [409, 5],
    [413, 1],
    [422, 6],
    [429, 7],
    [500, 1],
    [503, 1],
  ])('status %i → %i', (status, code) => expect(exitCodeFor(api(status))).toBe(code));

  it('maps the other error kinds', () => {
    expect(exitCodeFor(new NetworkError('timed out', 'GET', 'u', true))).toBe(8);
    expect(exitCodeFor(new UsageError('bad'))).toBe(2);
    expect(exitCodeFor(new CliError('x', 5))).toBe(5);
    expect(exitCodeFor(new TypeError('boom'))).toBe(1);
  });
});

describe('error lines', () => {
  it('prints one line per field for validation errors', () => {
    const lines = errorLines(api(400, 'The email has already been taken. (and 1 more error)', { email: ['The email has already been taken.'], role: ['The selected role is invalid.'] }));
    expect(lines).toEqual([
      'error: GET /users failed (400): The email has already been taken. (and 1 more error)',
      '  email: The email has already been taken.',
      '  role: The selected role is invalid.',
    ]);
  });
  it('names the missing permission on Access denied.', () => {
    expect(errorLines(api(401, 'Access denied.'))[1]).toBe('hint: the access key lacks a permission this needs: users.read.*');
  });
});
