import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Fake, JSON_HEADERS, ORIGIN, withProfile } from './helpers.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const P = '/api/public/v2.0';
const HOURS = { sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
const user = (email: string, extra: Record<string, unknown> = {}) => ({ id: 9, first_name: 'A', last_name: 'B', email, timezone: 'UTC', work_hours: HOURS, role: 'Member', department_id: null, status: 1, ...extra });
const DEPARTMENT = { message: 'The selected department_id is invalid.', errors: { department_id: ['The selected department_id is invalid.'] } };

/** POST /users: 400 for a department other than null, else the user. */
function stubCreate(times: number) {
  const sent: Record<string, unknown>[] = [];
  f.agent
    .get(ORIGIN)
    .intercept({ path: `${P}/users`, method: 'POST' })
    .reply((req) => {
      const body = JSON.parse(req.body);
      sent.push(body);
      if (body.department_id !== null) return { statusCode: 400, data: DEPARTMENT, responseOptions: JSON_HEADERS };
      return { statusCode: 200, data: { message: 'OK', data: { id: sent.length, ...body } }, responseOptions: JSON_HEADERS };
    })
    .times(times);
  return sent;
}

describe('users from another instance: the failures say why and what to do', () => {
  it('a department the instance lacks, and a null time zone or work hours, each get a hint', async () => {
    f = await withProfile();
    const file = join(f.configDir, 'users.ndjson');
    writeFileSync(file, [user('a@x.io', { department_id: 3 }), user('b@x.io', { timezone: null }), user('c@x.io', { work_hours: null }), user('d@x.io')].map((u) => JSON.stringify(u)).join('\n'));
    stubCreate(2);
    expect(await f.run(['users', 'create', '--from-file', file, '-o', 'json'])).toBe(6);
    const err = f.stderr();
    expect(err).toContain('line 1: failed (400): The selected department_id is invalid.');
    expect(err).toContain('line 2: failed: The timezone field is required.');
    expect(err).toContain('line 3: failed: The work_hours field is required.');
    expect(err).toMatch(/hint: .*department_id.*'confctl admin import departments/);
    expect(err).toMatch(/hint: .*time zone or work hours/);
  });

  it('one user: the department hint too', async () => {
    f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/users`, method: 'POST' }).reply(400, DEPARTMENT, JSON_HEADERS);
    const flags = ['--first-name', 'A', '--last-name', 'B', '--email', 'a@x.io', '--timezone', 'UTC', '--role', 'Member', '--work-hours', 'none', '--department-id', '3'];
    expect(await f.run(['users', 'create', ...flags])).toBe(6);
    expect(f.stderr()).toMatch(/hint: .*'confctl admin import departments/);
  });

  it('the --errors file feeds straight back into --from-file (each line\'s record is sent)', async () => {
    f = await withProfile();
    const file = join(f.configDir, 'users.ndjson');
    const errors = join(f.configDir, 'failed.ndjson');
    writeFileSync(file, [user('a@x.io', { department_id: 3 }), user('d@x.io')].map((u) => JSON.stringify(u)).join('\n'));
    stubCreate(2);
    expect(await f.run(['users', 'create', '--from-file', file, '--errors', errors, '-o', 'json'])).toBe(6);
    expect(readFileSync(errors, 'utf8').trim().split('\n')).toHaveLength(1);

    // Fixed in the file (department dropped), then sent again as it is.
    writeFileSync(errors, readFileSync(errors, 'utf8').replace('"department_id":3', '"department_id":null'));
    const sent = stubCreate(1);
    expect(await f.run(['users', 'create', '--from-file', errors, '-o', 'json'])).toBe(0);
    expect(sent).toEqual([expect.objectContaining({ email: 'a@x.io', department_id: null, timezone: 'UTC' })]);
    expect(sent[0]).not.toHaveProperty('record');
  });
});
