import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tmp.js';
import { fake } from './helpers.js';

/** export, plan, apply and sync: the refusals decided before any request (no server is scripted, so none may be sent). */
describe('tenant-as-code commands refuse before any request', () => {
  const dir = tempDir();
  const desired = join(dir, 'tenant');
  mkdirSync(desired);
  writeFileSync(join(desired, 'users.yaml'), '- email: nope\n  first_name: A\n');
  const planFile = join(dir, 'old.json');
  writeFileSync(planFile, JSON.stringify({ format_version: 2, changes: [] }));

  it.each([
    [['apply'], 'error: give either a saved plan (apply PLAN.json) or desired-state files (apply -f DIR)'],
    [['apply', planFile, '-f', desired], 'error: give either a saved plan'],
    [['apply', '-f', desired, '--refresh'], 'error: --refresh goes with a saved plan (-f always plans afresh)'],
    [['apply', planFile, '--prune'], 'error: --prune goes with -f'],
    [['apply', planFile, '--max-changes', 'many'], "error: --max-changes must be a whole number from 0, not 'many'"],
    [['apply', planFile, '--concurrency', '0'], "error: --concurrency must be a whole number from 1 to 32, not '0'"],
    [['apply', planFile], `error: cannot apply ${planFile}: the plan's format_version is 2; this confctl applies format_version 1`],
    [['plan'], 'error: give the desired state with -f DIR or -f FILE'],
    [['plan', '-f', desired, '--color', 'sometimes'], "option '--color <when>' argument 'sometimes' is invalid. Allowed choices are auto, always, never."],
    [['plan', '-f', desired, '--department', 'Legal'], "error: --department takes NAME=ID (the department's id, a whole number), not 'Legal'"],
    [['apply', planFile, '--role', 'Auditor'], 'error: --department and --role go with -f or --refresh (a saved plan is already resolved)'],
    [['plan', '-f', join(dir, 'people.yaml')], `error: cannot read ${join(dir, 'people.yaml')}: ENOENT`],
    [['export', dir, '--kinds', 'users,groups'], "error: --kinds takes users, customers, conferences (comma-separated), not 'users,groups'"],
    [['sync', 'users', '--from', planFile, '--map', 'A=email', '--map-file', planFile], 'error: give --map or --map-file, not both'],
    [['sync', 'users', '--from', planFile, '--map', 'A=shoe'], "error: the mapping names 'shoe', not a field of users"],
    [['sync', 'users', '--from', planFile, '--defaults', 'colour=red'], "error: --defaults names 'colour', not a field of users"],
    [['sync', 'customers', '--from', planFile, '--key', 'last_name'], "error: --key 'last_name' cannot match customers: the API keeps customers unique only by email (ignoring case) and by id"],
  ])('confctl %j exits 2: %s', async (args, message) => {
    const f = fake();
    expect(await f.run(args)).toBe(2);
    expect(f.stderr()).toContain(message);
  });

  it('invalid desired state is exit 6 naming every problem; with --detailed-exitcode exit 1', async () => {
    const f = fake();
    expect(await f.run(['plan', '-f', desired])).toBe(6);
    const file = join(desired, 'users.yaml');
    expect(f.stderr()).toBe(
      `error: the desired state has 2 problems; nothing was sent:\n  ${file}:1: nope: last_name: The last_name field is required.\n  ${file}:1: nope: email: The email field must be a valid email address.\n`,
    );
    const d = fake();
    expect(await d.run(['plan', '-f', desired, '--detailed-exitcode'])).toBe(1);
    expect(d.stderr()).toContain('error: the desired state has 2 problems');
  });
});
