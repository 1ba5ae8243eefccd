import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { type Backend, Sandbox } from './harness.js';

/** Reads a desired-state YAML file of the sandbox, lets `edit` change its records, writes it back. */
function editYaml(file: string, edit: (records: any[]) => void): void {
  const records = parse(readFileSync(file, 'utf8')) as any[];
  edit(records);
  writeFileSync(file, stringify(records));
}

const ADA = 'ada.lovelace@demo.example.com';

/**
 * Tenant as code through the built bin against a real `serve --demo` (and `--strict`, whose
 * complete-body rules every write must pass), on either store: export, plan, apply, plan again.
 */
const RUNS: { backend: Backend; strict: boolean }[] = [
  { backend: 'sqlite', strict: false },
  { backend: 'sqlite', strict: true },
  { backend: 'postgres', strict: false },
  { backend: 'postgres', strict: true },
];

describe.each(RUNS)('e2e: export, plan, apply (serve --demo on $backend, strict $strict)', ({ backend, strict }) => {
  const box = new Sandbox(backend);
  const dir = join(box.root, 'tenant');
  const planFile = join(box.root, 'plan.json');

  beforeAll(async () => {
    await box.json(['admin', 'init']);
    await box.serve(['--demo', '--rate-limit', 'off', ...(strict ? ['--strict'] : [])]);
  }, 90_000);
  afterAll(() => box.dispose());

  it('export then plan shows no change (exit 0 with --detailed-exitcode)', async () => {
    const exported = await box.run(['export', dir]);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain(`wrote ${join(dir, 'users.yaml')}: 22 users`);
    const users = parse(readFileSync(join(dir, 'users.yaml'), 'utf8'));
    expect(users[0]).toEqual(expect.objectContaining({ email: ADA, department: 'Engineering', role: 'Admin' }));
    expect(Object.keys(users[0])).toEqual(['email', 'first_name', 'last_name', 'department', 'role', 'timezone', 'work_hours']);
    const conferences = parse(readFileSync(join(dir, 'conferences.yaml'), 'utf8'));
    expect(conferences.map((c: any) => c.public_id)).toEqual(['demo-weekly-sync', 'demo-planning', 'demo-customer-demo']);
    // The host by e-mail; its account by name only when the host has several (Ada has two rooms).
    expect(conferences[0]).toMatchObject({ host: ADA, account: "Ada Lovelace's Zoom room" });
    expect(conferences[2]).toMatchObject({ host: 'alan.turing@demo.example.com' });
    expect(Object.keys(conferences[2])).toEqual(['public_id', 'title', 'is_public', 'host', 'attendees']);
    const plan = await box.run(['plan', '-f', dir, '-o', 'table', '--detailed-exitcode']);
    expect(plan.stdout).toBe('\nNo changes: the tenant matches the files.\n');
    expect(plan.code).toBe(0);
  }, 90_000);

  it('an edit plans exactly that edit; apply makes it and a second plan shows nothing', async () => {
    editYaml(join(dir, 'users.yaml'), (r) => {
      r[0].role = 'Manager';
      r.push({ email: 'new.hire@demo.example.com', first_name: 'New', last_name: 'Hire', department: 'Sales', role: 'Member', timezone: 'Europe/Paris', work_hours: r[0].work_hours });
    });
    editYaml(join(dir, 'customers.yaml'), (r) => {
      r[0].address.city = 'Potsdam';
    });
    editYaml(join(dir, 'conferences.yaml'), (r) => {
      r[0].title = 'Weekly sync (moved)';
      r[0].attendees = [...r[0].attendees.slice(1), { email: 'new.hire@demo.example.com', name: 'New Hire' }];
    });
    const diff = await box.run(['plan', '-f', dir, '-o', 'table', '--detailed-exitcode']);
    expect(diff.stderr).toBe('');
    expect(diff.code).toBe(2);
    expect(diff.stdout).toBe([
      `~ update user ${ADA}`,
      '    role: "Admin" → "Manager"',
      '+ create user new.hire@demo.example.com',
      '~ update customer olivia.brown@customers.example.org',
      '    address: {"line_1":"10 Main Street","line_2":"Suite 100","city":"Berlin","region":"Berlin","region_code":"BE","country":"Germany","country_code":"DE","postal_code":"10115"} → {"line_1":"10 Main Street","line_2":"Suite 100","city":"Potsdam","region":"Berlin","region_code":"BE","country":"Germany","country_code":"DE","postal_code":"10115"}',
      '~ update conference demo-weekly-sync',
      '    title: "Weekly sync" → "Weekly sync (moved)"',
      '+ add attendee new.hire@demo.example.com of demo-weekly-sync ("New Hire")',
      '- remove attendee linus.torvalds@demo.example.com of demo-weekly-sync',
      '',
      'Plan: 1 to create, 3 to update, 0 to delete, 1 attendee to add, 1 to remove; 0 unmanaged.',
      '',
    ].join('\n'));

    // Colour as FORCE_COLOR, NO_COLOR (the sandbox sets it) and --color say: + green, ~ yellow, - red.
    const colored = await box.run(['plan', '-f', dir, '-o', 'table', '--color', 'always']);
    expect(colored.stdout).toContain(`\x1b[33m~ update user ${ADA}\x1b[39m\n    role: "Admin" → "Manager"\n\x1b[32m+ create user new.hire@demo.example.com\x1b[39m\n`);
    expect(colored.stdout).toContain('\x1b[31m- remove attendee linus.torvalds@demo.example.com of demo-weekly-sync\x1b[39m\n');
    expect((await box.run(['plan', '-f', dir, '-o', 'table'], { env: { FORCE_COLOR: '1' } })).stdout).toBe(colored.stdout);
    expect((await box.run(['plan', '-f', dir, '-o', 'table', '--color', 'never'], { env: { FORCE_COLOR: '1' } })).stdout).toBe(diff.stdout);

    const saved = await box.run(['plan', '-f', dir, '--out', planFile]);
    expect(saved.code).toBe(0);
    expect(JSON.parse(saved.stdout)).toEqual(JSON.parse(readFileSync(planFile, 'utf8')));
    const applied = await box.run(['apply', planFile]);
    expect(applied.stderr).toContain('applied 6, failed 0, skipped 0');
    expect(applied.code).toBe(0);

    const [ada] = await box.json<any[]>(['users', 'list', '--filter', `email=${ADA}`]);
    expect(ada.role).toBe('Manager');
    const [hire] = await box.json<any[]>(['users', 'list', '--filter', 'email=new.hire@demo.example.com']);
    expect(hire).toMatchObject({ department_name: 'Sales', timezone: 'Europe/Paris', status: 0 });
    const conference = (await box.json<any[]>(['conferences', 'list', '--filter', 'public_id=demo-weekly-sync']))[0];
    expect(conference.title).toBe('Weekly sync (moved)');
    const attendees = await box.json<any[]>(['conferences', 'attendees', 'list', String(conference.id)]);
    expect(attendees.map((a) => a.email)).toEqual([ADA, 'barbara.liskov@demo.example.com', 'new.hire@demo.example.com']);
    expect(attendees[2]).toMatchObject({ attendee_type: 'User', attendee_id: hire.id });

    const again = await box.run(['plan', '-f', dir, '--detailed-exitcode', '-o', 'json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).changes).toEqual([]);
  }, 90_000);

  it('a saved plan whose objects another client changed is refused, naming them; --refresh plans again', async () => {
    editYaml(join(dir, 'users.yaml'), (r) => {
      r[1].last_name = 'Planned';
    });
    expect((await box.run(['plan', '-f', dir, '--out', planFile])).code).toBe(0);
    const other = parse(readFileSync(join(dir, 'users.yaml'), 'utf8'))[1];
    const [row] = await box.json<any[]>(['users', 'list', '--filter', `email=${other.email}`]);
    expect((await box.run(['users', 'update', String(row.id), '--first-name', 'Changed'])).code).toBe(0);

    const stale = await box.run(['apply', planFile]);
    expect(stale.code).toBe(5);
    expect(stale.stderr).toContain(`error: the plan is stale: the tenant changed since it was made; nothing was sent:\n  user ${other.email} changed since the plan: first_name\n`);
    expect((await box.json<any>(['users', 'get', String(row.id)])).last_name).not.toBe('Planned');

    const refreshed = await box.run(['apply', planFile, '--refresh']);
    expect(refreshed.code).toBe(0);
    expect(refreshed.stderr).toContain('planning again (--refresh)');
    expect(await box.json<any>(['users', 'get', String(row.id)])).toMatchObject({ first_name: other.first_name, last_name: 'Planned' });
  }, 90_000);

  it('export as JSON and as CSV (the columns of -o csv) plans back to no change; deleted rows are neither exported nor matched', async () => {
    for (const format of ['json', 'csv']) {
      const out = join(box.root, `as-${format}`);
      expect((await box.run(['export', out, '--format', format])).code).toBe(0);
      const plan = await box.run(['plan', '-f', out, '--detailed-exitcode', '-o', 'json']);
      expect(plan.code, plan.stderr).toBe(0);
    }
    const header = readFileSync(join(box.root, 'as-csv', 'customers.csv'), 'utf8').split('\n')[0].split(',');
    const listed = (await box.run(['customers', 'list', '-o', 'csv'])).stdout.split('\n')[0].split(',');
    expect(header.filter((c) => !listed.includes(c))).toEqual([]);
    expect(readFileSync(join(box.root, 'as-csv', 'users.csv'), 'utf8').split('\n')[0]).toBe('email,first_name,last_name,department,role,timezone,work_hours');

    const deleted = await box.json<any[]>(['customers', 'list', '--with-trashed', '--filter', 'deleted_at:notnull']);
    expect(deleted.length).toBeGreaterThan(0);
    const exported = parse(readFileSync(join(dir, 'customers.yaml'), 'utf8')) as any[];
    expect(exported.map((c) => c.email)).not.toContain(deleted[0].email);
    const file = join(box.root, 'reuse', 'customers.yaml');
    expect((await box.run(['export', join(box.root, 'reuse'), '--kinds', 'customers'])).code).toBe(0);
    writeFileSync(file, `${readFileSync(file, 'utf8')}- {email: ${deleted[0].email}, first_name: Live, last_name: Again}\n`);
    const reused = await box.json<any>(['plan', '-f', file]);
    expect(reused.changes).toEqual([expect.objectContaining({ kind: 'customer', action: 'create', key: deleted[0].email })]);
    expect((await box.run(['apply', '-f', file, '--yes'])).code).toBe(0);
    const [live] = await box.json<any[]>(['customers', 'list', '--filter', `email=${deleted[0].email}`]);
    expect(live).toMatchObject({ first_name: 'Live', last_name: 'Again', deleted_at: null });
    expect(live.id).not.toBe(deleted[0].id);
    expect((await box.run(['plan', '-f', file, '--detailed-exitcode'])).code).toBe(0);
  }, 90_000);

  it('refusals: a null timezone a complete update needs, a key the plan would create made meanwhile, --max-removals', async () => {
    const users = join(box.root, 'old-data', 'users.yaml');
    expect((await box.run(['export', join(box.root, 'old-data'), '--kinds', 'users'])).code).toBe(0);
    const records = parse(readFileSync(users, 'utf8')) as any[];
    const old = records.find((r) => r.timezone === null);
    expect(old, 'the demo has a user without a time zone').toBeDefined();
    old.last_name = 'Renamed';
    writeFileSync(users, stringify(records));
    const lacking = await box.run(['plan', '-f', users]);
    expect(lacking.code).toBe(6);
    expect(lacking.stderr).toMatch(new RegExp(`users\\.yaml:\\d+: ${old.email.replace(/\./g, '\\.')}: timezone: The timezone field is required: the tenant's row has none, and an update sends every field\\.`));
    old.timezone = 'UTC';
    writeFileSync(users, stringify(records));
    expect((await box.run(['plan', '-f', users, '--detailed-exitcode'])).code).toBe(2);

    const fresh = join(box.root, 'fresh', 'customers.yaml');
    expect((await box.run(['export', join(box.root, 'fresh'), '--kinds', 'customers'])).code).toBe(0);
    writeFileSync(fresh, `${readFileSync(fresh, 'utf8')}- {email: raced@x.example, first_name: Planned, last_name: Person}\n`);
    const planFile = join(box.root, 'raced.json');
    expect((await box.run(['plan', '-f', fresh, '--out', planFile])).code).toBe(0);
    expect((await box.run(['customers', 'create', '--first-name', 'Other', '--last-name', 'Client', '--email', 'RACED@x.example'])).code).toBe(0);
    const stale = await box.run(['apply', planFile]);
    expect(stale.code).toBe(5);
    expect(stale.stderr).toContain('  customer raced@x.example now exists (first_name, last_name differ from the plan)\n');
    expect((await box.json<any[]>(['customers', 'list', '--filter', 'email=raced@x.example']))[0]).toMatchObject({ first_name: 'Other' });

    const hosted = join(box.root, 'hosted', 'conferences.yaml');
    expect((await box.run(['export', join(box.root, 'hosted'), '--kinds', 'conferences'])).code).toBe(0);
    writeFileSync(hosted, `${readFileSync(hosted, 'utf8')}- {public_id: ada-new, title: New, is_public: true, host: ${ADA}}\n`);
    const which = await box.run(['plan', '-f', hosted]);
    expect(which.code).toBe(6);
    expect(which.stderr).toContain(`ada-new: host: The host has 2 conference accounts ("Ada Lovelace's Zoom room", "Ada Lovelace's team room"): name one with account.`);

    const conferences = join(box.root, 'fewer', 'conferences.yaml');
    expect((await box.run(['export', join(box.root, 'fewer'), '--kinds', 'conferences'])).code).toBe(0);
    const confs = parse(readFileSync(conferences, 'utf8')) as any[];
    const target = confs.find((c) => c.attendees.length > 0);
    const dropped = target.attendees.pop();
    writeFileSync(conferences, stringify(confs));
    const guarded = await box.run(['apply', '-f', conferences, '--yes', '--max-removals', '0']);
    expect(guarded.code).toBe(5);
    expect(guarded.stderr).toContain('error: the plan has 1 removals, more than --max-removals 0; nothing was sent');
    const [row] = await box.json<any[]>(['conferences', 'list', '--filter', `public_id=${target.public_id}`]);
    expect((await box.json<any[]>(['conferences', 'attendees', 'list', String(row.id)])).map((a) => a.email)).toContain(dropped.email);
  }, 90_000);
});
