import { describe, expect, it } from 'vitest';
import type { Operator, User } from '../../../src/contract/index.js';
import type { DataStore } from '../../../src/store/port.js';
import { eachStore, f, type Fixture, fixture, q, type StoreFactory } from './fixtures.js';

/** List queries: every operator on text, integer and date attributes, ordering, paging, derived attributes. */
export function listContract(factory: StoreFactory) {
  describe(`${factory.name}: list queries`, () => {
    let store: DataStore;
    let fx: Fixture;
    eachStore(factory, async (s) => {
      store = s;
      fx = await fixture(store);
    });
    const users = async (query = q()) => (await store.users.list(fx.a, query)).rows.map((r) => r.last_name);
    const customers = async (query = q()) => (await store.customers.list(fx.a, query)).rows.map((r) => r.first_name);

    it('text Equal/NotEqual fold ASCII case; NotEqual does not match NULL', async () => {
      expect(await users(q({ filter: f('last_name', 'text', 'Equal', 'LOVELACE') }))).toEqual(['Lovelace']);
      expect(await users(q({ filter: f('email', 'text', 'Equal', 'alan@A.EXAMPLE') }))).toEqual(['Turing']);
      expect(await users(q({ filter: f('timezone', 'text', 'Equal', 'EUROPE/london') }))).toEqual(['Lovelace', '50xyoff']);
      // Turing and Zuse have no timezone: NotEqual leaves them out.
      expect(await users(q({ filter: f('timezone', 'text', 'NotEqual', 'europe/london') }))).toEqual(['50%_off', 'a\\b']);
    });

    it('text ordering operators compare case-insensitively', async () => {
      expect(await users(q({ filter: f('last_name', 'text', 'GreaterThan', 'm') }))).toEqual(['Turing', 'Zuse']);
      expect(await users(q({ filter: f('last_name', 'text', 'GreaterThanOrEqual', 'TURING') }))).toEqual(['Turing', 'Zuse']);
      expect(await users(q({ filter: f('last_name', 'text', 'LessThan', 'a') }))).toEqual(['50%_off', '50xyoff']);
      expect(await users(q({ filter: f('last_name', 'text', 'LessThanOrEqual', 'A\\B') }))).toEqual(['50%_off', '50xyoff', 'a\\b']);
    });

    it('Contains is a case-insensitive substring match with %, _ and \\ literal', async () => {
      expect(await users(q({ filter: f('last_name', 'text', 'Contains', 'LOVE') }))).toEqual(['Lovelace']);
      expect(await users(q({ filter: f('last_name', 'text', 'Contains', '%') }))).toEqual(['50%_off']);
      expect(await users(q({ filter: f('last_name', 'text', 'Contains', '_') }))).toEqual(['50%_off']);
      expect(await users(q({ filter: f('last_name', 'text', 'Contains', '0%_o') }))).toEqual(['50%_off']);
      expect(await users(q({ filter: f('last_name', 'text', 'Contains', '\\') }))).toEqual(['a\\b']);
      expect(await users(q({ filter: f('last_name', 'text', 'Contains', 'x%') }))).toEqual([]);
      expect((await users(q({ filter: f('email', 'text', 'Contains', '@A.EX') }))).length).toBe(6);
    });

    it('integer operators compare numerically; Contains matches the text form', async () => {
      const { lovelace, turing, percent, late } = fx.users;
      expect(await users(q({ filter: f('status', 'integer', 'Equal', 0) }))).toEqual(['Turing']);
      expect((await users(q({ filter: f('status', 'integer', 'NotEqual', 0) }))).length).toBe(5);
      expect(await users(q({ filter: f('id', 'integer', 'GreaterThan', percent.id) }))).toEqual(['50xyoff', 'a\\b', 'Zuse']);
      expect(await users(q({ filter: f('id', 'integer', 'GreaterThanOrEqual', late.id) }))).toEqual(['Zuse']);
      expect(await users(q({ filter: f('id', 'integer', 'LessThan', turing.id) }))).toEqual(['Lovelace']);
      expect(await users(q({ filter: f('id', 'integer', 'LessThanOrEqual', turing.id) }))).toEqual(['Lovelace', 'Turing']);
      expect(await users(q({ filter: f('department_id', 'integer', 'Equal', fx.sales.id) }))).toEqual(['Turing']);
      expect(await users(q({ filter: f('department_id', 'integer', 'NotEqual', fx.sales.id) }))).toEqual(['Lovelace']);
      expect(await users(q({ filter: f('department_id', 'integer', 'IsNull') }))).toEqual(['50%_off', '50xyoff', 'a\\b', 'Zuse']);
      expect(await users(q({ filter: f('department_id', 'integer', 'NotNull') }))).toEqual(['Lovelace', 'Turing']);
      expect(await users(q({ filter: f('id', 'integer', 'Contains', String(lovelace.id)) }))).toContain('Lovelace');
      // Ids 10 and above compare numerically, not as text ("10" < "9" as text).
      const many: User[] = [];
      for (let i = 0; i < 12; i++) many.push(await store.users.insert(fx.a, { first_name: 'N', last_name: `N${i}`, email: `n${i}@a.example` }));
      const nine = many.find((u) => u.id === 9)!;
      expect(await users(q({ filter: f('id', 'integer', 'GreaterThan', 9) }))).not.toContain(nine.last_name);
      expect((await users(q({ filter: f('id', 'integer', 'GreaterThan', 9) }))).length).toBe(many.filter((u) => u.id > 9).length);
      expect((await users(q({ filter: f('id', 'integer', 'Contains', '1'), page_size: 100 }))).length).toBe(
        [...Object.values(fx.users), ...many].filter((u) => String(u.id).includes('1') && !u.deleted_at).length,
      );
    });

    it('date operators compare instants; Contains matches the ISO text', async () => {
      expect(await users(q({ filter: f('created_at', 'date', 'Equal', '2025-01-03T00:00:00.000Z') }))).toEqual(['50%_off', '50xyoff']);
      expect(await users(q({ filter: f('created_at', 'date', 'NotEqual', '2025-01-03T00:00:00.000Z') }))).toEqual(['Lovelace', 'Turing', 'a\\b', 'Zuse']);
      expect(await users(q({ filter: f('created_at', 'date', 'GreaterThan', '2025-01-03T00:00:00.000Z') }))).toEqual(['a\\b', 'Zuse']);
      expect(await users(q({ filter: f('created_at', 'date', 'GreaterThanOrEqual', '2025-01-04T12:00:00.000Z') }))).toEqual(['a\\b', 'Zuse']);
      expect(await users(q({ filter: f('created_at', 'date', 'LessThan', '2025-01-02T00:00:00.000Z') }))).toEqual(['Lovelace']);
      expect(await users(q({ filter: f('created_at', 'date', 'LessThanOrEqual', '2025-01-02T00:00:00.000Z') }))).toEqual(['Lovelace', 'Turing']);
      expect(await users(q({ filter: f('created_at', 'date', 'Contains', '2025-01-04T12') }))).toEqual(['a\\b']);
      expect(await users(q({ filter: f('deleted_at', 'date', 'NotNull') }))).toEqual([]);
      expect(await users(q({ filter: f('deleted_at', 'date', 'NotNull'), with_trashed: true }))).toEqual(['Hopper']);
      expect((await users(q({ filter: f('deleted_at', 'date', 'IsNull'), with_trashed: true }))).length).toBe(6);
    });

    it('date ranges leave out NULL stamps and trashed rows, whichever side of the instant holds more rows', async () => {
      const listed = async (attribute: string, operator: Operator, value: string, with_trashed = false) => {
        const { rows, total } = await store.users.list(fx.a, q({ filter: f(attribute, 'date', operator, value), with_trashed }));
        return { names: rows.map((r) => r.last_name), total };
      };
      const hopper = { names: ['Hopper'], total: 1 };
      const none = { names: [], total: 0 };
      // deleted_at is NULL on every live row
      expect(await listed('deleted_at', 'GreaterThan', '2025-01-01T00:00:00.000Z', true)).toEqual(hopper);
      expect(await listed('deleted_at', 'LessThan', '2026-01-01T00:00:00.000Z', true)).toEqual(hopper);
      expect(await listed('deleted_at', 'GreaterThanOrEqual', '2025-02-01T00:00:00.000Z', true)).toEqual(hopper);
      expect(await listed('deleted_at', 'LessThanOrEqual', '2025-02-01T00:00:00.000Z', true)).toEqual(hopper);
      expect(await listed('deleted_at', 'LessThan', '2025-02-01T00:00:00.000Z', true)).toEqual(none);
      expect(await listed('deleted_at', 'LessThan', '2026-01-01T00:00:00.000Z')).toEqual(none);
      expect(await listed('deleted_at', 'GreaterThan', '2020-01-01T00:00:00.000Z')).toEqual(none);
      // Hopper (created 2025-01-05) is trashed
      expect(await listed('created_at', 'GreaterThan', '2024-12-31T00:00:00.000Z')).toEqual({ names: ['Lovelace', 'Turing', '50%_off', '50xyoff', 'a\\b', 'Zuse'], total: 6 });
      expect(await listed('created_at', 'GreaterThan', '2025-01-01T00:00:00.000Z', true)).toEqual({ names: ['Turing', '50%_off', '50xyoff', 'a\\b', 'Hopper', 'Zuse'], total: 6 });
      expect(await listed('created_at', 'LessThan', '2025-01-06T00:00:00.000Z', true)).toEqual({ names: ['Lovelace', 'Turing', '50%_off', '50xyoff', 'a\\b', 'Hopper'], total: 6 });
      expect(await listed('created_at', 'LessThanOrEqual', '2025-01-06T00:00:00.000Z')).toEqual({ names: ['Lovelace', 'Turing', '50%_off', '50xyoff', 'a\\b', 'Zuse'], total: 6 });
      expect(await listed('created_at', 'GreaterThanOrEqual', '2025-01-07T00:00:00.000Z', true)).toEqual(none);
    });

    it('with_trashed includes soft-deleted rows; the default excludes them', async () => {
      expect(await users()).not.toContain('Hopper');
      expect(await users(q({ with_trashed: true }))).toContain('Hopper');
      expect((await store.users.list(fx.a, q({ with_trashed: true }))).total).toBe(7);
      expect(await customers()).toEqual(['Emma', 'Mia', 'Noah']);
      expect(await customers(q({ with_trashed: true }))).toEqual(['Emma', 'Mia', 'Noah', 'Gone']);
    });

    it('orders both ways; nulls first ascending and last descending; ties by id in the same direction', async () => {
      const { lovelace, turing, percent, plain, backslash, late } = fx.users;
      const ids = async (dir: 'asc' | 'desc', by: string) => (await store.users.list(fx.a, q({ order_by: by, order_direction: dir }))).rows.map((r) => r.id);
      expect(await ids('asc', 'timezone')).toEqual([turing.id, late.id, percent.id, lovelace.id, plain.id, backslash.id]);
      expect(await ids('desc', 'timezone')).toEqual([backslash.id, plain.id, lovelace.id, percent.id, late.id, turing.id]);
      expect(await ids('asc', 'first_name')).toEqual([lovelace.id, turing.id, late.id, percent.id, plain.id, backslash.id]);
      expect(await ids('desc', 'created_at')).toEqual([late.id, backslash.id, plain.id, percent.id, turing.id, lovelace.id]);
      expect(await ids('desc', 'id')).toEqual([late.id, backslash.id, plain.id, percent.id, turing.id, lovelace.id]);
    });

    it('pages never overlap or skip, with ties, in both directions', async () => {
      for (let i = 0; i < 23; i++) await store.users.insert(fx.a, { first_name: i % 2 ? 'Sam' : 'sam', last_name: `S${i}`, email: `s${i}@a.example`, status: i % 3 === 0 ? 0 : 1 });
      for (const order_by of ['first_name', 'status', 'timezone', 'created_at']) {
        for (const order_direction of ['asc', 'desc'] as const) {
          const all = (await store.users.list(fx.a, q({ order_by, order_direction }))).rows.map((r) => r.id);
          const paged: number[] = [];
          for (let page = 1; page <= 6; page++) paged.push(...(await store.users.list(fx.a, q({ order_by, order_direction, page_size: 5, page_number: page }))).rows.map((r) => r.id));
          expect(paged).toEqual(all);
          expect(new Set(paged).size).toBe(29);
        }
      }
    });

    it('reports the exact total and answers empty pages past the end', async () => {
      const page = await store.users.list(fx.a, q({ page_size: 4, page_number: 2 }));
      expect(page.total).toBe(6);
      expect(page.rows.map((r) => r.last_name)).toEqual(['a\\b', 'Zuse']);
      expect(await store.users.list(fx.a, q({ page_size: 4, page_number: 3 }))).toEqual({ rows: [], total: 6 });
      expect(await store.users.list(fx.a, q({ filter: f('last_name', 'text', 'Equal', 'nobody') }))).toEqual({ rows: [], total: 0 });
      expect((await store.customers.list(fx.a, q({ page_size: 2, page_number: 2 }))).total).toBe(3);
    });

    it('derived user attributes: department is the department name; name and department_name in rows', async () => {
      expect(await users(q({ filter: f('department', 'text', 'Equal', 'ENGINEERING') }))).toEqual(['Lovelace']);
      expect(await users(q({ filter: f('department', 'text', 'Contains', 'ale') }))).toEqual(['Turing']);
      expect((await users(q({ filter: f('department', 'text', 'IsNull') }))).length).toBe(4);
      expect((await store.users.list(fx.a, q({ filter: f('department', 'text', 'IsNull') }))).total).toBe(4);
      const row = (await store.users.list(fx.a, q({ page_size: 1 }))).rows[0];
      expect(row).toMatchObject({ name: 'Ada Lovelace', department_name: 'Engineering', status: 1, avatar_url: null, role: 'Admin' });
    });

    it('derived customer attributes: address and city_country skip empty parts', async () => {
      expect(await customers(q({ filter: f('address', 'text', 'Equal', 'unter den linden 1, berlin, berlin, 10117, germany') }))).toEqual(['Emma']);
      expect(await customers(q({ filter: f('address', 'text', 'Equal', 'Paris, France') }))).toEqual(['Mia']);
      expect(await customers(q({ filter: f('address', 'text', 'Contains', 'BERLIN') }))).toEqual(['Emma']);
      expect(await customers(q({ filter: f('address', 'text', 'IsNull') }))).toEqual(['Noah']);
      expect(await customers(q({ filter: f('city_country', 'text', 'Equal', 'berlin, germany') }))).toEqual(['Emma']);
      expect(await customers(q({ filter: f('city_country', 'text', 'Equal', 'berlin, germany'), with_trashed: true }))).toEqual(['Emma', 'Gone']);
      expect(await customers(q({ order_by: 'city_country' }))).toEqual(['Noah', 'Emma', 'Mia']);
      expect(await customers(q({ order_by: 'address', order_direction: 'desc' }))).toEqual(['Emma', 'Mia', 'Noah']);
      expect(await customers(q({ filter: f('middle_name', 'text', 'NotEqual', 'x') }))).toEqual(['Emma']);
      expect(await customers(q({ filter: f('contact_number', 'text', 'Contains', '+49') }))).toEqual(['Noah']);
    });

    it('text folds ASCII case only and orders by code point, whatever the locale', async () => {
      await store.customers.insert(fx.a, { first_name: 'Zed', last_name: 'Zed', email: 'zed@c.example' });
      await store.customers.insert(fx.a, { first_name: 'Ötzi', last_name: 'Ötzi', email: 'oetzi@c.example' });
      await store.customers.insert(fx.a, { first_name: 'émile', last_name: 'Émile', email: 'emile@c.example' });
      expect(await customers(q({ filter: f('last_name', 'text', 'Equal', 'MüLLER') }))).toEqual(['Emma']);
      expect(await customers(q({ filter: f('last_name', 'text', 'Equal', 'MÜLLER') }))).toEqual([]);
      expect(await customers(q({ filter: f('last_name', 'text', 'Contains', 'ÜLL') }))).toEqual([]);
      expect(await customers(q({ filter: f('first_name', 'text', 'Equal', 'ÉMILE') }))).toEqual([]);
      expect(await customers(q({ filter: f('first_name', 'text', 'Equal', 'éMILE') }))).toEqual(['émile']);
      // Code point order after folding ASCII: z < É (U+00C9) < Ö (U+00D6) < é (U+00E9); a locale would sort them among the e and o.
      expect(await customers(q({ order_by: 'last_name' }))).toEqual(['Mia', 'Emma', 'Noah', 'Zed', 'émile', 'Ötzi']);
      expect(await customers(q({ order_by: 'first_name' }))).toEqual(['Emma', 'Mia', 'Noah', 'Zed', 'Ötzi', 'émile']);
      expect(await customers(q({ filter: f('last_name', 'text', 'GreaterThan', 'zzz') }))).toEqual(['Ötzi', 'émile']);
    });

    it('scopes lists to the tenant', async () => {
      expect((await store.users.list(fx.b, q())).rows.map((r) => r.last_name)).toEqual(['Other']);
      expect((await store.customers.list(fx.b, q())).total).toBe(1);
      expect(await users(q({ filter: f('last_name', 'text', 'Equal', 'Other') }))).toEqual([]);
    });
  });
}
