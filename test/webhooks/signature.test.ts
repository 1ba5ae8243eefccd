import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sign, signedHeaders, verify, WEBHOOK_HEADERS } from '../../src/webhooks/signature.js';

const SECRET = 'whsec_test_0123456789';
const ID = '3f1c2a7e-5b7d-4f3e-9a51-0c7d2f9e8b11';
const TIMESTAMP = '2026-11-23T20:30:00.000Z';
const BODY = Buffer.from('{"event":"events.created","data":{"id":42,"calendar_id":7}}');
const AT = new Date(TIMESTAMP);

/** The scheme written out independently: HMAC-SHA256 over `{id}.{timestamp}.{raw body}`, lower-case hex. */
const expected = (secret: string, id: string, timestamp: string, body: Buffer) =>
  createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body])).digest('hex');

const headers = (over: Record<string, string | undefined> = {}) => ({
  [WEBHOOK_HEADERS.id]: ID,
  [WEBHOOK_HEADERS.timestamp]: TIMESTAMP,
  [WEBHOOK_HEADERS.signature]: expected(SECRET, ID, TIMESTAMP, BODY),
  ...over,
});

const later = (seconds: number) => new Date(AT.getTime() + seconds * 1000);

describe('sign', () => {
  it('is the lower-case hex HMAC-SHA256 of id.timestamp.body', () => {
    const sig = sign(SECRET, ID, TIMESTAMP, BODY);
    expect(sig).toBe(expected(SECRET, ID, TIMESTAMP, BODY));
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs the body bytes as they are, not a re-encoding of them', () => {
    const latin1 = Buffer.from([0x7b, 0xe9, 0x7d]); // not valid UTF-8
    expect(sign(SECRET, ID, TIMESTAMP, latin1)).toBe(expected(SECRET, ID, TIMESTAMP, latin1));
    expect(sign(SECRET, ID, TIMESTAMP, latin1)).not.toBe(sign(SECRET, ID, TIMESTAMP, latin1.toString('utf8')));
  });

  it('gives each attempt its own timestamp and signature, keeping the id', () => {
    const first = signedHeaders(SECRET, ID, BODY, AT);
    const retry = signedHeaders(SECRET, ID, BODY, later(10));
    expect(first).toEqual({ 'x-webhook-id': ID, 'x-webhook-timestamp': TIMESTAMP, 'x-webhook-signature': expected(SECRET, ID, TIMESTAMP, BODY) });
    expect(retry['x-webhook-id']).toBe(ID);
    expect(retry['x-webhook-timestamp']).toBe('2026-11-23T20:30:10.000Z');
    expect(retry['x-webhook-signature']).toBe(expected(SECRET, ID, '2026-11-23T20:30:10.000Z', BODY));
  });
});

