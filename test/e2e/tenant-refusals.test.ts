import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * Tenant as code against `serve --demo --strict`: the refusals (invalid files, guards, a mapping
 * that fits nothing), the HR sync story, a dry run, and a conference reaching its attendee
 * maximum mid-apply, finished from the remaining plan once the limit allows; on either store.
 */
describe.each(BACKENDS)('e2e: tenant as code refusals, sync and partial failure (serve --demo --strict on %s)', (backend) => {
  const box = new Sandbox(backend);
  const dir = join(box.root, 'tenant');
  const write = (name: string, text: string) => {
    const file = join(box.root, name);
    writeFileSync(file, text);
    return file;
  };

  beforeAll(async () => {
    await box.json(['admin', 'init']);
    await box.serve(['--demo', '--rate-limit', 'off', '--strict']);
    expect((await box.run(['export', dir])).code).toBe(0);
  }, 90_000);
  afterAll(() => box.dispose());

  it('invalid files are refused before any request with exit 6, every problem named with file, line and key', async () => {
    const bad = join(box.root, 'bad');
    await box.run(['export', bad, '--kinds', 'users']);
    const users = readFileSync(join(bad, 'users.yaml'), 'utf8');
    writeFileSync(join(bad, 'users.yaml'), `${users}- email: broken\n  first_name: B\n  shoe_size: 44\n- email: ADA.LOVELACE@demo.example.com\n  first_name: A\n  last_name: L\n  role: Boss\n  department: Nowhere\n`);
    const r = await box.run(['plan', '-f', bad]);
    expect(r.code).toBe(6);
    const lines = users.split('\n').length;
    const file = join(bad, 'users.yaml');
    expect(r.stderr).toBe([
      'error: the desired state has 4 problems; nothing was sent:',
      `  ${file}:${lines}: broken: last_name: The last_name field is required.`,
      `  ${file}:${lines}: broken: email: The email field must be a valid email address.`,
      `  ${file}:${lines + 2}: broken: shoe_size: The shoe_size field is unknown (users take email, first_name, last_name, department, role, timezone, work_hours, activate).`,
      `  ${file}:${lines + 3}: ADA.LOVELACE@demo.example.com: email: The email has already been taken (also at ${file}:1).`,
      '',
    ].join('\n'));
    writeFileSync(join(bad, 'users.yaml'), `${users}- {email: zz@demo.example.com, first_name: Z, last_name: Z, role: Boss, department: Nowhere}\n`);
    const unknown = await box.run(['plan', '-f', bad, '--detailed-exitcode']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`${file}:${lines}: zz@demo.example.com: department: The selected department is invalid: no user of the tenant is in a department of this name (the API cannot list departments; declare one with --department NAME=ID).`);
    expect(unknown.stderr).toContain(`${file}:${lines}: zz@demo.example.com: role: The selected role is invalid: no user of the tenant holds it (the API cannot list roles; declare one with --role NAME).`);
  }, 90_000);

  it('--max-changes refuses a plan bigger than expected, and nothing is sent', async () => {
    const edited = join(box.root, 'guard');
    await box.run(['export', edited, '--kinds', 'customers']);
    const records = parse(readFileSync(join(edited, 'customers.yaml'), 'utf8')) as any[];
    for (const c of records) c.last_name = `${c.last_name}-x`;
    writeFileSync(join(edited, 'customers.yaml'), stringify(records));
    const r = await box.run(['apply', '-f', edited, '--yes', '--max-changes', '10']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`error: the plan has ${records.length} changes, more than --max-changes 10; nothing was sent`);
    expect((await box.json<any[]>(['customers', 'list', '--filter', 'last_name~-x'])).length).toBe(0);
    const unasked = await box.run(['apply', '-f', edited]);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('error: not applied: applying asks first, and there is no terminal to ask');
  }, 90_000);

  it('--dry-run prints the requests as curl lines and changes nothing', async () => {
    const file = join(box.root, 'dry', 'customers.yaml');
    await box.run(['export', join(box.root, 'dry'), '--kinds', 'customers']);
    writeFileSync(file, `${readFileSync(file, 'utf8')}- {email: dry@x.example, first_name: Dry, last_name: Run}\n`);
    const r = await box.run(['--dry-run', 'apply', '-f', join(box.root, 'dry'), '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\ncurl -X POST http:\/\/127\.0\.0\.1:\d+\/api\/public\/v2\.0\/customers .*"email":"dry@x\.example"/);
    expect(r.stderr).toContain('dry run: 1 request printed, nothing sent');
    expect(await box.json<any[]>(['customers', 'list', '--filter', 'email=dry@x.example'])).toEqual([]);
  }, 90_000);

  it('sync users from an HR CSV: new people created with the defaults, changed ones updated, missing ones unmanaged', async () => {
    const hr = write('hr.csv', [
      'Work Email,Given Name,Family Name,Dept,Cost Centre',
      'ada.lovelace@demo.example.com,Ada,Lovelace,Sales,CC1', // changed: department
      'ALAN.TURING@demo.example.com,Alan,Turing,,CC2', // unchanged (e-mail case ignored; an empty cell manages nothing)
      'hire.one@demo.example.com,Hire,One,Engineering,CC3', // new
      'hire.two@demo.example.com,Hire,Two,,CC4', // new, no department
    ].join('\n'));
    const map = 'Work Email=email,Given Name=first_name,Family Name=last_name,Dept=department';
    const planned = await box.run(['sync', 'users', '--from', hr, '--map', map, '--out', join(box.root, 'sync.json')]);
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout);
    expect(plan.changes.map((c: any) => `${c.action} ${c.key}`)).toEqual(['update ada.lovelace@demo.example.com', 'create hire.one@demo.example.com', 'create hire.two@demo.example.com']);
    expect(plan.changes[0].after).toEqual({ department: 'Sales' });
    expect(plan.changes[2].defaults).toEqual(['timezone', 'role', 'work_hours', 'department', 'activate']);
    expect(plan.unmanaged.users).toHaveLength(20);
    expect(plan.unmanaged.users).not.toContain('alan.turing@demo.example.com');

    const strict = await box.run(['sync', 'users', '--from', hr, '--map', map, '--unmanaged', 'fail']);
    expect(strict.code).toBe(6);
    expect(strict.stderr).toContain(`${hr}: grace.hopper@demo.example.com: in the tenant but not in the file (--unmanaged fail)`);

    const applied = await box.run(['sync', 'users', '--from', hr, '--map', map, '--yes', '--defaults', 'timezone=Europe/London,role=Manager']);
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain('applied 3, failed 0, skipped 0');
    const [two] = await box.json<any[]>(['users', 'list', '--filter', 'email=hire.two@demo.example.com']);
    expect(two).toMatchObject({ timezone: 'Europe/London', role: 'Manager', department_id: null, status: 0, work_hours: { monday: [], sunday: [] } });
    const again = await box.run(['sync', 'users', '--from', hr, '--map', map, '--out', join(box.root, 'sync2.json')]);
    expect(JSON.parse(again.stdout).changes).toEqual([]);
  }, 90_000);

  it('sync reads a JSON array or NDJSON (stdin with -) as well as CSV; --defaults FILE fills what a new user lacks, and the diff names the defaults used', async () => {
    const defaults = write('defaults.yaml', 'timezone: Asia/Tokyo\nrole: Manager\nwork_hours: {sunday: [], monday: [{start: {hour: 9, minute: 0, second: 0}, end: {hour: 12, minute: 0, second: 0}}], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: []}\n');
    const roster = write('roster.json', JSON.stringify([{ mail: 'json.person@demo.example.com', first: 'Json', last: 'Person', dept: 'Support' }]));
    const r = await box.run(['sync', 'users', '--from', roster, '--map', 'mail=email,first=first_name,last=last_name,dept=department', '--defaults', defaults, '--yes', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('+ create user json.person@demo.example.com (defaults: timezone "Asia/Tokyo", role "Manager", work_hours {"sunday":[],"monday":[{"start":{"hour":9,"minute":0,"second":0},"end":{"hour":12,"minute":0,"second":0}}],"tuesday":[],"wednesday":[],"thursday":[],"friday":[],"saturday":[]}, activate false)');
    const [person] = await box.json<any[]>(['users', 'list', '--filter', 'email=json.person@demo.example.com']);
    expect(person).toMatchObject({ timezone: 'Asia/Tokyo', role: 'Manager', department_name: 'Support', status: 0 });
    expect(person.work_hours.monday).toEqual([{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 12, minute: 0, second: 0 } }]);

    const ndjson = '{"email":"nd.one@x.example","first_name":"Nd","last_name":"One","address":{"city":"Oslo"}}\n{"email":"nd.two@x.example","first_name":"Nd","last_name":"Two"}\n';
    const c = await box.run(['sync', 'customers', '--from', '-', '--yes'], { input: ndjson });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).toContain('applied 2, failed 0, skipped 0');
    const [one] = await box.json<any[]>(['customers', 'list', '--filter', 'email=nd.one@x.example']);
    expect(one).toMatchObject({ first_name: 'Nd', last_name: 'One', address: { city: 'Oslo', country: null } });
  }, 90_000);

  it('sync --key id matches by the API id, so an e-mail can change; a roster id the tenant lacks is a plan problem; other keys are refused', async () => {
    const [grace] = await box.json<any[]>(['users', 'list', '--filter', 'email=grace.hopper@demo.example.com']);
    const map = 'Staff Id=id,Work Email=email,Family Name=last_name';
    const hr = write('hr-ids.csv', `Staff Id,Work Email,Family Name\n${grace.id},grace.moore@demo.example.com,Moore\n`);
    const applied = await box.run(['sync', 'users', '--from', hr, '--map', map, '--key', 'Staff Id', '--yes', '-o', 'table']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('    email: "grace.hopper@demo.example.com" → "grace.moore@demo.example.com"');
    expect(applied.stderr).toContain('applied 1, failed 0, skipped 0');
    expect(await box.json(['users', 'get', String(grace.id)])).toMatchObject({ email: 'grace.moore@demo.example.com', last_name: 'Moore', first_name: grace.first_name });
    const again = await box.json<any>(['sync', 'users', '--from', hr, '--map', map, '--key', 'id', '--out', join(box.root, 'ids.json')]);
    expect(again.changes).toEqual([]);
    expect(again.unmanaged.users).not.toContain('grace.moore@demo.example.com');

    const unknown = write('hr-ids2.csv', 'Staff Id,Work Email,Family Name\n999999,x@demo.example.com,X\n');
    const refused = await box.run(['sync', 'users', '--from', unknown, '--map', map, '--key', 'id']);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain(`${unknown}:2: x@demo.example.com: id: The selected id is invalid: no user of the tenant (not deleted) has id 999999, and the API makes ids itself.`);
    const other = await box.run(['sync', 'users', '--from', hr, '--map', map, '--key', 'Family Name']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("error: --key 'Family Name' (mapped to last_name) cannot match users: the API keeps users unique only by email (ignoring case) and by id");
  }, 90_000);

  it('a department no user is in yet is a plan problem until declared with --department NAME=ID; a declared role is still checked by the server', async () => {
    const legal = write('legal.json', '[{"name": "Legal"}]');
    expect((await box.run(['admin', 'import', 'departments', legal])).code).toBe(0);
    const department = (await box.json<any[]>(['admin', 'departments', 'list'])).find((d) => d.name === 'Legal');
    const hr = write('hr-legal.csv', 'email,first_name,last_name,department\nlena.legal@demo.example.com,Lena,Legal,Legal\n');
    const unknown = await box.run(['sync', 'users', '--from', hr, '--yes']);
    expect(unknown.code).toBe(6);
    expect(unknown.stderr).toContain(`${hr}:2: lena.legal@demo.example.com: department: The selected department is invalid: no user of the tenant is in a department of this name`);

    const declared = await box.run(['sync', 'users', '--from', hr, '--yes', '--department', `Legal=${department.id}`]);
    expect(declared.code, declared.stderr).toBe(0);
    const [lena] = await box.json<any[]>(['users', 'list', '--filter', 'email=lena.legal@demo.example.com']);
    expect(lena).toMatchObject({ department_id: department.id, department_name: 'Legal' });
    // Now a user shows the department: plan knows it without the flag.
    expect((await box.json<any>(['sync', 'users', '--from', hr, '--out', join(box.root, 'legal.json.plan')])).changes).toEqual([]);

    const auditor = write('hr-auditor.csv', 'email,first_name,last_name,role\nnew.auditor@demo.example.com,New,Auditor,Auditor\n');
    expect((await box.run(['sync', 'users', '--from', auditor, '--yes'])).code).toBe(6);
    const tried = await box.run(['sync', 'users', '--from', auditor, '--yes', '--role', 'Auditor', '--remaining', join(box.root, 'auditor.rest.json')]);
    expect(tried.code).toBe(6);
    expect(tried.stderr).toMatch(/failed: create user new\.auditor@demo\.example\.com: POST \/users failed \(400\): The selected role is invalid\./);
    expect(await box.json<any[]>(['users', 'list', '--filter', 'email=new.auditor@demo.example.com'])).toEqual([]);
  }, 90_000);

  it('conferences no file names are unmanaged; --prune deletes them, but not one in progress', async () => {
    const prune = join(box.root, 'prune');
    await box.run(['export', prune, '--kinds', 'conferences']);
    const file = join(prune, 'conferences.yaml');
    const all = parse(readFileSync(file, 'utf8')) as any[];
    writeFileSync(file, stringify(all.filter((c) => c.public_id === 'demo-customer-demo')));
    const listed = await box.json<any>(['plan', '-f', prune]);
    expect(listed.unmanaged.conferences).toEqual(['demo-weekly-sync', 'demo-planning']);
    expect(listed.changes).toEqual([]);
    const pruned = await box.json<any>(['plan', '-f', prune, '--prune']);
    expect(pruned.changes.map((c: any) => `${c.action} ${c.key}`)).toEqual(['delete demo-weekly-sync', 'delete demo-planning']);
    writeFileSync(file, '[]\n');
    const running = await box.run(['plan', '-f', prune, '--prune']);
    expect(running.code).toBe(6);
    expect(running.stderr).toContain('demo-customer-demo: Cannot delete an online conference that is in progress.');
  }, 90_000);

  it('a mapping that fits no column is an error at once, naming the columns the file has', async () => {
    const hr = write('hr2.csv', 'Mail,Name\na@x.example,A\n');
    const r = await box.run(['sync', 'customers', '--from', hr, '--map', 'Work Email=email,Given Name=first_name']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: the mapping names columns the file does not have: 'Work Email', 'Given Name' (its columns: Mail, Name)\n");
  }, 90_000);

  it('a conference reaching its attendee maximum mid-apply: the rest is reported and written; a second apply finishes it once there is room', async () => {
    const file = join(box.root, 'conf', 'conferences.yaml');
    const guests = Array.from({ length: 7 }, (_, i) => ({ email: `guest${i}@x.example`, name: `Guest ${i}` }));
    await box.run(['export', join(box.root, 'conf'), '--kinds', 'conferences']);
    const records = parse(readFileSync(file, 'utf8')) as any[];
    records.push({ public_id: 'full-house', title: 'Full house', is_public: true, host: 'alan.turing@demo.example.com', attendees: guests });
    writeFileSync(file, stringify(records));
    const planFile = join(box.root, 'conf-plan.json');
    expect((await box.run(['plan', '-f', join(box.root, 'conf'), '--out', planFile])).code).toBe(0);
    const r = await box.run(['apply', planFile]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('failed: add attendee full-house guest5@x.example: POST /online_conferences/');
    expect(r.stderr).toContain('(409): Cannot exceed maximum attendee count.');
    expect(r.stderr).toContain('error: applied 1, failed 2, skipped 0');
    const remainingFile = join(box.root, 'conf-plan.remaining.json');
    expect(r.stderr).toContain(`hint: the rest of the plan is in ${remainingFile}: 'confctl apply ${remainingFile}' finishes it`);
    const remaining = JSON.parse(readFileSync(remainingFile, 'utf8'));
    expect(remaining.changes.map((c: any) => c.key)).toEqual(['full-house guest5@x.example', 'full-house guest6@x.example']);

    // --fail-fast: the first failure stops the run; what was not sent is skipped, and kept for the next run.
    const fastFile = join(box.root, 'conf-fast.json');
    writeFileSync(fastFile, JSON.stringify({ ...remaining, changes: [...remaining.changes, { ...remaining.changes[1], key: 'full-house guest7@x.example', body: { email: 'guest7@x.example', name: 'Guest 7' } }] }));
    const fast = await box.run(['apply', fastFile, '--fail-fast', '--concurrency', '1']);
    expect(fast.code).toBe(5);
    expect(fast.stderr).toContain('error: applied 0, failed 1, skipped 2');
    expect(JSON.parse(readFileSync(join(box.root, 'conf-fast.remaining.json'), 'utf8')).changes).toHaveLength(3);

    const [conference] = await box.json<any[]>(['conferences', 'list', '--filter', 'public_id=full-house']);
    const attendees = await box.json<any[]>(['conferences', 'attendees', 'list', String(conference.id)]);
    const toRemove = attendees.filter((a) => a.email === 'guest0@x.example' || a.email === 'guest1@x.example');
    for (const a of toRemove) expect((await box.run(['conferences', 'attendees', 'remove', String(conference.id), String(a.id), '--yes'])).code).toBe(0);
    const finished = await box.run(['apply', remainingFile]);
    expect(finished.stderr).toContain('applied 2, failed 0, skipped 0');
    expect(finished.code).toBe(0);
    const now = await box.json<any[]>(['conferences', 'attendees', 'list', String(conference.id)]);
    expect(now.map((a) => a.email).sort()).toEqual(['alan.turing@demo.example.com', 'guest2@x.example', 'guest3@x.example', 'guest4@x.example', 'guest5@x.example', 'guest6@x.example']);
  }, 90_000);
});
