import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ListQuery, WorkHours } from '../../src/contract/index.js';
import { openStore } from '../../src/store/index.js';

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

describe('json_quote, which writes users as JSON text in SQL', () => {
  it('escapes every code point exactly as JSON.stringify does', () => {
    const db = new Database(':memory:');
    const quote = db.prepare('SELECT json_quote(?)').pluck();
    const differing: number[] = [];
    for (let c = 0; c < 0x110000; c += c < 0x10000 ? 1 : 0x3f) {
      if (c >= 0xd800 && c < 0xe000) continue; // lone surrogates cannot be stored (UTF-8)
      const text = `a${String.fromCodePoint(c)}b`;
      if (quote.get(text) !== JSON.stringify(text)) differing.push(c);
    }
    expect(differing).toEqual([]);
    expect(quote.get(TRICKY)).toBe(JSON.stringify(TRICKY));
    // Integers as INTEGER columns hold them (better-sqlite3 binds a JS number as a REAL).
    const quoteInt = db.prepare('SELECT json_quote(CAST(? AS INTEGER))').pluck();
    for (const v of [null, 0, 42, Number.MAX_SAFE_INTEGER, -7]) expect(quoteInt.get(v)).toBe(JSON.stringify(v));
    db.close();
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

  it('after JSON text and an update, the object list still matches it', () => {
    const { store, tenantId } = seeded();
    store.users.listJson(tenantId, page);
    store.users.update(tenantId, 1, { work_hours: HOURS });
    const [first] = store.users.list(tenantId, page).rows;
    expect(first.work_hours).toEqual(HOURS);
    expect(store.users.listJson(tenantId, page).rows[0]).toBe(JSON.stringify(first));
  });
});
