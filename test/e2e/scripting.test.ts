import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/cli/bulk/csv.js';
import { BACKENDS, BIN, Sandbox } from './harness.js';

/** Scripting through the built bin against `serve --demo`: CSV round trip, repeated filters, --query, completion ids. */
describe.each(BACKENDS)('e2e: scripting that composes (serve on %s)', (backend) => {
  const demo = new Sandbox(backend);
  const fresh = new Sandbox(backend);

  beforeAll(async () => {
    await demo.serve(['--demo', '--rate-limit', 'off']);
    await fresh.serve(['--rate-limit', 'off']);
  }, 60_000);
  afterAll(async () => {
    await demo.dispose();
    await fresh.dispose();
  });

  /** CSV rows as objects, without ids and times (they differ between instances by design). */
  const comparable = (csv: string) => {
    const [header, ...rows] = parseCsv(csv);
    const names = header.cells;
    const keep = names.map((n) => n !== 'id' && !n.endsWith('_at'));
    return {
      header: names.filter((_, i) => keep[i]),
      rows: rows
        .map((r) => Object.fromEntries(names.map((n, i) => [n, r.cells[i] ?? '']).filter((_, i) => keep[i])))
        .sort((a, b) => String(a.email).localeCompare(String(b.email))),
    };
  };

  it('customers list --all -o csv re-imports with customers create --from-file into a fresh instance, and exports the same again', async () => {
    const first = await demo.run(['customers', 'list', '--all', '-o', 'csv']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).not.toContain('\r');
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id,first_name,middle_name,last_name,email,contact_number,address.line_1,address.line_2,address.city,address.region,address.region_code,address.country,address.country_code,address.postal_code,created_at,updated_at,name,deleted_at');
    expect(lines.length).toBeGreaterThan(10);
    const file = join(fresh.root, 'customers.csv');
    writeFileSync(file, first.stdout);
    const imported = await fresh.run(['customers', 'create', '--from-file', file, '-o', 'ndjson']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.trimEnd().split('\n')).toHaveLength(lines.length - 1);
    const second = await fresh.run(['customers', 'list', '--all', '-o', 'csv']);
    expect(second.code, second.stderr).toBe(0);
    const [a, b] = [comparable(first.stdout), comparable(second.stdout)];
    expect(b.header).toEqual(a.header);
    expect(b.rows).toEqual(a.rows);
    // Not a comparison of empty cells: addresses and contact numbers came across.
    expect(a.rows.filter((r) => r['address.city'] && r.contact_number).length).toBeGreaterThan(3);
  }, 60_000);

  it('repeated --filter with --all answers the intersection of each filter run alone (the first on the server, the rest client-side)', async () => {
    const ids = async (...filters: string[]) => {
      const r = await demo.run(['users', 'list', '--all', '--with-trashed', ...filters.flatMap((f) => ['--filter', f]), '--query', '[].id']);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as number[];
    };
    const filters = ['email~.example', 'status=1', 'timezone:notnull', 'department!=Sales'];
    const alone = await Promise.all(filters.map((f) => ids(f)));
    const expected = alone.reduce((acc, set) => acc.filter((id) => set.includes(id)));
    const combined = await ids(...filters);
    expect(combined).toEqual(expected);
    expect(combined.length).toBeGreaterThan(0);
    expect(combined.length).toBeLessThan(Math.min(...alone.map((s) => s.length)));
    const one = await demo.run(['users', 'list', '--filter', 'status=1', '--filter', 'timezone:null']);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('more than one --filter needs --all');
  }, 60_000);

  it('--query on a list, a get (yaml) and a local command; a bad expression is exit 2 before any request', async () => {
    const count = await demo.run(['users', 'list', '--all', '--query', 'length(@)']);
    const all = await demo.json<unknown[]>(['users', 'list', '--all']);
    expect(Number(count.stdout)).toBe(all.length);
    const email = await demo.run(['users', 'get', '1', '--query', '{email: email, status: status}', '-o', 'yaml']);
    expect(email.stdout).toMatch(/^email: \S+@\S+\nstatus: [01]\n$/);
    const profiles = await demo.run(['profile', 'list', '--query', '[].name']);
    expect(JSON.parse(profiles.stdout)).toEqual(['local']);
    const bad = await demo.run(['users', 'list', '--query', '[?']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid --query/);
  }, 60_000);

  it('unknown --fields are exit 2 listing the valid ones', async () => {
    const r = await demo.run(['users', 'get', '1', '--fields', 'id,emali']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown field for --fields: emali');
    expect(r.stderr).toMatch(/hint: fields: .*email/);
  });

  it('bash completes user ids after users get from the running instance', async () => {
    const script = await demo.run(['completion', 'bash']);
    const dir = join(demo.root, 'completion');
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'confctl.bash'), script.stdout);
    // The real bin, with the request's 300 ms budget raised: this machine's load is not the point here
    // (the budget itself is tested in-process, test/cli/completion-ids.test.ts).
    writeFileSync(join(dir, 'bin', 'confctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@" --timeout 30\n`);
    chmodSync(join(dir, 'bin', 'confctl'), 0o755);
    const env = { ...demo.env(), PATH: `${join(dir, 'bin')}:${process.env.PATH}` };
    const code = `source '${join(dir, 'confctl.bash')}'; COMP_WORDS=(confctl users get ''); COMP_CWORD=3; _confctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const ids = execFileSync('bash', ['-c', code], { env, encoding: 'utf8' }).split('\n').filter(Boolean);
    const live = (await demo.json<{ id: number }[]>(['users', 'list', '--page-size', '100'])).map((u) => String(u.id));
    expect(ids.sort()).toEqual(live.sort());
  }, 30_000);
});
