import { describe, expect, it } from 'vitest';
import type { ListQuery, WorkHours } from '../../../src/contract/index.js';
import type { DataStore } from '../../../src/store/port.js';
import { eachStore, type StoreFactory } from './fixtures.js';

const page: ListQuery = { page_size: 100, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null };

/** Text that JSON.stringify must escape or may pass through: quotes, backslashes, control characters, U+2028, astral unicode. */
export const TRICKY = 'Zoë "Q" \\ back\\slash\t\n\r\b\f\u0001\u001f\u007f\u2028\u2029 €😀 <tag>&\'';

const HOURS: WorkHours = {
  sunday: [],
  monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 30, second: 59 } }],
  tuesday: [],
  wednesday: [],
  thursday: [],
  friday: [{ start: { hour: 0, minute: 0, second: 0 }, end: { hour: 23, minute: 59, second: 59 } }],
  saturday: [],
};

/** Users as JSON text written by the database (the hot GET and list paths): byte for byte `JSON.stringify` of the objects. */
export function jsonContract(factory: StoreFactory) {
  describe(`${factory.name}: users as JSON text`, () => {
    let store: DataStore;
    let tenantId: number;
    /** Users covering every column kind: nulls, a department, a role, work hours, escapes, a deleted user. */
    eachStore(factory, async (s) => {
      store = s;
      tenantId = (await store.tenants.create('a.test')).id;
      const dept = await store.departments.create(tenantId, `Dépt ${TRICKY}`);
      await store.roles.create(tenantId, 'rôle "x"');
      await store.users.insert(tenantId, { first_name: 'A', last_name: 'Plain', email: 'a@example.com' });
      await store.users.insert(tenantId, {
        first_name: TRICKY,
        last_name: '😀',
        email: 'b@example.com',
        department_id: dept.id,
        timezone: 'Europe/Zürich',
        work_hours: HOURS,
        role: 'rôle "x"',
        status: 0,
        avatar_url: 'https://example.com/a?b=1&c="2"',
      });
      await store.users.insert(tenantId, { first_name: 'C', last_name: 'Gone', email: 'c@example.com', deleted_at: '2024-01-02T03:04:05.678Z' });
    });

    it('list rows are byte for byte JSON.stringify of the list objects', async () => {
      const objects = await store.users.list(tenantId, page);
      const texts = await store.users.listJson(tenantId, page);
      expect(texts.total).toBe(3);
      expect(texts.rows).toEqual(objects.rows.map((u) => JSON.stringify(u)));
      expect(JSON.parse(texts.rows[1]).work_hours).toEqual(HOURS);
      const filtered: ListQuery = { ...page, with_trashed: false, filter: { attribute: 'status', type: 'integer', operator: 'Equal', value: 0 } };
      expect(await store.users.listJson(tenantId, filtered)).toEqual({ rows: [JSON.stringify(await store.users.get(tenantId, 2))], total: 1 });
    });

    it('get is byte for byte JSON.stringify of get, and undefined where get is', async () => {
      for (const id of [1, 2]) expect(await store.users.getJson(tenantId, id)).toBe(JSON.stringify(await store.users.get(tenantId, id)));
      expect(await store.users.getJson(tenantId, 3)).toBeUndefined();
      expect(await store.users.getJson(tenantId + 1, 1)).toBeUndefined();
    });

    it('gets asked for together each answer their own user, or undefined', async () => {
      const other = (await store.tenants.create('b.test')).id;
      await store.users.insert(other, { first_name: 'B', last_name: 'Other', email: 'a@example.com' });
      const asked: Array<[number, number]> = [[tenantId, 2], [tenantId, 1], [tenantId, 2], [tenantId, 3], [tenantId, 99], [other, 4], [other, 1], [tenantId, 4]];
      const answers = await Promise.all(asked.map(([t, id]) => store.users.getJson(t, id)));
      const expected = await Promise.all(asked.map(async ([t, id]) => {
        const user = await store.users.get(t, id);
        return user && JSON.stringify(user);
      }));
      expect(answers).toEqual(expected);
      expect(answers.map((a) => a && JSON.parse(a).first_name)).toEqual([TRICKY, 'A', TRICKY, undefined, undefined, 'B', undefined, undefined]);
    });

    it('the stored text follows an update of each of the user fields, to values and back to null', async () => {
      const dept = await store.departments.create(tenantId, 'Second');
      await store.roles.create(tenantId, 'other');
      await store.users.update(tenantId, 1, { first_name: TRICKY, last_name: 'Ümlaut', email: 'new@example.com', timezone: 'UTC', department_id: dept.id, role: 'other', work_hours: HOURS });
      const updated = await store.users.get(tenantId, 1);
      expect(updated).toMatchObject({ first_name: TRICKY, name: `${TRICKY} Ümlaut`, department_name: 'Second', role: 'other' });
      expect(await store.users.getJson(tenantId, 1)).toBe(JSON.stringify(updated));
      await store.users.update(tenantId, 2, { department_id: null, role: null, work_hours: null });
      expect(await store.users.getJson(tenantId, 2)).toBe(JSON.stringify(await store.users.get(tenantId, 2)));
      const texts = await store.users.listJson(tenantId, page);
      expect(texts.rows).toEqual((await store.users.list(tenantId, page)).rows.map((u) => JSON.stringify(u)));
    });

    it('a list ordered by department joins it; one filtered by department reads no join and still matches', async () => {
      const byDept: ListQuery = { ...page, order_by: 'department', order_direction: 'desc' };
      expect((await store.users.listJson(tenantId, byDept)).rows).toEqual((await store.users.list(tenantId, byDept)).rows.map((u) => JSON.stringify(u)));
      const inDept: ListQuery = { ...page, filter: { attribute: 'department', type: 'text', operator: 'Contains', value: 'Dépt' } };
      expect((await store.users.listJson(tenantId, inDept)).rows).toEqual([JSON.stringify(await store.users.get(tenantId, 2))]);
    });

    it('after JSON text and an update, the object list still matches it', async () => {
      await store.users.listJson(tenantId, page);
      await store.users.update(tenantId, 1, { work_hours: HOURS });
      const [first] = (await store.users.list(tenantId, page)).rows;
      expect(first.work_hours).toEqual(HOURS);
      expect((await store.users.listJson(tenantId, page)).rows[0]).toBe(JSON.stringify(first));
    });
  });
}
