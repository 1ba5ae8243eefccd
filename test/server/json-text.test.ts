import { describe, expect, it, vi } from 'vitest';
import { envelopeJson, JsonText, jsonTexts } from '../../src/server/json-text.js';

const user = { id: 1, first_name: 'Zoë "Q" \\ \n\u2028😀', work_hours: { monday: [{ start: { hour: 9 } }] }, deleted_at: null };
const text = new JsonText(JSON.stringify(user));

describe('envelopeJson', () => {
  it('splices a single resource where JSON.stringify would write it', () => {
    expect(envelopeJson({ message: 'Single "item"', data: text })).toBe(JSON.stringify({ message: 'Single "item"', data: user }));
  });

  it('splices a page of resources and writes the rest of the envelope in order', () => {
    const rest = { current_page: 1, from: null, next_page_url: 'http://a.test/x?y="1"', total: 2 };
    expect(envelopeJson({ message: 'List', data: [text, text], ...rest })).toBe(JSON.stringify({ message: 'List', data: [user, user], ...rest }));
  });

  it('writes any other data with JSON.stringify, empty pages included', () => {
    for (const data of [[], [user], user, null, { url: 'u', expires_at: 'e' }]) {
      const envelope = { message: 'm', data, total: 0 };
      expect(envelopeJson(envelope)).toBe(JSON.stringify(envelope));
    }
  });

  it('writes the text of one page once for every envelope it is answered in', () => {
    const rows = [{ id: 1, email: 'a@example.com' }, { id: 2, email: 'b@example.com' }];
    const envelope = { message: 'List', data: rows, current_page: 1, total: 2 };
    const first = String(envelopeJson(envelope));
    expect(first).toBe(JSON.stringify(envelope));
    const toJSON = vi.spyOn(JSON, 'stringify');
    try {
      const next = { ...envelope, current_page: 2 };
      expect(envelopeJson(next)).toBe(first.replace('"current_page":1', '"current_page":2'));
      expect(toJSON.mock.calls.map(([value]) => value)).not.toContain(rows);
    } finally {
      toJSON.mockRestore();
    }
  });

  it('shares the bytes of a page\'s identical envelopes from the second on, and writes any other envelope of it as text', () => {
    const rows = [{ id: 1, email: 'zoë@example.com' }];
    const envelope = { message: 'List', data: rows, current_page: 1, total: 1 };
    const text = JSON.stringify(envelope);
    expect(envelopeJson(envelope)).toBe(text);
    const second = envelopeJson({ ...envelope });
    expect(Buffer.isBuffer(second)).toBe(true);
    expect(second.toString('utf8')).toBe(text);
    expect(envelopeJson({ ...envelope })).toBe(second);
    const other = { ...envelope, message: 'Other' };
    expect(envelopeJson(other)).toBe(JSON.stringify(other));
    expect(envelopeJson({ ...envelope })).toBe(text);
  });

  it('gives one page of JSON texts one array of JsonText, whose identical envelopes share their bytes too', () => {
    const texts = [JSON.stringify(user), JSON.stringify({ ...user, id: 2 })];
    const rows = jsonTexts(texts);
    expect(jsonTexts(texts)).toBe(rows);
    expect(jsonTexts([...texts])).not.toBe(rows);
    const envelope = { message: 'List', data: rows, total: 2 };
    const text = JSON.stringify({ message: 'List', data: [user, { ...user, id: 2 }], total: 2 });
    expect(envelopeJson(envelope)).toBe(text);
    expect(String(envelopeJson({ ...envelope }))).toBe(text);
    expect(Buffer.isBuffer(envelopeJson({ ...envelope }))).toBe(true);
  });
});
