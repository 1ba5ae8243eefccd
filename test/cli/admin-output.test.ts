import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/contract/operations-meta.js';
import { demoMessage } from '../../src/cli/commands/serve/run.js';
import { seedDemo } from '../../src/admin/seed/index.js';
import { BACKENDS } from '../e2e/harness.js';
import { adminDatabaseFixture } from './admin-database-fixture.js';

/** What admin commands print, each case on a data directory and on a database. */
const { adminOn } = adminDatabaseFixture();

/** Every key of a JSON value, nested ones included. */
const keysOf = (v: unknown): string[] =>
  Array.isArray(v) ? v.flatMap(keysOf) : v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => [k, ...keysOf(x)]) : [];

describe.each(BACKENDS)('admin keys create --permissions (%s)', (backend) => {
  it('a grant that matches no known permission is exit 2 listing the valid names; nothing is created', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['admin', 'keys', 'create', '--name', 'x', '--permissions', 'users.*,user.read.*'])).toBe(2);
    expect(f.stderr()).toContain("error: no known permission matches 'user.read.*'");
    expect(f.stderr()).toContain(`hint: known permissions: ${ALL_PERMISSIONS.join(', ')}`);
    expect(await f.store(async (s) => (await s.keys.list()).length)).toBe(1);
  });

  it('wildcards that match known permissions are fine; -o json includes expires_at', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    const key = await f.json(['admin', 'keys', 'create', '--name', 'r', '--permissions', '*.read.*,users.*']);
    expect(key).toMatchObject({ permissions: ['*.read.*', 'users.*'], expires_at: null });
    const dated = await f.json(['admin', 'keys', 'create', '--name', 'd', '--permissions', '*', '--expires', '2099-06-01T12:00:00Z']);
    expect(dated.expires_at).toBe('2099-06-01T12:00:00.000Z');
    expect(await f.store(async (s) => (await s.keys.get(dated.id))?.expires_at)).toBe('2099-06-01T12:00:00.000Z');
  });
});

describe.each(BACKENDS)('admin JSON output (%s)', (backend) => {
  it('uses snake_case keys everywhere, nested ones included (seed --demo)', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    const seeded = await f.json(['admin', 'seed', '--demo']);
    expect(seeded.demo).toMatchObject({ skipped: false, connected_accounts: expect.any(Number), conference_accounts: expect.any(Number) });
    expect(keysOf(seeded).filter((k) => /[A-Z]/.test(k))).toEqual([]);
  });
});

describe.each(BACKENDS)('serve --demo message (%s)', (backend) => {
  it('says whether the demo data was loaded or was already there', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    const mediaDir = join(f.dataDir, 'media');
    const message = await f.store(async (store) => {
      const first = await seedDemo(store, 1, { mediaDir });
      return [demoMessage(first), demoMessage(await seedDemo(store, 1, { mediaDir }))];
    });
    expect(message[0]).toMatch(/^Demo data loaded: \d+ users, \d+ customers, \d+ conferences, \d+ recordings\.$/);
    expect(message[1]).toBe('Demo data already present: nothing was added.');
  });
});

describe.each(BACKENDS)('--fields on commands that print a new secret (%s)', (backend) => {
  it('admin init and keys create print only the selected fields, on a terminal too', async () => {
    const f = await adminOn(backend, { tty: true });
    expect(await f.run(['admin', 'init', '--no-profile', '--fields', 'key_id,tenant'])).toBe(0);
    const key = await f.store(async (s) => (await s.keys.list())[0]);
    expect(f.stdout()).toContain(key.id);
    expect(f.stdout()).not.toMatch(/secret/i);
    const before = f.stdout().length;
    expect(await f.run(['admin', 'keys', 'create', '--name', 'x', '--permissions', '*', '-o', 'json', '--fields', 'name,expires_at'])).toBe(0);
    expect(JSON.parse(f.stdout().slice(before))).toEqual({ name: 'x', expires_at: null });
  });
});
