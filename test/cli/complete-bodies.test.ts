/**
 * Every body the CLI builds for the writes the hosted service checks strictly satisfies its
 * complete-body rules, and our own server's body schema accepts it too. The bodies are taken from
 * the `--dry-run` curl lines, exactly as they would be sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { incompleteKeys, needsCompleteBody } from '../../src/contract/complete-bodies.js';
import { type OperationId, operation } from '../../src/contract/operations.js';
import { type Fake, JSON_HEADERS, ORIGIN, withProfile } from './helpers.js';
import { CONFERENCE, CUSTOMER, USER, userBody } from './update-fixtures.js';

const P = '/api/public/v2.0';

/** The JSON bodies of the curl lines on stdout (each `--data-raw` argument, single-quoted). */
function sentBodies(stdout: string): unknown[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const m = /--data-raw ('(?:[^']|'\\'')*')$/.exec(line);
      if (!m) throw new Error(`no --data-raw in ${line}`);
      return JSON.parse(m[1].slice(1, -1).replace(/'\\''/g, "'"));
    });
}

function serve(f: Fake, path: string, data: unknown) {
  f.agent.get(ORIGIN).intercept({ path: `${P}${path}`, method: 'GET' }).reply(200, { message: 'OK', data }, JSON_HEADERS).persist();
}

interface Case {
  op: OperationId;
  args: (dir: string) => string[];
  /** Records sent (bulk: one line each). */
  count?: number;
}

const EXPORTED = [
  { ...CUSTOMER, id: 1, email: 'a@x.io' },
  { id: 2, name: 'Bo', first_name: 'Bo', last_name: 'L', email: 'b@x.io', created_at: '2026-01-01T00:00:00.000Z' },
];

const CASES: Record<string, Case> = {
  'users update --role': { op: 'updateUser', args: () => ['users', 'update', '1', '--role', 'Manager'] },
  'users update --role of a user without a department (null is allowed there)': { op: 'updateUser', args: () => ['users', 'update', '2', '--role', 'Manager'] },
  'users update --clear department_id': { op: 'updateUser', args: () => ['users', 'update', '1', '--clear', 'department_id'] },
  'users update --data with every field': { op: 'updateUser', args: () => ['users', 'update', '1', '--data', JSON.stringify(userBody({ role: 'Member' }))] },
  'users update --edit': { op: 'updateUser', args: () => ['users', 'update', '1', '--edit'] },
  'customers update --email (no stored address)': { op: 'updateCustomer', args: () => ['customers', 'update', '8', '--email', 'new@x.io'] },
  'conferences update --title (visibility read)': { op: 'updateConference', args: () => ['conferences', 'update', '3', '--title', 'Moved'] },
  'conferences update --data is_public (title read)': { op: 'updateConference', args: () => ['conferences', 'update', '3', '--data', '{"is_public":true}'] },
  'conferences update --title --public (not read)': { op: 'updateConference', args: () => ['conferences', 'update', '3', '--title', 'Moved', '--public'] },
  'customers create with the three required flags': { op: 'createCustomer', args: () => ['customers', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'a@b.io'] },
  'customers create --data of a fetched customer': { op: 'createCustomer', args: () => ['customers', 'create', '--data', JSON.stringify({ ...CUSTOMER, email: 'c@x.io' })] },
  'customers create --from-file CSV with empty cells': {
    op: 'createCustomer',
    count: 3,
    args: (dir) => {
      const file = join(dir, 'c.csv');
      writeFileSync(file, 'first_name,middle_name,last_name,email,contact_number,address.city\nA,,L,a@x.io,,Paris\nB,M,L,b@x.io,+493055501,\nC,,L,c@x.io,,\n');
      return ['customers', 'create', '--from-file', file];
    },
  },
  'customers create --from-file of an NDJSON export (id, name, times ignored)': {
    op: 'createCustomer',
    count: 2,
    args: (dir) => {
      const file = join(dir, 'c.ndjson');
      writeFileSync(file, EXPORTED.map((r) => JSON.stringify(r)).join('\n'));
      return ['customers', 'create', '--from-file', file];
    },
  },
};

describe('every body the CLI builds satisfies the hosted complete-body rules and our server', () => {
  it.each(Object.entries(CASES))('%s', async (_name, c) => {
    const f = await withProfile();
    serve(f, '/users/1', USER);
    serve(f, '/users/2', { ...USER, id: 2, department_id: null });
    serve(f, '/customers/8', { ...CUSTOMER, id: 8, address: null });
    serve(f, '/online_conferences/3', CONFERENCE);
    f.ctx.env = { ...f.ctx.env, EDITOR: `node -e "const fs=require('fs');const p=process.argv[1];fs.writeFileSync(p,JSON.stringify({...JSON.parse(fs.readFileSync(p,'utf8')),first_name:'Augusta'}))"` };
    expect(await f.run(['--dry-run', ...c.args(f.configDir)])).toBe(0);
    const bodies = sentBodies(f.stdout());
    expect(bodies).toHaveLength(c.count ?? 1);
    for (const body of bodies) {
      if (needsCompleteBody(c.op)) expect(incompleteKeys(c.op, body as Record<string, unknown>)).toEqual([]);
      expect(operation(c.op).body!.safeParse(body).error).toBeUndefined();
      if (c.op === 'createCustomer' || c.op === 'updateCustomer') expect((body as { address: unknown }).address).toBeTypeOf('object');
      expect(Object.keys(body as object)).not.toContain('id');
    }
  });
});
