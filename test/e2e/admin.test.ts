import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

describe.each(BACKENDS)('e2e: local administration (on %s)', (backend) => {
  const box = new Sandbox(backend);
  beforeAll(async () => {
    // On PostgreSQL every command, admin ones included, gets the sandbox's database as CONFCTL_DATABASE_URL.
    await box.useDatabase();
    await box.json(['admin', 'init', '--no-profile']);
  });
  afterAll(() => box.dispose());

  it('--no-profile saves no profile', async () => {
    const r = await box.json<unknown[]>(['profile', 'list']);
    expect(r).toEqual([]);
  });

  it('adds and lists tenants; a taken domain is a conflict', async () => {
    const acme = await box.json(['admin', 'tenants', 'add', 'Acme.test', '--alias', 'www.acme.test']);
    expect(acme).toMatchObject({ primary_domain: 'acme.test', aliases: ['www.acme.test'] });
    const list = await box.json<any[]>(['admin', 'tenants', 'list']);
    expect(list.map((t) => t.primary_domain)).toEqual(['localhost', 'acme.test']);
    const dup = await box.run(['admin', 'tenants', 'add', 'www.acme.test']);
    expect(dup.code).toBe(5);
  });

  it('creates keys, lists them without secrets, revokes them; a revoked key gets 401 (exit 3)', async () => {
    const key = await box.json(['admin', 'keys', 'create', '--tenant', 'localhost', '--name', 'ci', '--permissions', 'users.read.*, customers.*', '--expires', '2099-01-01']);
    expect(Object.keys(key).sort()).toEqual(['expires_at', 'id', 'name', 'permissions', 'secret', 'tenant']);
    expect(key.expires_at).toBe('2099-01-01T00:00:00.000Z');
    expect(key).toMatchObject({ tenant: 'localhost', name: 'ci', permissions: ['users.read.*', 'customers.*'] });

    const listed = await box.run(['admin', 'keys', 'list', '-o', 'json']);
    expect(listed.stdout).toContain(key.id);
    expect(listed.stdout).not.toContain(key.secret);
    expect(JSON.parse(listed.stdout).find((k: any) => k.id === key.id).expires_at).toBe('2099-01-01T00:00:00.000Z');

    const { baseUrl } = await box.serve(['--rate-limit', 'off', '--no-profile']);
    const env = { CONFCTL_BASE_URL: baseUrl, CONFCTL_KEY_ID: key.id, CONFCTL_KEY_SECRET: key.secret };
    expect((await box.run(['users', 'list'], { env })).code).toBe(0);
    const revoked = await box.json(['admin', 'keys', 'revoke', key.id]);
    expect(revoked.revoked_at).toMatch(/^\d{4}-/);
    const after = await box.run(['users', 'list'], { env });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('Invalid or missing access key.');
  });

  it('rejects bad key flags with exit 2 and unknown tenants with exit 4', async () => {
    expect((await box.run(['admin', 'keys', 'create', '--name', 'x', '--permissions', 'users..read'])).code).toBe(2);
    expect((await box.run(['admin', 'keys', 'create', '--name', 'x', '--permissions', '*', '--expires', 'soon'])).code).toBe(2);
    expect((await box.run(['admin', 'keys', 'create', '--name', 'x', '--permissions', '*', '--tenant', 'nope.test'])).code).toBe(4);
    expect((await box.run(['admin', 'keys', 'revoke', 'ak_missing'])).code).toBe(4);
    expect((await box.run(['admin', 'seed'])).code).toBe(2);
  });

  it('imports users all or nothing, reporting bad lines', async () => {
    const good = join(box.root, 'users.ndjson');
    writeFileSync(good, '{"first_name":"Grace","last_name":"Hopper","email":"grace@example.com","role":"Admin"}\n{"first_name":"Alan","last_name":"Turing","email":"alan@example.com"}\n');
    expect(await box.json(['admin', 'import', 'users', good])).toMatchObject({ kind: 'users', created: 2 });

    const bad = join(box.root, 'bad.ndjson');
    writeFileSync(bad, '{"first_name":"Ok","last_name":"Row","email":"ok@example.com"}\n{"first_name":"","last_name":"Row","email":"nope"}\n');
    const r = await box.run(['admin', 'import', 'users', bad]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/bad\.ndjson:2: first_name: The first_name field is required\./);
    expect(r.stderr).toMatch(/bad\.ndjson:2: email: The email field must be a valid email address\./);
    const again = await box.json(['admin', 'import', 'users', good.replace('users', 'none')]).catch((e: Error) => e.message);
    expect(again).toMatch(/exited 2/);
    expect((await box.run(['admin', 'import', 'robots', good])).code).toBe(2);
  });
});
