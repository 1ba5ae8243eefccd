import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import { fixture, type Fixture, type StoreFactory } from './fixtures.js';

/** Tenants, keys, roles, departments, users and customers: reads, writes, scoping, uniqueness. */
export function repoContract(factory: StoreFactory) {
  describe(`${factory.name}: tenants, keys, users, customers`, () => {
    let store: Store;
    let fx: Fixture;
    beforeEach(() => {
      store = factory.create();
      fx = fixture(store);
      return () => store.close();
    });

    it('resolves tenants by any domain, case-insensitively; domains are unique', () => {
      expect(store.tenants.byDomain('A.EXAMPLE')?.id).toBe(fx.a);
      expect(store.tenants.byDomain('Alias.A.Example')?.id).toBe(fx.a);
      expect(store.tenants.byDomain('c.example')).toBeUndefined();
      expect(store.tenants.get(fx.a)).toMatchObject({ primary_domain: 'a.example', aliases: ['alias.a.example'] });
      expect(() => store.tenants.create('ALIAS.a.example')).toThrow();
      expect(() => store.tenants.addAlias(fx.b, 'A.example')).toThrow();
      store.tenants.addAlias(fx.b, 'B2.Example');
      expect(store.tenants.byDomain('b2.example')?.id).toBe(fx.b);
      expect(store.tenants.list().map((t) => t.id)).toEqual([fx.a, fx.b]);
    });

    it('creates keys whose secret is returned once and stored only as its SHA-256', () => {
      const { record, secret } = store.keys.create({ tenant_id: fx.a, name: 'ci', permissions: ['users.read.*', 'customers.*'], expires_at: '2030-01-01' });
      expect(record.id).toMatch(/^ak_[0-9A-Za-z]{24}$/);
      expect(secret).toMatch(/^[0-9A-Za-z]{48}$/);
      expect(record.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
      expect(record).toMatchObject({ tenant_id: fx.a, name: 'ci', permissions: ['users.read.*', 'customers.*'], expires_at: '2030-01-01T00:00:00.000Z', revoked_at: null });
      expect(JSON.stringify(store.keys.get(record.id))).not.toContain(secret);
      expect(store.keys.get(record.id)).toEqual(record);
      if (store.location !== ':memory:') {
        store.close();
        for (const suffix of ['', '-wal']) {
          try {
            expect(readFileSync(store.location + suffix).includes(secret)).toBe(false);
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
          }
        }
        store = factory.reopen!(store);
      }
      const other = store.keys.create({ tenant_id: fx.b, name: 'b', permissions: ['*'] });
      expect(other.record.id).not.toBe(record.id);
      expect(store.keys.list(fx.a).map((k) => k.id)).toEqual([record.id]);
      expect(store.keys.list().length).toBe(2);
      expect(store.keys.revoke(record.id)).toBe(true);
      expect(store.keys.get(record.id)?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(store.keys.revoke('ak_missing')).toBe(false);
    });

    it('keeps roles per tenant, case-sensitively, and departments scoped', () => {
      store.roles.create(fx.a, 'Admin');
      store.roles.create(fx.a, 'Auditor');
      expect(store.roles.list(fx.a)).toEqual(['Admin', 'Manager', 'Member', 'Auditor']);
      expect(store.roles.exists(fx.a, 'Auditor')).toBe(true);
      expect(store.roles.exists(fx.a, 'auditor')).toBe(false);
      expect(store.roles.exists(fx.b, 'Auditor')).toBe(false);
      expect(store.departments.get(fx.a, fx.eng.id)).toEqual({ id: fx.eng.id, tenant_id: fx.a, name: 'Engineering' });
      expect(store.departments.get(fx.b, fx.eng.id)).toBeUndefined();
      expect(store.departments.list(fx.a).map((d) => d.name)).toEqual(['Engineering', 'Sales']);
    });

    it('reads users within the tenant only; soft-deleted users do not exist', () => {
      const u = store.users.get(fx.a, fx.users.lovelace.id)!;
      expect(u).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace', department_id: fx.eng.id, department_name: 'Engineering', timezone: 'Europe/London', work_hours: null, deleted_at: null });
      expect(store.users.get(fx.b, fx.users.lovelace.id)).toBeUndefined();
      expect(store.users.get(fx.a, fx.other.user.id)).toBeUndefined();
      expect(store.users.get(fx.a, fx.users.deleted.id)).toBeUndefined();
      expect(store.customers.get(fx.a, fx.other.customer.id)).toBeUndefined();
      expect(store.customers.get(fx.a, fx.customers.gone.id)).toBeUndefined();
    });

    it('updates only the sent user fields; null clears; work hours round-trip', () => {
      const wh = { sunday: [], monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 24, minute: 0, second: 0 } }], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
      const before = store.users.get(fx.a, fx.users.lovelace.id)!;
      const after = store.users.update(fx.a, before.id, { first_name: 'Augusta', department_id: null, work_hours: wh, role: 'Manager' });
      expect(after).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace', name: 'Augusta Lovelace', department_id: null, department_name: null, work_hours: wh, role: 'Manager', timezone: 'Europe/London', email: before.email });
      expect(after.updated_at >= before.updated_at).toBe(true);
      expect(store.users.update(fx.a, before.id, {})).toMatchObject({ first_name: 'Augusta', role: 'Manager' });
      expect(store.users.update(fx.a, before.id, { timezone: null, work_hours: null }).work_hours).toBeNull();
      expect(() => store.users.update(fx.b, before.id, { first_name: 'X' })).toThrow();
      expect(() => store.users.update(fx.a, fx.users.deleted.id, { first_name: 'X' })).toThrow();
      expect(() => store.users.update(fx.a, before.id, { role: 'NoSuchRole' })).toThrow();
    });

    it('checks user email uniqueness case-insensitively among the tenant\'s live users', () => {
      expect(store.users.emailTaken(fx.a, 'LOVELACE@a.example')).toBe(true);
      expect(store.users.emailTaken(fx.a, 'lovelace@a.example', fx.users.lovelace.id)).toBe(false);
      expect(store.users.emailTaken(fx.a, 'hopper@a.example')).toBe(false); // deleted
      expect(store.users.emailTaken(fx.b, 'alan@a.example')).toBe(false);
      expect(store.users.findByEmail(fx.a, 'Alan@A.Example')?.id).toBe(fx.users.turing.id);
      expect(store.users.findByEmail(fx.a, 'hopper@a.example')).toBeUndefined();
      expect(() => store.users.insert(fx.a, { first_name: 'D', last_name: 'D', email: 'Lovelace@A.example' })).toThrow();
      expect(store.users.insert(fx.a, { first_name: 'G', last_name: 'H', email: 'HOPPER@a.example' }).email).toBe('HOPPER@a.example');
    });

    it('records invitations per tenant in insertion order, stamped now unless given a time', () => {
      expect(store.invitations.list(fx.a)).toEqual([]);
      const first = store.invitations.insert(fx.a, { user_id: fx.users.lovelace.id, email: 'lovelace@a.example', created_at: '2026-02-01T00:00:00.000Z' });
      store.invitations.insert(fx.b, { user_id: fx.other.user.id, email: 'lovelace@a.example' });
      const second = store.invitations.insert(fx.a, { user_id: fx.users.turing.id, email: 'alan@a.example' });
      expect(first).toEqual({ id: first.id, tenant_id: fx.a, user_id: fx.users.lovelace.id, email: 'lovelace@a.example', created_at: '2026-02-01T00:00:00.000Z' });
      expect(second.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(store.invitations.list(fx.a)).toEqual([first, second]);
      expect(store.invitations.list(fx.b).map((i) => [i.tenant_id, i.user_id])).toEqual([[fx.b, fx.other.user.id]]);
    });

    it('stores customers with an eight-field address, derives name, replaces the address on update', () => {
      const berlin = store.customers.get(fx.a, fx.customers.berlin.id)!;
      expect(berlin.name).toBe('Emma Rose Müller');
      expect(berlin.address).toEqual({ line_1: 'Unter den Linden 1', line_2: null, city: 'Berlin', region: 'Berlin', region_code: null, country: 'Germany', country_code: 'DE', postal_code: '10117' });
      expect(store.customers.get(fx.a, fx.customers.none.id)!.address).toBeNull();
      const updated = store.customers.update(fx.a, berlin.id, { address: { city: 'Hamburg' }, middle_name: null });
      expect(updated.address).toEqual({ line_1: null, line_2: null, city: 'Hamburg', region: null, region_code: null, country: null, country_code: null, postal_code: null });
      expect(updated).toMatchObject({ name: 'Emma Müller', middle_name: null, email: berlin.email });
      expect(store.customers.update(fx.a, berlin.id, { contact_number: '+4912345678' })).toMatchObject({ contact_number: '+4912345678', address: updated.address });
      expect(store.customers.update(fx.a, berlin.id, { address: null }).address).toBeNull();
      expect(() => store.customers.update(fx.b, berlin.id, { first_name: 'X' })).toThrow();
    });

    it('checks customer email uniqueness case-insensitively, ignoring deleted customers', () => {
      expect(store.customers.emailTaken(fx.a, 'EMMA@c.example')).toBe(true);
      expect(store.customers.emailTaken(fx.a, 'emma@c.example', fx.customers.berlin.id)).toBe(false);
      expect(store.customers.emailTaken(fx.a, 'gone@c.example')).toBe(false);
      expect(store.customers.findByEmail(fx.a, 'MIA@C.EXAMPLE')?.id).toBe(fx.customers.paris.id);
      expect(() => store.customers.insert(fx.a, { first_name: 'E', last_name: 'E', email: 'Emma@C.example' })).toThrow();
      expect(store.customers.insert(fx.a, { first_name: 'G', last_name: 'A', email: 'gone@c.example' }).id).toBeGreaterThan(0);
    });

    it('nests transactions: an inner failure rolls back only the inner part, an outer one everything', () => {
      store.transaction(() => {
        store.roles.create(fx.a, 'Outer');
        expect(() => store.transaction(() => {
          store.roles.create(fx.a, 'Inner');
          throw new Error('inner');
        })).toThrow('inner');
      });
      expect(store.roles.exists(fx.a, 'Outer')).toBe(true);
      expect(store.roles.exists(fx.a, 'Inner')).toBe(false);
      expect(() => store.transaction(() => {
        store.roles.create(fx.a, 'Lost');
        store.transaction(() => store.roles.create(fx.a, 'AlsoLost'));
        throw new Error('outer');
      })).toThrow('outer');
      expect(store.roles.exists(fx.a, 'Lost') || store.roles.exists(fx.a, 'AlsoLost')).toBe(false);
    });
  });
}
