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
