import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DataStore } from '../../../src/store/port.js';
import { asPostgres, asSqlite, eachStore, f, type Fixture, fixture, q, type StoreFactory } from './fixtures.js';

/** Tenants, keys, roles, departments, users and customers: reads, writes, scoping, uniqueness. */
export function repoContract(factory: StoreFactory) {
  describe(`${factory.name}: tenants, keys, users, customers`, () => {
    let store: DataStore;
    let fx: Fixture;
    const stores = eachStore(factory, async (s) => {
      store = s;
      fx = await fixture(store);
    });

    it('resolves tenants by any domain, case-insensitively; domains are unique', async () => {
      expect((await store.tenants.byDomain('A.EXAMPLE'))?.id).toBe(fx.a);
      expect((await store.tenants.byDomain('Alias.A.Example'))?.id).toBe(fx.a);
      expect(await store.tenants.byDomain('c.example')).toBeUndefined();
      expect(await store.tenants.get(fx.a)).toMatchObject({ primary_domain: 'a.example', aliases: ['alias.a.example'] });
      await expect(async () => store.tenants.create('ALIAS.a.example')).rejects.toThrow();
      await expect(async () => store.tenants.addAlias(fx.b, 'A.example')).rejects.toThrow();
      await store.tenants.addAlias(fx.b, 'B2.Example');
      expect((await store.tenants.byDomain('b2.example'))?.id).toBe(fx.b);
      // A tenant whose alias is taken is not created at all (one transaction), its primary domain neither.
      await expect(async () => store.tenants.create('new.example', ['Alias.A.example'])).rejects.toThrow();
      expect(await store.tenants.byDomain('new.example')).toBeUndefined();
      expect((await store.tenants.list()).map((t) => t.id)).toEqual([fx.a, fx.b]);
      // Domains are trimmed and lower-cased; an alias repeating another or the primary is stored once.
      const c = await store.tenants.create(' C.Example ', ['c.example', 'D.example', 'd.EXAMPLE ']);
      expect(c).toMatchObject({ primary_domain: 'c.example', aliases: ['d.example'] });
      expect(await store.tenants.get(c.id)).toEqual(c);
      expect((await store.tenants.byDomain(' D.EXAMPLE'))?.id).toBe(c.id);
    });

    it('creates keys whose secret is returned once and stored only as its SHA-256', async () => {
      const { record, secret } = await store.keys.create({ tenant_id: fx.a, name: 'ci', permissions: ['users.read.*', 'customers.*'], expires_at: '2030-01-01' });
      expect(record.id).toMatch(/^ak_[0-9A-Za-z]{24}$/);
      expect(secret).toMatch(/^[0-9A-Za-z]{48}$/);
      expect(record.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
      expect(record).toMatchObject({ tenant_id: fx.a, name: 'ci', permissions: ['users.read.*', 'customers.*'], expires_at: '2030-01-01T00:00:00.000Z', revoked_at: null });
      expect(JSON.stringify(await store.keys.get(record.id))).not.toContain(secret);
      expect(await store.keys.get(record.id)).toEqual(record);
      if (store.backend === 'sqlite' && factory.reopen) {
        // A file store: neither the database nor its WAL holds the secret.
        await store.close();
        for (const suffix of ['', '-wal']) {
          try {
            expect(readFileSync(store.location + suffix).includes(secret)).toBe(false);
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
          }
        }
      }
      if (store.backend === 'postgres') {
        // PostgreSQL's files are the server's: no column of the stored key holds the secret.
        const { rows } = await asPostgres(store).pool.query('SELECT * FROM access_keys');
        expect(rows.length).toBe(1);
        for (const row of rows) for (const value of Object.values(row)) expect(String(value)).not.toContain(secret);
        expect(rows[0]).toMatchObject({ id: record.id, secret_hash: record.secret_hash });
      }
      // What follows also holds after the store is closed and its database opened again.
      if (factory.reopen) store = await stores.reopen(store);
      expect(await store.keys.get(record.id)).toEqual(record);
      const other = await store.keys.create({ tenant_id: fx.b, name: 'b', permissions: ['*'] });
      expect(other.record.id).not.toBe(record.id);
      expect((await store.keys.list(fx.a)).map((k) => k.id)).toEqual([record.id]);
      expect((await store.keys.list()).length).toBe(2);
      expect(await store.keys.revoke(record.id)).toBe(true);
      expect((await store.keys.get(record.id))?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(await store.keys.revoke('ak_missing')).toBe(false);
    });

    it('keeps roles per tenant, case-sensitively, and departments scoped', async () => {
      await store.roles.create(fx.a, 'Admin');
      await store.roles.create(fx.a, 'Auditor');
      expect(await store.roles.list(fx.a)).toEqual(['Admin', 'Manager', 'Member', 'Auditor']);
      expect(await store.roles.exists(fx.a, 'Auditor')).toBe(true);
      expect(await store.roles.exists(fx.a, 'auditor')).toBe(false);
      expect(await store.roles.exists(fx.b, 'Auditor')).toBe(false);
      expect(await store.departments.get(fx.a, fx.eng.id)).toEqual({ id: fx.eng.id, tenant_id: fx.a, name: 'Engineering' });
      expect(await store.departments.get(fx.b, fx.eng.id)).toBeUndefined();
      expect((await store.departments.list(fx.a)).map((d) => d.name)).toEqual(['Engineering', 'Sales']);
    });

    it('reads users within the tenant only; soft-deleted users do not exist', async () => {
      const u = (await store.users.get(fx.a, fx.users.lovelace.id))!;
      expect(u).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace', department_id: fx.eng.id, department_name: 'Engineering', timezone: 'Europe/London', work_hours: null, deleted_at: null });
      expect(await store.users.get(fx.b, fx.users.lovelace.id)).toBeUndefined();
      expect(await store.users.get(fx.a, fx.other.user.id)).toBeUndefined();
      expect(await store.users.get(fx.a, fx.users.deleted.id)).toBeUndefined();
      expect(await store.customers.get(fx.a, fx.other.customer.id)).toBeUndefined();
      expect(await store.customers.get(fx.a, fx.customers.gone.id)).toBeUndefined();
    });

    it('updates only the sent user fields; null clears; work hours round-trip', async () => {
      const wh = { sunday: [], monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 24, minute: 0, second: 0 } }], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
      const before = (await store.users.get(fx.a, fx.users.lovelace.id))!;
      const after = await store.users.update(fx.a, before.id, { first_name: 'Augusta', department_id: null, work_hours: wh, role: 'Manager' });
      expect(after).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace', name: 'Augusta Lovelace', department_id: null, department_name: null, work_hours: wh, role: 'Manager', timezone: 'Europe/London', email: before.email });
      expect(after.updated_at >= before.updated_at).toBe(true);
      expect(await store.users.update(fx.a, before.id, {})).toMatchObject({ first_name: 'Augusta', role: 'Manager' });
      expect((await store.users.update(fx.a, before.id, { timezone: null, work_hours: null })).work_hours).toBeNull();
      await expect(async () => store.users.update(fx.b, before.id, { first_name: 'X' })).rejects.toThrow();
      await expect(async () => store.users.update(fx.a, fx.users.deleted.id, { first_name: 'X' })).rejects.toThrow();
      await expect(async () => store.users.update(fx.a, before.id, { role: 'NoSuchRole' })).rejects.toThrow();
    });

    it('checks user email uniqueness case-insensitively among the tenant\'s live users', async () => {
      expect(await store.users.emailTaken(fx.a, 'LOVELACE@a.example')).toBe(true);
      expect(await store.users.emailTaken(fx.a, 'lovelace@a.example', fx.users.lovelace.id)).toBe(false);
      expect(await store.users.emailTaken(fx.a, 'hopper@a.example')).toBe(false); // deleted
      expect(await store.users.emailTaken(fx.b, 'alan@a.example')).toBe(false);
      expect((await store.users.findByEmail(fx.a, 'Alan@A.Example'))?.id).toBe(fx.users.turing.id);
      expect(await store.users.findByEmail(fx.a, 'hopper@a.example')).toBeUndefined();
      await expect(async () => store.users.insert(fx.a, { first_name: 'D', last_name: 'D', email: 'Lovelace@A.example' })).rejects.toThrow();
      expect((await store.users.insert(fx.a, { first_name: 'G', last_name: 'H', email: 'HOPPER@a.example' })).email).toBe('HOPPER@a.example');
      // Another live user's e-mail on update: a UniqueViolation of the e-mail, nothing changed.
      await expect(async () => store.users.update(fx.a, fx.users.turing.id, { email: 'Lovelace@a.example', first_name: 'X' })).rejects.toMatchObject({ name: 'UniqueViolation', field: 'email' });
      expect(await store.users.get(fx.a, fx.users.turing.id)).toMatchObject({ email: 'ALAN@a.example', first_name: 'alan' });
    });

    // SQLite only: DataStore has no invitations repo (PostgreSQL writes invitations only in
    // units.createUser; the units contract checks those through its own reader, invitationsOf).
    it.runIf(factory.backend === 'sqlite')('records invitations per tenant in insertion order, stamped now unless given a time', () => {
      const sqlite = asSqlite(store);
      expect(sqlite.invitations.list(fx.a)).toEqual([]);
      const first = sqlite.invitations.insert(fx.a, { user_id: fx.users.lovelace.id, email: 'lovelace@a.example', created_at: '2026-02-01T00:00:00.000Z' });
      sqlite.invitations.insert(fx.b, { user_id: fx.other.user.id, email: 'lovelace@a.example' });
      const second = sqlite.invitations.insert(fx.a, { user_id: fx.users.turing.id, email: 'alan@a.example' });
      expect(first).toEqual({ id: first.id, tenant_id: fx.a, user_id: fx.users.lovelace.id, email: 'lovelace@a.example', created_at: '2026-02-01T00:00:00.000Z' });
      expect(second.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(sqlite.invitations.list(fx.a)).toEqual([first, second]);
      expect(sqlite.invitations.list(fx.b).map((i) => [i.tenant_id, i.user_id])).toEqual([[fx.b, fx.other.user.id]]);
    });

    it('stores customers with an eight-field address, derives name, replaces the address on update', async () => {
      const berlin = (await store.customers.get(fx.a, fx.customers.berlin.id))!;
      expect(berlin.name).toBe('Emma Rose Müller');
      expect(berlin.address).toEqual({ line_1: 'Unter den Linden 1', line_2: null, city: 'Berlin', region: 'Berlin', region_code: null, country: 'Germany', country_code: 'DE', postal_code: '10117' });
      expect((await store.customers.get(fx.a, fx.customers.none.id))!.address).toBeNull();
      const updated = await store.customers.update(fx.a, berlin.id, { address: { city: 'Hamburg' }, middle_name: null });
      expect(updated.address).toEqual({ line_1: null, line_2: null, city: 'Hamburg', region: null, region_code: null, country: null, country_code: null, postal_code: null });
      expect(updated).toMatchObject({ name: 'Emma Müller', middle_name: null, email: berlin.email });
      expect(await store.customers.update(fx.a, berlin.id, { contact_number: '+4912345678' })).toMatchObject({ contact_number: '+4912345678', address: updated.address });
      expect((await store.customers.update(fx.a, berlin.id, { address: null })).address).toBeNull();
      await expect(async () => store.customers.update(fx.b, berlin.id, { first_name: 'X' })).rejects.toThrow();
    });

    it('answers e-mail checks asked together each for its own e-mail, tenant and exception', async () => {
      const asked: Array<[number, string, number | undefined]> = [
        [fx.a, 'EMMA@c.example', undefined],
        [fx.a, 'emma@c.example', fx.customers.berlin.id],
        [fx.a, 'gone@c.example', undefined],
        [fx.a, 'mia@C.example', undefined],
        [fx.a, 'mia@c.example', fx.customers.berlin.id],
        [fx.a, 'nobody@c.example', undefined],
        [fx.b, 'emma@c.example', undefined],
      ];
      const together = await Promise.all(asked.map(([t, email, except]) => store.customers.emailTaken(t, email, except)));
      const alone: boolean[] = [];
      for (const [t, email, except] of asked) alone.push(await store.customers.emailTaken(t, email, except));
      expect(together).toEqual(alone);
      expect(together.slice(0, 6)).toEqual([true, false, false, true, true, false]);
      const users = await Promise.all([
        store.users.emailTaken(fx.a, 'LOVELACE@a.example'),
        store.users.emailTaken(fx.a, 'lovelace@a.example', fx.users.lovelace.id),
        store.users.emailTaken(fx.a, 'hopper@a.example'),
        store.users.emailTaken(fx.b, 'alan@a.example'),
      ]);
      expect(users).toEqual([true, false, false, false]);
    });

    it('creates customers asked for together each on its own: ids in order, a clash or a bad row refuses only itself', async () => {
      const clash = { name: 'UniqueViolation', field: 'email' };
      const asked = [
        { first_name: 'One', last_name: 'A', email: 'one@together.example' },
        { first_name: 'Two', last_name: 'B', email: 'EMMA@c.example' },
        { first_name: 'Three', last_name: 'C', email: 'three@together.example' },
        { first_name: 'Four', last_name: 'D', email: 'ONE@together.example' },
        { first_name: null, last_name: 'E', email: 'five@together.example' } as unknown as { first_name: string; last_name: string; email: string },
        { first_name: 'Six', last_name: 'F', email: 'six@together.example' },
      ];
      const outcomes = await Promise.allSettled(asked.map(async (input) => store.customers.insert(fx.a, input)));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject(clash);
      expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject(clash);
      const made = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      expect(made.map((c) => c.email)).toEqual(['one@together.example', 'three@together.example', 'six@together.example']);
      expect(made[0].id).toBeLessThan(made[1].id);
      expect(made[1].id).toBeLessThan(made[2].id);
      for (const c of made) expect(await store.customers.get(fx.a, c.id)).toEqual(c);
      expect(await store.customers.findByEmail(fx.a, 'five@together.example')).toBeUndefined();
      expect((await store.customers.findByEmail(fx.a, 'emma@c.example'))?.id).toBe(fx.customers.berlin.id);
      // Without a bad row (on PostgreSQL: one multi-row INSERT), clashes in and beside the batch.
      const again = await Promise.allSettled(
        ['seven@together.example', 'SEVEN@together.example', 'Three@Together.example', 'eight@together.example'].map(async (email) =>
          store.customers.insert(fx.a, { first_name: 'N', last_name: 'N', email }),
        ),
      );
      expect(again.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect((again[1] as PromiseRejectedResult).reason).toMatchObject(clash);
      expect((again[2] as PromiseRejectedResult).reason).toMatchObject(clash);
      const [seven, eight] = [again[0], again[3]].map((o) => (o as PromiseFulfilledResult<{ id: number; email: string }>).value);
      expect(seven.id).toBeGreaterThan(made[2].id);
      expect(eight.id).toBeGreaterThan(seven.id);
      expect(await store.customers.get(fx.a, eight.id)).toEqual(eight);
    });

    it('checks customer email uniqueness case-insensitively, ignoring deleted customers', async () => {
      expect(await store.customers.emailTaken(fx.a, 'EMMA@c.example')).toBe(true);
      expect(await store.customers.emailTaken(fx.a, 'emma@c.example', fx.customers.berlin.id)).toBe(false);
      expect(await store.customers.emailTaken(fx.a, 'gone@c.example')).toBe(false);
      expect((await store.customers.findByEmail(fx.a, 'MIA@C.EXAMPLE'))?.id).toBe(fx.customers.paris.id);
      const clash = { name: 'UniqueViolation', field: 'email' };
      await expect(async () => store.customers.insert(fx.a, { first_name: 'E', last_name: 'E', email: 'Emma@C.example' })).rejects.toMatchObject(clash);
      const back = await store.customers.insert(fx.a, { first_name: 'G', last_name: 'A', email: 'gone@c.example' });
      expect(back.id).toBeGreaterThan(fx.customers.gone.id);
      await expect(async () => store.customers.update(fx.a, back.id, { email: 'mia@C.example', first_name: 'X' })).rejects.toMatchObject(clash);
      expect(await store.customers.get(fx.a, back.id)).toEqual(back);
      expect((await store.customers.list(fx.a, q({ with_trashed: true }))).total).toBe(5);
    });

    it('users as JSON text: byte for byte JSON.stringify of what get and list answer', async () => {
      // Every kind of column: nulls, a department, a role, work hours, text JSON must escape (no NUL: the contract refuses it).
      const tricky = 'Zoë "Q" \\ back\\slash\t\n\r\b\f\u0001\u001f\u007f\u2028\u2029 €😀 <tag>&\'';
      const hours = { sunday: [], monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 30, second: 59 } }], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
      await store.roles.create(fx.a, 'rôle "x"');
      const dept = await store.departments.create(fx.a, `Dépt ${tricky}`);
      const odd = await store.users.insert(fx.a, {
        first_name: tricky, last_name: '😀', email: 'odd@a.example', department_id: dept.id, timezone: 'Europe/Zürich', work_hours: hours,
        role: 'rôle "x"', status: 0, avatar_url: 'https://example.com/a?b=1&c="2"',
      });
      for (const id of [odd.id, fx.users.lovelace.id, fx.users.turing.id, fx.users.late.id]) {
        expect(await store.users.getJson(fx.a, id)).toBe(JSON.stringify(await store.users.get(fx.a, id)));
      }
      expect(JSON.parse((await store.users.getJson(fx.a, odd.id))!)).toMatchObject({ first_name: tricky, work_hours: hours, department_name: `Dépt ${tricky}` });
      expect(await store.users.getJson(fx.a, fx.users.deleted.id)).toBeUndefined();
      expect(await store.users.getJson(fx.b, odd.id)).toBeUndefined();
      const queries = [
        q(),
        q({ with_trashed: true, order_by: 'first_name', order_direction: 'desc' }),
        q({ page_size: 2, page_number: 2 }),
        q({ filter: f('department', 'text', 'Contains', 'DÉPT') }),
        q({ filter: f('department', 'text', 'Contains', 'dépt') }),
      ];
      for (const query of queries) {
        const list = await store.users.list(fx.a, query);
        expect(await store.users.listJson(fx.a, query)).toEqual({ rows: list.rows.map((r) => JSON.stringify(r)), total: list.total });
      }
    });

    it('answers ping at this build\'s schema version', async () => {
      await expect((async () => store.ping())()).resolves.toBeUndefined();
      expect(store.location).toBeTruthy();
    });

    // SQLite only: DataStore has no `transaction` (PostgreSQL's atomic writes are the units of
    // work, tested by the units contract); nested SQLite transactions are savepoints.
    it.runIf(factory.backend === 'sqlite')('nests transactions: an inner failure rolls back only the inner part, an outer one everything', () => {
      const sqlite = asSqlite(store);
      sqlite.transaction(() => {
        sqlite.roles.create(fx.a, 'Outer');
        expect(() => sqlite.transaction(() => {
          sqlite.roles.create(fx.a, 'Inner');
          throw new Error('inner');
        })).toThrow('inner');
      });
      expect(sqlite.roles.exists(fx.a, 'Outer')).toBe(true);
      expect(sqlite.roles.exists(fx.a, 'Inner')).toBe(false);
      expect(() => sqlite.transaction(() => {
        sqlite.roles.create(fx.a, 'Lost');
        sqlite.transaction(() => sqlite.roles.create(fx.a, 'AlsoLost'));
        throw new Error('outer');
      })).toThrow('outer');
      expect(sqlite.roles.exists(fx.a, 'Lost') || sqlite.roles.exists(fx.a, 'AlsoLost')).toBe(false);
    });
  });
}
