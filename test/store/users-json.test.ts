import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate, SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { toUser, USER_FROM, USER_SELECT, type UserRow } from '../../src/store/rows/users.js';

/** Text that JSON.stringify must escape or may pass through: quotes, backslashes, control characters, U+2028, astral unicode. */
const TRICKY = 'Zoë "Q" \\ back\\slash\t\n\r\b\f\u0000\u001f\u007f\u2028\u2029 €😀 <tag>&\'';

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

describe("users' stored JSON text (migration 8)", () => {
  const expectedOf = (db: Database.Database, id: number) => {
    const r = db.prepare(`SELECT ${USER_SELECT} FROM ${USER_FROM} WHERE u.id = ?`).get(id) as UserRow;
    return JSON.stringify(toUser(r));
  };
  const stored = (db: Database.Database, id: number) => db.prepare('SELECT json FROM users WHERE id = ?').pluck().get(id);

  it('fills the column of the users a version-7 database holds, and keeps it on inserts, updates and department renames', () => {
    const db = new Database(':memory:');
    for (const m of MIGRATIONS.slice(0, 7)) db.exec(m.sql);
    db.pragma('user_version = 7');
    db.exec(`INSERT INTO tenants (id, created_at) VALUES (1, 'x');
      INSERT INTO departments (id, tenant_id, name, created_at, updated_at) VALUES (1, 1, 'Sales', 'x', 'x'), (2, 1, 'Legal', 'x', 'x');
      INSERT INTO users (tenant_id, department_id, first_name, last_name, email, work_hours, created_at, updated_at)
        VALUES (1, 1, 'A', 'B', 'a@b.c', '{"monday":[]}', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'),
               (1, NULL, 'C', 'D', 'c@d.e', NULL, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z');`);
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    for (const id of [1, 2]) expect(stored(db, id)).toBe(expectedOf(db, id));
    expect(JSON.parse(stored(db, 1) as string)).toMatchObject({ department_name: 'Sales', work_hours: { monday: [] }, name: 'A B' });

    db.prepare(`INSERT INTO users (tenant_id, department_id, first_name, last_name, email, created_at, updated_at) VALUES (1, 2, ?, 'E', 'e@f.g', 'x', 'x')`).run(TRICKY);
    expect(stored(db, 3)).toBe(expectedOf(db, 3));
    db.exec(`UPDATE users SET department_id = 2, deleted_at = '2024-02-02T00:00:00.000Z' WHERE id = 2`);
    expect(JSON.parse(stored(db, 2) as string)).toMatchObject({ department_name: 'Legal', deleted_at: '2024-02-02T00:00:00.000Z' });
    db.exec(`UPDATE departments SET name = 'Law' WHERE id = 2`);
    for (const id of [1, 2, 3]) expect(stored(db, id)).toBe(expectedOf(db, id));
    expect(JSON.parse(stored(db, 3) as string).department_name).toBe('Law');
    expect(JSON.parse(stored(db, 1) as string).department_name).toBe('Sales');
    db.close();
  });
});
