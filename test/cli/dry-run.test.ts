import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE, type Fake, JSON_HEADERS, ORIGIN, SECRET, withProfile } from './helpers.js';
import { CONFERENCE, USER, userBody } from './update-fixtures.js';

const P = '/api/public/v2.0';
const KEYS = `-H 'X-Access-Key-Id: ak_test' -H 'X-Access-Key-Secret: ****' -H 'Content-Type: application/json'`;

/**
 * A write interceptor that must stay unused: together with `disableNetConnect` (any other
 * request fails with exit 8) it proves the dry run sent nothing.
 */
function trap(f: Fake, method: string, path: string) {
  f.agent.get(ORIGIN).intercept({ path: `${P}${path}`, method }).reply(200, { message: 'OK', data: { id: 1 } }, JSON_HEADERS);
  return () => f.agent.pendingInterceptors().filter((i) => i.method === method && i.path === `${P}${path}`).length;
}

describe('--dry-run', () => {
  it('customers create prints the curl line, secret masked, and sends nothing', async () => {
    const f = await withProfile();
    const pending = trap(f, 'POST', '/customers');
    expect(await f.run(['--dry-run', 'customers', 'create', '--first-name', 'Ada', '--last-name', "O'Neil", '--email', 'ada@example.com'])).toBe(0);
    expect(f.stdout()).toBe(
      `curl -X POST ${BASE}/customers ${KEYS} --data-raw '{"first_name":"Ada","middle_name":null,"last_name":"O'\\''Neil","email":"ada@example.com","contact_number":null,"address":{}}'\n`,
    );
    expect(f.stdout() + f.stderr()).not.toContain(SECRET);
    expect(pending()).toBe(1);
  });

  it('--show-secret puts the real secret in the line', async () => {
    const f = await withProfile();
    const pending = trap(f, 'POST', '/customers');
    expect(await f.run(['customers', 'create', '--dry-run', '--show-secret', '--first-name', 'A', '--last-name', 'B', '--email', 'a@b.io'])).toBe(0);
    expect(f.stdout()).toContain(`-H 'X-Access-Key-Secret: ${SECRET}'`);
    expect(f.stdout()).not.toContain('****');
    expect(pending()).toBe(1);
  });

  it('users update still reads the user, then prints the PATCH of the complete body', async () => {
    const f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/users/1`, method: 'GET' }).reply(200, { message: 'OK', data: USER }, JSON_HEADERS);
    const pending = trap(f, 'PATCH', '/users/1');
    expect(await f.run(['users', 'update', '1', '--role', 'Member', '--email', USER.email, '--dry-run'])).toBe(0);
    expect(f.stdout()).toBe(`curl -X PATCH ${BASE}/users/1 ${KEYS} --data-raw '${JSON.stringify(userBody({ role: 'Member' }))}'\n`);
    expect(pending()).toBe(1);
  });

  it('an update that changes nothing prints no line, only "nothing to change"', async () => {
    const f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/users/1`, method: 'GET' }).reply(200, { message: 'OK', data: USER }, JSON_HEADERS);
    const pending = trap(f, 'PATCH', '/users/1');
    expect(await f.run(['users', 'update', '1', '--role', USER.role, '--dry-run'])).toBe(0);
    expect(f.stdout()).toBe('');
    expect(f.stderr()).toBe('nothing to change\n');
    expect(pending()).toBe(1);
  });

  it('conferences create, update and attendees add print their requests and send nothing', async () => {
    const f = await withProfile();
    const pendings = [trap(f, 'POST', '/online_conferences'), trap(f, 'PATCH', '/online_conferences/3'), trap(f, 'POST', '/online_conferences/3/attendees')];
    f.agent.get(ORIGIN).intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(200, { message: 'OK', data: CONFERENCE }, JSON_HEADERS);
    expect(await f.run(['--dry-run', 'conferences', 'create', '--account', '2', '--public-id', 'p-1', '--title', 'T', '--public'])).toBe(0);
    expect(await f.run(['--dry-run', 'conferences', 'update', '3', '--public'])).toBe(0);
    expect(await f.run(['--dry-run', 'conferences', 'update', '3', '--title', 'New', '--private'])).toBe(0);
    expect(await f.run(['--dry-run', 'conferences', 'attendees', 'add', '3', '--attendee', 'Ann <ann@x.io>'])).toBe(0);
    expect(f.stdout().split('\n')).toEqual([
      `curl -X POST ${BASE}/online_conferences ${KEYS} --data-raw '{"online_conference_account_id":2,"public_id":"p-1","title":"T","is_public":true}'`,
      `curl -X PATCH ${BASE}/online_conferences/3 ${KEYS} --data-raw '{"title":"Weekly sync","is_public":true}'`,
      `curl -X PATCH ${BASE}/online_conferences/3 ${KEYS} --data-raw '{"title":"New","is_public":false}'`,
      `curl -X POST ${BASE}/online_conferences/3/attendees ${KEYS} --data-raw '[{"name":"Ann","email":"ann@x.io"}]'`,
      '',
    ]);
    expect(pendings.map((p) => p())).toEqual([1, 1, 1]);
  });

  it('bulk create prints one line per record, in file order, and sends nothing', async () => {
    const f = await withProfile();
    const pending = trap(f, 'POST', '/customers');
    const file = join(f.configDir, 'c.csv');
    writeFileSync(file, 'first_name,last_name,email\nA,L,a@x.io\nB,L,b@x.io\nC,L,c@x.io\n');
    expect(await f.run(['--dry-run', 'customers', 'create', '--from-file', file, '--concurrency', '3'])).toBe(0);
    const lines = f.stdout().trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => /"first_name":"(\w)"/.exec(l)![1])).toEqual(['A', 'B', 'C']);
    expect(lines[0]).toBe(`curl -X POST ${BASE}/customers ${KEYS} --data-raw '{"first_name":"A","middle_name":null,"last_name":"L","email":"a@x.io","contact_number":null,"address":{}}'`);
    expect(f.stderr()).toBe('dry run: 3 requests printed, nothing sent\n');
    expect(pending()).toBe(1);
  });

  it('attendees --from-file prints one request per record', async () => {
    const f = await withProfile();
    const pending = trap(f, 'POST', '/online_conferences/3/attendees');
    const file = join(f.configDir, 'a.ndjson');
    writeFileSync(file, '{"name":"A","email":"a@x.io"}\n{"name":"B","email":"b@x.io"}\n');
    expect(await f.run(['--dry-run', 'conferences', 'attendees', 'add', '3', '--from-file', file])).toBe(0);
    expect(f.stdout()).toBe(
      [`--data-raw '[{"name":"A","email":"a@x.io"}]'`, `--data-raw '[{"name":"B","email":"b@x.io"}]'`].map((d) => `curl -X POST ${BASE}/online_conferences/3/attendees ${KEYS} ${d}\n`).join(''),
    );
    expect(pending()).toBe(1);
  });
});
