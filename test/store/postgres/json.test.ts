import { describe, expect, it } from 'vitest';
import { migratedDatabase } from './databases.js';

describe('to_json, which writes users as JSON text in PostgreSQL', () => {
  it('escapes every code point exactly as JSON.stringify does', async () => {
    const env = await migratedDatabase();
    try {
      const texts: string[] = [];
      for (let c = 1; c < 0x110000; c += c < 0x10000 ? 1 : 0x3f) {
        if (c >= 0xd800 && c < 0xe000) continue; // lone surrogates cannot be stored (UTF-8)
        texts.push(`a${String.fromCodePoint(c)}b`);
      }
      // One round trip: every text and its quoting, in order (NUL cannot be stored in PostgreSQL text).
      const { rows } = await env.client.query<{ json: string }>('SELECT to_json(t)::text AS json FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i) ORDER BY i', [texts]);
      const differing = texts.filter((t, i) => rows[i].json !== JSON.stringify(t)).map((t) => t.codePointAt(1));
      expect(rows).toHaveLength(texts.length);
      expect(differing).toEqual([]);
      for (const v of [null, 0, 42, Number.MAX_SAFE_INTEGER, -7]) {
        const { rows: [r] } = await env.client.query<{ json: string }>("SELECT coalesce(to_json($1::bigint)::text, 'null') AS json", [v]);
        expect(r.json).toBe(JSON.stringify(v));
      }
    } finally {
      await env.close();
    }
  });
});

describe("users' stored JSON text (migration 2)", () => {
  it('is written on insert and update, and rewritten for a department rename', async () => {
    const env = await migratedDatabase();
    try {
      const c = env.client;
      await c.query(`INSERT INTO tenants (id, created_at) VALUES (1, 'x')`);
      await c.query(`INSERT INTO departments (id, tenant_id, name, created_at, updated_at) VALUES (1, 1, 'Sales', 'x', 'x'), (2, 1, 'Legal', 'x', 'x')`);
      await c.query(`INSERT INTO users (tenant_id, department_id, first_name, last_name, email, work_hours, created_at, updated_at)
        VALUES (1, 1, $1, 'B', 'a@b.c', '{"monday":[]}', 'x', 'x'), (1, 2, 'C', 'D', 'c@d.e', NULL, 'x', 'x')`, ['Zoë "Q" \\ 😀\u2028']);
      const json = async () => (await c.query<{ json: string }>('SELECT json FROM users ORDER BY id')).rows.map((r) => JSON.parse(r.json));
      expect(await json()).toEqual([
        { id: 1, department_id: 1, first_name: 'Zoë "Q" \\ 😀\u2028', last_name: 'B', email: 'a@b.c', timezone: null, work_hours: { monday: [] }, role: null,
          created_at: 'x', updated_at: 'x', status: 1, avatar_url: null, name: 'Zoë "Q" \\ 😀\u2028 B', department_name: 'Sales', deleted_at: null },
        expect.objectContaining({ id: 2, department_name: 'Legal', work_hours: null }),
      ]);
      await c.query(`UPDATE users SET status = 0, department_id = NULL WHERE id = 2`);
      await c.query(`UPDATE departments SET name = 'Revenue' WHERE id = 1`);
      expect(await json()).toEqual([expect.objectContaining({ id: 1, department_name: 'Revenue' }), expect.objectContaining({ id: 2, status: 0, department_id: null, department_name: null })]);
    } finally {
      await env.close();
    }
  });
});
