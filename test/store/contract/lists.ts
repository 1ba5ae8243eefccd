import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import { f, fixture, q, type Fixture, type StoreFactory } from './fixtures.js';

/** List queries: every operator on text, integer and date attributes, ordering, paging, derived attributes. */
export function listContract(factory: StoreFactory) {
  describe(`${factory.name}: list queries`, () => {
    let store: Store;
    let fx: Fixture;
    beforeEach(() => {
      store = factory.create();
      fx = fixture(store);
      return () => store.close();
    });
    const users = (query = q()) => store.users.list(fx.a, query).rows.map((r) => r.last_name);
    const customers = (query = q()) => store.customers.list(fx.a, query).rows.map((r) => r.first_name);

    it('text Equal/NotEqual fold ASCII case; NotEqual does not match NULL', () => {
      expect(users(q({ filter: f('last_name', 'text', 'Equal', 'LOVELACE') }))).toEqual(['Lovelace']);
      expect(users(q({ filter: f('email', 'text', 'Equal', 'alan@A.EXAMPLE') }))).toEqual(['Turing']);
      expect(users(q({ filter: f('timezone', 'text', 'Equal', 'EUROPE/london') }))).toEqual(['Lovelace', '50xyoff']);
      // Turing and Zuse have no timezone: NotEqual leaves them out.
      expect(users(q({ filter: f('timezone', 'text', 'NotEqual', 'europe/london') }))).toEqual(['50%_off', 'a\\b']);
    });

    it('text ordering operators compare case-insensitively', () => {
      expect(users(q({ filter: f('last_name', 'text', 'GreaterThan', 'm') }))).toEqual(['Turing', 'Zuse']);
      expect(users(q({ filter: f('last_name', 'text', 'GreaterThanOrEqual', 'TURING') }))).toEqual(['Turing', 'Zuse']);
      expect(users(q({ filter: f('last_name', 'text', 'LessThan', 'a') }))).toEqual(['50%_off', '50xyoff']);
      expect(users(q({ filter: f('last_name', 'text', 'LessThanOrEqual', 'A\\B') }))).toEqual(['50%_off', '50xyoff', 'a\\b']);
    });

    it('Contains is a case-insensitive substring match with %, _ and \\ literal', () => {
      expect(users(q({ filter: f('last_name', 'text', 'Contains', 'LOVE') }))).toEqual(['Lovelace']);
      expect(users(q({ filter: f('last_name', 'text', 'Contains', '%') }))).toEqual(['50%_off']);
      expect(users(q({ filter: f('last_name', 'text', 'Contains', '_') }))).toEqual(['50%_off']);
      expect(users(q({ filter: f('last_name', 'text', 'Contains', '0%_o') }))).toEqual(['50%_off']);
      expect(users(q({ filter: f('last_name', 'text', 'Contains', '\\') }))).toEqual(['a\\b']);
      expect(users(q({ filter: f('last_name', 'text', 'Contains', 'x%') }))).toEqual([]);
      expect(users(q({ filter: f('email', 'text', 'Contains', '@A.EX') })).length).toBe(6);
    });

    it('integer operators compare numerically; Contains matches the text form', () => {
      const { lovelace, turing, percent, late } = fx.users;
      expect(users(q({ filter: f('status', 'integer', 'Equal', 0) }))).toEqual(['Turing']);
      expect(users(q({ filter: f('status', 'integer', 'NotEqual', 0) })).length).toBe(5);
      expect(users(q({ filter: f('id', 'integer', 'GreaterThan', percent.id) }))).toEqual(['50xyoff', 'a\\b', 'Zuse']);
      expect(users(q({ filter: f('id', 'integer', 'GreaterThanOrEqual', late.id) }))).toEqual(['Zuse']);
      expect(users(q({ filter: f('id', 'integer', 'LessThan', turing.id) }))).toEqual(['Lovelace']);
      expect(users(q({ filter: f('id', 'integer', 'LessThanOrEqual', turing.id) }))).toEqual(['Lovelace', 'Turing']);
      expect(users(q({ filter: f('department_id', 'integer', 'Equal', fx.sales.id) }))).toEqual(['Turing']);
      expect(users(q({ filter: f('department_id', 'integer', 'NotEqual', fx.sales.id) }))).toEqual(['Lovelace']);
      expect(users(q({ filter: f('department_id', 'integer', 'IsNull') }))).toEqual(['50%_off', '50xyoff', 'a\\b', 'Zuse']);
      expect(users(q({ filter: f('department_id', 'integer', 'NotNull') }))).toEqual(['Lovelace', 'Turing']);
      expect(users(q({ filter: f('id', 'integer', 'Contains', String(lovelace.id)) }))).toContain('Lovelace');
      // Ids 10 and above compare numerically, not as text ("10" < "9" as text).
      const many = Array.from({ length: 12 }, (_, i) => store.users.insert(fx.a, { first_name: 'N', last_name: `N${i}`, email: `n${i}@a.example` }));
      const nine = many.find((u) => u.id === 9)!;
      expect(users(q({ filter: f('id', 'integer', 'GreaterThan', 9) }))).not.toContain(nine.last_name);
      expect(users(q({ filter: f('id', 'integer', 'GreaterThan', 9) })).length).toBe(many.filter((u) => u.id > 9).length);
      expect(users(q({ filter: f('id', 'integer', 'Contains', '1'), page_size: 100 })).length).toBe(
        [...Object.values(fx.users), ...many].filter((u) => String(u.id).includes('1') && !u.deleted_at).length,
      );
    });

    it('date operators compare instants; Contains matches the ISO text', () => {
      expect(users(q({ filter: f('created_at', 'date', 'Equal', '2025-01-03T00:00:00.000Z') }))).toEqual(['50%_off', '50xyoff']);
      expect(users(q({ filter: f('created_at', 'date', 'NotEqual', '2025-01-03T00:00:00.000Z') }))).toEqual(['Lovelace', 'Turing', 'a\\b', 'Zuse']);
      expect(users(q({ filter: f('created_at', 'date', 'GreaterThan', '2025-01-03T00:00:00.000Z') }))).toEqual(['a\\b', 'Zuse']);
      expect(users(q({ filter: f('created_at', 'date', 'GreaterThanOrEqual', '2025-01-04T12:00:00.000Z') }))).toEqual(['a\\b', 'Zuse']);
      expect(users(q({ filter: f('created_at', 'date', 'LessThan', '2025-01-02T00:00:00.000Z') }))).toEqual(['Lovelace']);
      expect(users(q({ filter: f('created_at', 'date', 'LessThanOrEqual', '2025-01-02T00:00:00.000Z') }))).toEqual(['Lovelace', 'Turing']);
      expect(users(q({ filter: f('created_at', 'date', 'Contains', '2025-01-04T12') }))).toEqual(['a\\b']);
      expect(users(q({ filter: f('deleted_at', 'date', 'NotNull') }))).toEqual([]);
      expect(users(q({ filter: f('deleted_at', 'date', 'NotNull'), with_trashed: true }))).toEqual(['Hopper']);
      expect(users(q({ filter: f('deleted_at', 'date', 'IsNull'), with_trashed: true })).length).toBe(6);
    });

    it('with_trashed includes soft-deleted rows; the default excludes them', () => {
      expect(users()).not.toContain('Hopper');
      expect(users(q({ with_trashed: true }))).toContain('Hopper');
      expect(store.users.list(fx.a, q({ with_trashed: true })).total).toBe(7);
      expect(customers()).toEqual(['Emma', 'Mia', 'Noah']);
      expect(customers(q({ with_trashed: true }))).toEqual(['Emma', 'Mia', 'Noah', 'Gone']);
    });

    it('orders both ways; nulls first ascending and last descending; ties by id in the same direction', () => {
      const { lovelace, turing, percent, plain, backslash, late } = fx.users;
      const ids = (dir: 'asc' | 'desc', by: string) => store.users.list(fx.a, q({ order_by: by, order_direction: dir })).rows.map((r) => r.id);
      expect(ids('asc', 'timezone')).toEqual([turing.id, late.id, percent.id, lovelace.id, plain.id, backslash.id]);
      expect(ids('desc', 'timezone')).toEqual([backslash.id, plain.id, lovelace.id, percent.id, late.id, turing.id]);
      expect(ids('asc', 'first_name')).toEqual([lovelace.id, turing.id, late.id, percent.id, plain.id, backslash.id]);
      expect(ids('desc', 'created_at')).toEqual([late.id, backslash.id, plain.id, percent.id, turing.id, lovelace.id]);
      expect(ids('desc', 'id')).toEqual([late.id, backslash.id, plain.id, percent.id, turing.id, lovelace.id]);
    });

    it('pages never overlap or skip, with ties, in both directions', () => {
      for (let i = 0; i < 23; i++) store.users.insert(fx.a, { first_name: i % 2 ? 'Sam' : 'sam', last_name: `S${i}`, email: `s${i}@a.example`, status: i % 3 === 0 ? 0 : 1 });
      for (const order_by of ['first_name', 'status', 'timezone', 'created_at']) {
        for (const order_direction of ['asc', 'desc'] as const) {
          const all = store.users.list(fx.a, q({ order_by, order_direction })).rows.map((r) => r.id);
          const paged: number[] = [];
          for (let page = 1; page <= 6; page++) paged.push(...store.users.list(fx.a, q({ order_by, order_direction, page_size: 5, page_number: page })).rows.map((r) => r.id));
          expect(paged).toEqual(all);
          expect(new Set(paged).size).toBe(29);
        }
      }
    });

    it('reports the exact total and answers empty pages past the end', () => {
      const page = store.users.list(fx.a, q({ page_size: 4, page_number: 2 }));
      expect(page.total).toBe(6);
      expect(page.rows.map((r) => r.last_name)).toEqual(['a\\b', 'Zuse']);
      expect(store.users.list(fx.a, q({ page_size: 4, page_number: 3 }))).toEqual({ rows: [], total: 6 });
      expect(store.users.list(fx.a, q({ filter: f('last_name', 'text', 'Equal', 'nobody') }))).toEqual({ rows: [], total: 0 });
      expect(store.customers.list(fx.a, q({ page_size: 2, page_number: 2 })).total).toBe(3);
    });

    it('derived user attributes: department is the department name; name and department_name in rows', () => {
      expect(users(q({ filter: f('department', 'text', 'Equal', 'ENGINEERING') }))).toEqual(['Lovelace']);
      expect(users(q({ filter: f('department', 'text', 'Contains', 'ale') }))).toEqual(['Turing']);
      expect(users(q({ filter: f('department', 'text', 'IsNull') })).length).toBe(4);
      expect(store.users.list(fx.a, q({ filter: f('department', 'text', 'IsNull') })).total).toBe(4);
      const row = store.users.list(fx.a, q({ page_size: 1 })).rows[0];
      expect(row).toMatchObject({ name: 'Ada Lovelace', department_name: 'Engineering', status: 1, avatar_url: null, role: 'Admin' });
    });

    it('derived customer attributes: address and city_country skip empty parts', () => {
      expect(customers(q({ filter: f('address', 'text', 'Equal', 'unter den linden 1, berlin, berlin, 10117, germany') }))).toEqual(['Emma']);
      expect(customers(q({ filter: f('address', 'text', 'Equal', 'Paris, France') }))).toEqual(['Mia']);
      expect(customers(q({ filter: f('address', 'text', 'Contains', 'BERLIN') }))).toEqual(['Emma']);
      expect(customers(q({ filter: f('address', 'text', 'IsNull') }))).toEqual(['Noah']);
      expect(customers(q({ filter: f('city_country', 'text', 'Equal', 'berlin, germany') }))).toEqual(['Emma']);
      expect(customers(q({ filter: f('city_country', 'text', 'Equal', 'berlin, germany'), with_trashed: true }))).toEqual(['Emma', 'Gone']);
      expect(customers(q({ order_by: 'city_country' }))).toEqual(['Noah', 'Emma', 'Mia']);
      expect(customers(q({ order_by: 'address', order_direction: 'desc' }))).toEqual(['Emma', 'Mia', 'Noah']);
      expect(customers(q({ filter: f('middle_name', 'text', 'NotEqual', 'x') }))).toEqual(['Emma']);
      expect(customers(q({ filter: f('contact_number', 'text', 'Contains', '+49') }))).toEqual(['Noah']);
    });

    it('scopes lists to the tenant', () => {
      expect(store.users.list(fx.b, q()).rows.map((r) => r.last_name)).toEqual(['Other']);
      expect(store.customers.list(fx.b, q()).total).toBe(1);
      expect(users(q({ filter: f('last_name', 'text', 'Equal', 'Other') }))).toEqual([]);
    });
  });
}
