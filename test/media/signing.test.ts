import { describe, expect, it } from 'vitest';
import {
  canonicalString,
  defaultExpirySeconds,
  recordingExpiresAt,
  signRecordingUrl,
  verifyRecordingSignature,
} from '../../src/media/signing.js';

const secret = 'test-secret-0123456789';
const now = new Date('2026-01-31T09:30:00.250Z');
const expiresAt = new Date('2026-01-31T10:30:00.000Z');

function parts(url: string) {
  const u = new URL(url);
  const [, , , id, file] = u.pathname.split('/');
  return {
    recordingId: Number(id),
    fileName: decodeURIComponent(file),
    expires: u.searchParams.get('expires'),
    signature: u.searchParams.get('signature'),
  };
}

describe('signRecordingUrl / verifyRecordingSignature', () => {
  // Signed inside each test (not at collection time), so that mutation testing sees every use.
  const signed = () => signRecordingUrl({ origin: 'http://localhost:8080/', recordingId: 12, fileName: 'rec-12.wav', expiresAt, secret });

  it('builds the URL of decisions §7', () => {
    expect(signed()).toMatch(/^http:\/\/localhost:8080\/media\/recordings\/12\/rec-12\.wav\?expires=1769855400&signature=[0-9a-f]{64}$/);
    expect(canonicalString(12, 'rec-12.wav', 1769855400)).toBe('confctl-recording-v1\n12\nrec-12.wav\n1769855400');
  });

  it('drops every trailing slash of the origin, and only those', () => {
    const url = signRecordingUrl({ origin: 'https://media.acme.test//', recordingId: 1, fileName: 'a.wav', expiresAt, secret });
    expect(url.startsWith('https://media.acme.test/media/recordings/1/a.wav?expires=')).toBe(true);
  });

  it('takes expires as the query string gives it, or as a number', () => {
    const p = parts(signed());
    expect(verifyRecordingSignature({ ...p, expires: Number(p.expires), secret, now })).toBe(true);
    expect(verifyRecordingSignature({ ...p, expires: 0, secret, now })).toBe(false);
  });

  it('round-trips', () => {
    expect(verifyRecordingSignature({ ...parts(signed()), secret, now })).toBe(true);
  });

  it('encodes and verifies unusual file names', () => {
    const odd = signRecordingUrl({ origin: 'http://h', recordingId: 3, fileName: 'my talk #1?.wav', expiresAt, secret });
    expect(odd).toContain('/3/my%20talk%20%231%3F.wav?');
    expect(verifyRecordingSignature({ ...parts(odd), secret, now })).toBe(true);
  });

  it('rejects an altered signature, id, file name, expiry or secret', () => {
    const p = parts(signed());
    const flipped = (p.signature![0] === 'a' ? 'b' : 'a') + p.signature!.slice(1);
    expect(verifyRecordingSignature({ ...p, signature: flipped, secret, now })).toBe(false);
    expect(verifyRecordingSignature({ ...p, recordingId: 13, secret, now })).toBe(false);
    expect(verifyRecordingSignature({ ...p, fileName: 'rec-13.wav', secret, now })).toBe(false);
    expect(verifyRecordingSignature({ ...p, expires: String(Number(p.expires) + 1), secret, now })).toBe(false);
    expect(verifyRecordingSignature({ ...p, secret: 'other', now })).toBe(false);
  });

  it('rejects an expired link (valid strictly before `expires`)', () => {
    const p = parts(signed());
    expect(verifyRecordingSignature({ ...p, secret, now: new Date(expiresAt.getTime() - 1) })).toBe(true);
    expect(verifyRecordingSignature({ ...p, secret, now: expiresAt })).toBe(false);
    expect(verifyRecordingSignature({ ...p, secret, now: new Date(expiresAt.getTime() + 5000) })).toBe(false);
  });

  it('rejects missing, malformed and wrong-length values without throwing', () => {
    const p = parts(signed());
    for (const signature of [null, undefined, '', 'zz', p.signature!.slice(0, 62), p.signature!.slice(0, 63), p.signature! + '00', p.signature! + '0']) {
      expect(verifyRecordingSignature({ ...p, signature, secret, now })).toBe(false);
    }
    for (const expires of [null, undefined, '', 'abc', '-1', '1e10', '01769855400']) {
      expect(verifyRecordingSignature({ ...p, expires, secret, now })).toBe(false);
    }
    // Upper-case hex is the same digest.
    expect(verifyRecordingSignature({ ...p, signature: p.signature!.toUpperCase(), secret, now })).toBe(true);
  });
});

describe('expiry', () => {
  it('defaults to the length rounded up plus 600 seconds', () => {
    expect(defaultExpirySeconds({ started_at: '2026-01-01T10:00:00.000Z', stopped_at: '2026-01-01T10:05:00.000Z' })).toBe(900);
    expect(defaultExpirySeconds({ started_at: '2026-01-01T10:00:00.000Z', stopped_at: '2026-01-01T10:00:01.200Z' })).toBe(602);
    expect(defaultExpirySeconds({ started_at: null, stopped_at: '2026-01-01T10:00:01.200Z' })).toBe(600);
    expect(defaultExpirySeconds({ started_at: '2026-01-01T10:00:05.000Z', stopped_at: '2026-01-01T10:00:00.000Z' })).toBe(600);
  });

  it('computes expires_at from an optional expiry, on a whole second', () => {
    const rec = { started_at: '2026-01-01T10:00:00.000Z', stopped_at: '2026-01-01T10:01:00.000Z' };
    expect(recordingExpiresAt(rec, 60, now).toISOString()).toBe('2026-01-31T09:31:01.000Z');
    expect(recordingExpiresAt(rec, undefined, new Date('2026-01-31T09:30:00.000Z')).toISOString()).toBe('2026-01-31T09:41:00.000Z');
  });
});
