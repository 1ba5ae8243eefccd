import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { hasDemoData } from '../../src/admin/seed/demo.js';
import { type Backend, BACKENDS } from '../e2e/harness.js';
import { adminDatabaseFixture, type BackendAdmin, waitingConference } from './admin-database-fixture.js';
import { type AdminFake, adminFake } from './admin-helpers.js';
import { BASE, SECRET } from './helpers.js';

/** `--dry-run` of the admin commands, each case on a data directory and on a database; of `profile`, without a store. */
const { adminOn, schemaExists } = adminDatabaseFixture();
let f: AdminFake;
let profileFake: AdminFake | undefined;
afterEach(() => {
  profileFake?.dispose();
  profileFake = undefined;
});

/** A store of `backend` with its first tenant (no profile saved). */
async function initialised(backend: Backend): Promise<BackendAdmin> {
  const b = await adminOn(backend);
  f = b;
  await b.json(['admin', 'init', '--no-profile']);
  return b;
}

/** Runs `args` and answers exit code and what it printed (this run only). */
async function run(args: string[]) {
  const [out, err] = [f.stdout().length, f.stderr().length];
  const code = await f.run(args);
  return { code, stdout: f.stdout().slice(out), stderr: f.stderr().slice(err) };
}

describe.each(BACKENDS)('admin --dry-run prints a plan and changes nothing (%s)', (backend) => {
  it('tenants add', async () => {
    const b = await initialised(backend);
    expect(await run(['admin', 'tenants', 'add', 'acme.test', '--alias', 'www.acme.test', '--dry-run'])).toEqual({
      code: 0,
      stdout: 'would create tenant acme.test (aliases www.acme.test) with roles Admin, Manager, Member\n',
      stderr: 'dry run: nothing was changed\n',
    });
    expect(await b.store(async (s) => (await s.tenants.list()).map((t) => t.primary_domain))).toEqual(['localhost']);
    // The same checks as a real run: a taken domain is still a conflict.
    expect((await run(['--dry-run', 'admin', 'tenants', 'add', 'localhost'])).code).toBe(5);
  });

  it('keys create', async () => {
    const b = await initialised(backend);
    const before = await b.store(async (s) => (await s.keys.list()).length);
    const r = await run(['admin', 'keys', 'create', '--name', 'ci', '--permissions', 'users.read.*,customers.*', '--expires', '2099-01-01', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("would create key 'ci' for tenant localhost with permissions users.read.*, customers.*, expiring 2099-01-01T00:00:00.000Z\n");
    expect(await b.store(async (s) => (await s.keys.list()).length)).toBe(before);
  });

  it('keys revoke', async () => {
    const b = await initialised(backend);
    const key = await b.json(['admin', 'keys', 'create', '--name', 'ci', '--permissions', '*']);
    const r = await run(['admin', 'keys', 'revoke', key.id, '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`would revoke key ${key.id} 'ci' of tenant localhost\n`);
    expect(await b.store(async (s) => (await s.keys.get(key.id))?.revoked_at)).toBeNull();
    expect((await run(['admin', 'keys', 'revoke', 'ak_missing', '--dry-run'])).code).toBe(4);
  });

  it('seed: plans the demo set, or says it would skip it', async () => {
    const b = await initialised(backend);
    const r = await run(['admin', 'seed', '--demo', '--users', '3', '--dry-run']);
    expect(r.stdout).toBe('would fill tenant localhost with the demo data set\nwould add 3 generated users and 0 generated customers to tenant localhost\n');
    expect(await b.store(async (s) => [await hasDemoData(s, 1), (await s.departments.list(1)).length])).toEqual([false, 0]);
    await b.json(['admin', 'seed', '--demo']);
    expect((await run(['admin', 'seed', '--demo', '--dry-run'])).stdout).toBe('would skip the demo data set: tenant localhost already has it\n');
  });

  it('init on a store that does not exist creates nothing, not even the directory, the schema or a profile', async () => {
    const b = await adminOn(backend);
    f = b;
    const r = await run(['admin', 'init', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `would create tenant localhost (aliases 127.0.0.1, ::1) with roles Admin, Manager, Member in ${b.where}`,
        "would create an all-permissions key 'admin' and print its secret once",
        "would save profile 'local' pointing at http://localhost:8080/api/public/v2.0",
        '',
      ].join('\n'),
    );
    expect(existsSync(b.dataDir)).toBe(false);
    if (b.url) expect(await schemaExists(b.url)).toBe(false);
    expect((await b.ctx.config()).list()).toEqual([]);
  });

  it("conferences start/end and recordings fail plan against the real state, then roll back", async () => {
    const b = await initialised(backend);
    await b.json(['admin', 'seed', '--demo']);
    const waiting = await b.store(waitingConference);
    const start = await run(['admin', 'conferences', 'start', String(waiting.id), '--dry-run']);
    expect(start).toEqual({ code: 0, stdout: `would start conference ${waiting.id} '${waiting.title}' and begin its recording\n`, stderr: 'dry run: nothing was changed\n' });
    expect(await b.store(async (s) => (await s.conferences.get(1, waiting.id))?.started_at)).toBeNull();
    // The same checks as a real run: a conference that has not started cannot end.
    expect((await run(['admin', 'conferences', 'end', String(waiting.id), '--dry-run'])).code).toBe(5);

    await b.json(['admin', 'conferences', 'start', String(waiting.id)]);
    const end = await run(['admin', 'conferences', 'end', String(waiting.id), '--dry-run']);
    expect(end.stdout).toBe(`would end conference ${waiting.id} '${waiting.title}'; 1 running recording(s) would become Processing\n`);
    expect(await b.store(async (s) => (await s.conferences.get(1, waiting.id))?.ended_at)).toBeNull();
  });

  it('recordings fail --dry-run leaves the recording as it was; recordings finish refuses --dry-run', async () => {
    const b = await initialised(backend);
    await b.json(['admin', 'seed', '--demo']);
    const conference = await b.store(waitingConference);
    const started = await b.json(['admin', 'conferences', 'start', String(conference.id)]);
    const status = () => b.store(async (s) => (await s.recordings.get(1, started.recording.id))?.status);
    const fail = await run(['admin', 'recordings', 'fail', String(started.recording.id), '--dry-run']);
    expect(fail.stdout).toBe(`would mark recording ${started.recording.id} Failed\n`);
    expect(await status()).toBe(started.recording.status);

    const finish = await run(['admin', 'recordings', 'finish', String(started.recording.id), '--dry-run']);
    expect(finish.code).toBe(2);
    expect(finish.stderr).toContain("error: --dry-run does not apply to 'confctl admin recordings finish'");
    expect(await status()).toBe(started.recording.status);
  });
});

describe('profile --dry-run', () => {
  it('add, use and remove print what they would do and change nothing', async () => {
    f = profileFake = adminFake({ stdin: `${SECRET}\n` });
    const store = await f.ctx.config();
    store.save('acme', { base_url: BASE, key_id: 'ak_old', secret: 'old' }, { activate: true });
    store.save('other', { domain: 'other.test', key_id: 'ak_other', secret: 'x' });
    const before = JSON.stringify(store.list());
    expect(await run(['profile', 'add', 'acme', '--domain', 'new.test', '--key-id', 'ak_new', '--secret-stdin', '--dry-run'])).toEqual({
      code: 0,
      stdout: "would replace profile 'acme' (https://new.test/api/public/v2.0, key ak_new)\n",
      stderr: 'dry run: nothing was changed\n',
    });
    expect((await run(['profile', 'use', 'other', '--dry-run'])).stdout).toBe("would make profile 'other' the active one\n");
    expect((await run(['profile', 'remove', 'other', '--dry-run'])).stdout).toBe("would remove profile 'other' (https://other.test/api/public/v2.0, key ak_other)\n");
    expect((await run(['profile', 'remove', 'ghost', '--dry-run'])).code).toBe(2);
    expect(JSON.stringify((await f.ctx.config()).list())).toBe(before);
    expect(f.stdout() + f.stderr()).not.toContain(SECRET);
  });
});

describe.each(BACKENDS)('admin import --dry-run (%s)', (backend) => {
  it('validates every record as a real import does, then writes nothing', async () => {
    const b = await initialised(backend);
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const good = join(b.configDir, 'users.ndjson');
    writeFileSync(good, '{"first_name":"Grace","last_name":"Hopper","email":"grace@example.com","role":"Admin"}\n{"first_name":"Alan","last_name":"Turing","email":"alan@example.com"}\n');
    const r = await run(['admin', 'import', 'users', good, '--dry-run']);
    expect(r).toEqual({ code: 0, stdout: 'would import 2 users into tenant localhost\n', stderr: 'dry run: nothing was changed\n' });
    expect(await b.store((s) => s.users.findByEmail(1, 'grace@example.com'))).toBeUndefined();

    const bad = join(b.configDir, 'bad.ndjson');
    writeFileSync(bad, '{"first_name":"Ada","last_name":"L","email":"ada@example.com"}\n{"first_name":"","last_name":"X","email":"nope"}\n');
    const refused = await run(['admin', 'import', 'users', bad, '--dry-run']);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('bad.ndjson:2');
    expect(await b.store((s) => s.users.findByEmail(1, 'ada@example.com'))).toBeUndefined();
  });
});
