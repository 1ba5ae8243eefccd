import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/contract/operations-meta.js';
import { grantMatches, grantsMatchingNothing, hasPermissions, PERMISSION_PATTERN } from '../../src/contract/permissions.js';

describe('permission grants (decisions §3)', () => {
  it.each([
    ['*', 'users.read.*', true],
    ['users.*', 'users.read.*', true],
    ['users.*', 'customers.read.*', false],
    ['users.read.*', 'users.read.*', true],
    ['users.read.*', 'users.update.*', false],
    ['*.read.*', 'customers.read.*', true],
    ['*.read.*', 'customers.create.*', false],
    ['users.read', 'users.read.*', false],
    ['users.read.*.extra', 'users.read.*', false],
    // Segment by segment without a trailing `*`: exactly the same segments, no more, no fewer.
    ['users.read', 'users.read', true],
    ['users.read', 'users', false],
    ['users.read', 'users.read.x', false],
    // A `*` that is not last still needs a segment to match.
    ['users.*.*', 'users', false],
    ['users.*.*', 'users.read', true],
  ])('%s grants %s: %s', (grant, required, expected) => {
    expect(grantMatches(grant, required)).toBe(expected);
  });

  it('needs every permission an operation lists', () => {
    const required = ['users.read.*', 'online_conference_accounts.read.*'];
    expect(hasPermissions(['users.read.*'], required)).toBe(false);
    expect(hasPermissions(['users.read.*', 'online_conference_accounts.*'], required)).toBe(true);
    expect(hasPermissions([], required)).toBe(false);
    expect(hasPermissions(['*'], required)).toBe(true);
  });

  it('accepts well-formed grants only', () => {
    for (const ok of ['*', 'users.*', 'users.read.*', '*.read.*', 'online_conference_recordings.read.*']) expect(PERMISSION_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['', 'users.', '.users', 'users..read', 'Users.read', 'users read', 'users.re*d']) expect(PERMISSION_PATTERN.test(bad), bad).toBe(false);
  });
});

describe('grantsMatchingNothing', () => {
  it('accepts wildcards that match a known permission and names those that match none', () => {
    expect(grantsMatchingNothing(['*', 'users.*', '*.read.*', 'users.read.*', 'online_conference_recordings.read.*'])).toEqual([]);
    expect(grantsMatchingNothing(['user.read.*', 'users.read', 'users.delete.*', 'users.read.*'])).toEqual(['user.read.*', 'users.read', 'users.delete.*']);
  });

  it('checks against the permissions of the operation table', () => {
    for (const p of ALL_PERMISSIONS) expect(grantsMatchingNothing([p])).toEqual([]);
    expect(grantsMatchingNothing(['users.read.*'], ['customers.read.*'])).toEqual(['users.read.*']);
  });
});
