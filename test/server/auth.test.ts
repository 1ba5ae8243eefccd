import { afterEach, describe, expect, it } from 'vitest';
import { setup, type Fixture } from './fixtures.js';

let f: Fixture;
afterEach(() => f?.store.close());

const INVALID = [401, 'Invalid or missing access key.'];
const DENIED = [401, 'Access denied.'];

async function answer(path: string, init: Parameters<Fixture['call']>[2] = {}, method = 'GET') {
  const res = await f.call(method, path, init);
  return [res.status, res.body];
}

describe('key authentication', () => {
  it('rejects a missing key or a missing half of it', async () => {
    f = setup();
    expect(await answer('/users', { key: null })).toEqual(INVALID);
    expect(await answer('/users', { key: null, headers: { 'x-access-key-id': f.admin['x-access-key-id'] } })).toEqual(INVALID);
    expect(await answer('/users', { key: null, headers: { 'x-access-key-secret': f.admin['x-access-key-secret'] } })).toEqual(INVALID);
  });

  it('rejects a wrong secret and an unknown key id', async () => {
    f = setup();
    expect(await answer('/users', { key: { ...f.admin, 'x-access-key-secret': 'x'.repeat(48) } })).toEqual(INVALID);
    expect(await answer('/users', { key: { ...f.admin, 'x-access-key-id': 'ak_000000000000000000000000' } })).toEqual(INVALID);
  });

  it('rejects a revoked key', async () => {
    f = setup();
    const key = f.key();
    expect((await f.call('GET', '/users', { key })).status).toBe(200);
    f.store.keys.revoke(key['x-access-key-id']);
    expect(await answer('/users', { key })).toEqual(INVALID);
  });

  it('rejects an expired key, on the instance clock', async () => {
    let now = Date.parse('2030-01-01T00:00:00.000Z');
    f = setup({ clock: { now: () => new Date(now) } });
    const key = f.key(['*'], f.tenant.id, '2030-01-01T00:00:10.000Z');
    expect((await f.call('GET', '/users', { key })).status).toBe(200);
    now += 10_000;
    expect(await answer('/users', { key })).toEqual(INVALID);
  });

  it("rejects a key of another tenant, even a valid one", async () => {
    f = setup();
    expect(await answer('/users', { key: f.key(['*'], f.other.id) })).toEqual(INVALID);
  });

  it('checks the key before validation and permissions before validation', async () => {
    f = setup();
    const bad = { body: '{not json' };
    expect(await answer('/customers', { ...bad, key: null }, 'POST')).toEqual(INVALID);
    expect(await answer('/customers', { ...bad, key: f.key(['customers.read.*']) }, 'POST')).toEqual(DENIED);
    expect((await f.call('POST', '/customers', bad)).status).toBe(400);
  });
});

describe('permissions', () => {
  const cases: [string[], boolean][] = [
    [['*'], true],
    [['users.*'], true],
    [['users.read.*'], true],
    [['*.read.*'], true],
    [['users.update.*'], false],
    [['customers.*'], false],
    [['users.read'], false],
    [[], false],
  ];
  it.each(cases)('grants %j on GET /users: %s', async (grants, allowed) => {
    f = setup();
    expect(await answer('/users', { key: f.key(grants) })).toEqual(allowed ? [200, expect.any(String)] : DENIED);
  });

  it('requires every permission of an operation listing several', async () => {
    f = setup();
    const user = f.store.users.insert(f.tenant.id, { first_name: 'A', last_name: 'B', email: 'a@b.test' });
    const path = `/users/${user.id}/connected_accounts`; // users.read.* and connected_accounts.read.*
    expect(await answer(path, { key: f.key(['users.read.*']) })).toEqual(DENIED);
    expect(await answer(path, { key: f.key(['connected_accounts.read.*']) })).toEqual(DENIED);
    expect((await f.call('GET', path, { key: f.key(['users.read.*', 'connected_accounts.read.*']) })).status).toBe(200);
    expect((await f.call('GET', path, { key: f.key(['*.read.*']) })).status).toBe(200);
  });

  it('checks write permissions per operation', async () => {
    f = setup();
    const user = f.store.users.insert(f.tenant.id, { first_name: 'A', last_name: 'B', email: 'a@b.test' });
    const readOnly = f.key(['*.read.*']);
    expect(await answer(`/users/${user.id}`, { key: readOnly, body: { first_name: 'X' } }, 'PATCH')).toEqual(DENIED);
    expect(await answer('/customers', { key: readOnly, body: {} }, 'POST')).toEqual(DENIED);
    expect((await f.call('PATCH', `/users/${user.id}`, { key: f.key(['users.update.*']), body: { first_name: 'X' } })).status).toBe(200);
  });
});