describe('verify', () => {
  const opts = (now: Date, maxAgeSeconds = 300) => ({ now, maxAgeSeconds });

  it('accepts an authentic, fresh delivery and says how old it is', () => {
    expect(verify(headers(), BODY, SECRET, opts(later(12)))).toEqual({ ok: true, id: ID, timestamp: TIMESTAMP, ageSeconds: 12 });
  });

  it('accepts an upper-case hex signature (the same bytes)', () => {
    const upper = headers({ [WEBHOOK_HEADERS.signature]: expected(SECRET, ID, TIMESTAMP, BODY).toUpperCase() });
    expect(verify(upper, BODY, SECRET, opts(AT)).ok).toBe(true);
  });

  it('names every missing header', () => {
    const v = verify({ [WEBHOOK_HEADERS.id]: ID }, BODY, SECRET, opts(AT));
    expect(v).toEqual({ ok: false, id: ID, reason: 'missing-header', message: 'missing headers X-Webhook-Timestamp, X-Webhook-Signature' });
    expect(verify(headers({ [WEBHOOK_HEADERS.signature]: undefined }), BODY, SECRET, opts(AT))).toMatchObject({ reason: 'missing-header', message: 'missing header X-Webhook-Signature' });
    expect(verify({}, BODY, SECRET, opts(AT))).not.toHaveProperty('id');
  });

  it('refuses a timestamp that is not an ISO 8601 date-time with a zone', () => {
    for (const bad of ['1795984200', '2026-11-23 20:30:00', '2026-11-23T20:30:00', '2026-13-40T99:00:00Z', 'yesterday']) {
      const v = verify(headers({ [WEBHOOK_HEADERS.timestamp]: bad }), BODY, SECRET, opts(AT));
      expect(v, bad).toMatchObject({ ok: false, reason: 'bad-timestamp' });
    }
  });

  it('refuses a signature that is not 64 hex digits', () => {
    for (const bad of ['abc', `sha256=${expected(SECRET, ID, TIMESTAMP, BODY)}`, 'z'.repeat(64), `${expected(SECRET, ID, TIMESTAMP, BODY)}00`]) {
      expect(verify(headers({ [WEBHOOK_HEADERS.signature]: bad }), BODY, SECRET, opts(AT)), bad).toMatchObject({ ok: false, reason: 'bad-signature' });
    }
  });

  it('refuses another secret, a changed body, id or timestamp', () => {
    const wrong = { ok: false, id: ID, reason: 'wrong-signature' };
    expect(verify(headers(), BODY, 'whsec_other', opts(AT))).toMatchObject(wrong);
    expect(verify(headers(), Buffer.concat([BODY, Buffer.from('\n')]), SECRET, opts(AT))).toMatchObject(wrong);
    expect(verify(headers({ [WEBHOOK_HEADERS.id]: 'other' }), BODY, SECRET, opts(AT))).toMatchObject({ reason: 'wrong-signature', id: 'other' });
    expect(verify(headers({ [WEBHOOK_HEADERS.timestamp]: '2026-11-23T20:30:00Z' }), BODY, SECRET, opts(AT))).toMatchObject(wrong);
  });

  it('refuses a delivery older than the maximum age, at the boundary', () => {
    expect(verify(headers(), BODY, SECRET, opts(later(300))).ok).toBe(true);
    const v = verify(headers(), BODY, SECRET, opts(later(360)));
    expect(v).toEqual({ ok: false, id: ID, reason: 'stale', message: `timestamp ${TIMESTAMP} is 360 s old, more than the 300 s allowed` });
    expect(verify(headers(), BODY, SECRET, opts(later(61), 60))).toMatchObject({ reason: 'stale' });
  });

  it('refuses a timestamp further ahead than the tolerance (clock skew)', () => {
    expect(verify(headers(), BODY, SECRET, opts(later(-300))).ok).toBe(true);
    expect(verify(headers(), BODY, SECRET, opts(later(-301)))).toMatchObject({ ok: false, reason: 'future', message: `timestamp ${TIMESTAMP} is 301 s in the future, more than the 300 s allowed` });
  });

  it('skips the age checks with a maximum age of 0, but never the signature', () => {
    expect(verify(headers(), BODY, SECRET, opts(later(86_400 * 365), 0)).ok).toBe(true);
    expect(verify(headers(), BODY, SECRET, opts(later(-86_400), 0)).ok).toBe(true);
    expect(verify(headers(), BODY, 'whsec_other', opts(later(86_400), 0))).toMatchObject({ reason: 'wrong-signature' });
  });

  it('reports a forged delivery as forged even when it is also stale', () => {
    expect(verify(headers(), BODY, 'whsec_other', opts(later(3600)))).toMatchObject({ reason: 'wrong-signature' });
  });

  it('reads a timestamp with an offset as the instant it names', () => {
    const ts = '2026-11-23T21:30:00.000+01:00';
    const h = headers({ [WEBHOOK_HEADERS.timestamp]: ts, [WEBHOOK_HEADERS.signature]: expected(SECRET, ID, ts, BODY) });
    expect(verify(h, BODY, SECRET, opts(later(5)))).toEqual({ ok: true, id: ID, timestamp: ts, ageSeconds: 5 });
  });
});
