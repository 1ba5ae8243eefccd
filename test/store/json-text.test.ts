import { describe, expect, it } from 'vitest';
import type { ListQuery, WorkHours } from '../../src/contract/index.js';
import { openStore } from '../../src/store/index.js';
import { jsonInt, jsonStored, jsonText } from '../../src/store/json-text.js';

const page: ListQuery = { page_size: 100, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null };

/** Text that JSON.stringify must escape or may pass through: quotes, backslashes, control characters, U+2028, astral unicode. */
const TRICKY = 'Zoë "Q" \\ back\\slash\t\n\r\b\f\u0000\u001f\u007f\u2028\u2029 €😀 <tag>&\'';

const HOURS: WorkHours = {
  sunday: [],
  monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 30, second: 59 } }],
  tuesday: [],
  wednesday: [],
  thursday: [],
  friday: [{ start: { hour: 0, minute: 0, second: 0 }, end: { hour: 23, minute: 59, second: 59 } }],
  saturday: [],
};

describe('JSON pieces', () => {
  it('write what JSON.stringify writes', () => {
    for (const v of [TRICKY, '', 'plain', null]) expect(jsonText(v)).toBe(JSON.stringify(v));
    for (const v of [0, 1, 42, Number.MAX_SAFE_INTEGER, -7, null]) expect(jsonInt(v)).toBe(JSON.stringify(v));
    expect(jsonStored(JSON.stringify(HOURS))).toBe(JSON.stringify(HOURS));
    expect(jsonStored(null)).toBe('null');
  });
});

describe('users as JSON text', () => {
  /** A tenant with users covering every column kind: nulls, a department, a role, work hours, escapes, a deleted user. */
  function seeded() {
    const store = openStore(':memory:');
    const t = store.tenants.create('a.test');
    const dept = store.departments.create(t.id, `Dépt ${TRICKY}`);
    store.roles.create(t.id, 'rôle "x"');
    store.users.insert(t.id, { first_name: 'A', last_name: 'Plain', email: 'a@example.com' });
    store.users.insert(t.id, {
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
    store.users.insert(t.id, { first_name: 'C', last_name: 'Gone', email: 'c@example.com', deleted_at: '2024-01-02T03:04:05.678Z' });
    return { store, tenantId: t.id };
  }

  it('list rows are byte for byte JSON.stringify of the list objects', () => {
    const { store, tenantId } = seeded();
    const objects = store.users.list(tenantId, page);
    const texts = store.users.listJson(tenantId, page);
    expect(texts.total).toBe(3);
    expect(texts.rows).toEqual(objects.rows.map((u) => JSON.stringify(u)));
    expect(JSON.parse(texts.rows[1]).work_hours).toEqual(HOURS);
    const filtered: ListQuery = { ...page, with_trashed: false, filter: { attribute: 'status', type: 'integer', operator: 'Equal', value: 0 } };
    expect(store.users.listJson(tenantId, filtered)).toEqual({ rows: [JSON.stringify(store.users.get(tenantId, 2))], total: 1 });
  });

  it('get is byte for byte JSON.stringify of get, and undefined where get is', () => {
    const { store, tenantId } = seeded();
    for (const id of [1, 2]) expect(store.users.getJson(tenantId, id)).toBe(JSON.stringify(store.users.get(tenantId, id)));
    expect(store.users.getJson(tenantId, 3)).toBeUndefined();
    expect(store.users.getJson(tenantId + 1, 1)).toBeUndefined();
  });

  it('after an update, the list still returns objects (raw mode does not leak into the shared statement)', () => {
    const { store, tenantId } = seeded();
    store.users.listJson(tenantId, page);
    store.users.update(tenantId, 1, { work_hours: HOURS });
    const [first] = store.users.list(tenantId, page).rows;
    expect(first.work_hours).toEqual(HOURS);
    expect(store.users.listJson(tenantId, page).rows[0]).toBe(JSON.stringify(first));
  });
});
