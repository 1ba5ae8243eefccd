import { describe, expect, it } from 'vitest';
import { createJoinToken, joinCanonicalString, verifyJoinToken } from '../../src/media/join-token.js';

const NOW = new Date('2026-03-01T12:00:00.250Z');
const grant = { tenantId: 1, conferenceId: 42, attendeeId: 7 };

describe('join tokens', () => {
  it('signs tenant, conference, attendee and expiry; expires_at is rounded up to a whole second', () => {
    const { token, expiresAt } = createJoinToken(grant, 3600, NOW, 'secret');
    expect(expiresAt.toISOString()).toBe('2026-03-01T13:00:01.000Z');
    expect(token).toMatch(/^42\.7\.1772370001\.[0-9a-f]{64}$/);
    expect(joinCanonicalString({ ...grant, expires: 1772370001 })).toBe('confctl-join-v1\n1\n42\n7\n1772370001');
    expect(verifyJoinToken(token, 1, NOW, 'secret')).toEqual({ conferenceId: 42, attendeeId: 7 });
  });

  it('refuses another tenant, another secret, and expiry at `now >= expires`', () => {
    const { token, expiresAt } = createJoinToken(grant, 60, NOW, 'secret');
    expect(verifyJoinToken(token, 2, NOW, 'secret')).toBeUndefined();
    expect(verifyJoinToken(token, 1, NOW, 'other')).toBeUndefined();
    expect(verifyJoinToken(token, 1, new Date(expiresAt.getTime() - 1), 'secret')).toBeDefined();
    expect(verifyJoinToken(token, 1, expiresAt, 'secret')).toBeUndefined();
  });

  it('refuses re-signed values it did not issue and any other spelling', () => {
    const { token } = createJoinToken(grant, 60, NOW, 'secret');
    const [c, a, e, sig] = token.split('.');
    for (const bad of [
      `${c}.${a}.${Number(e) + 1}.${sig}`,
      `${c}.8.${e}.${sig}`,
      `43.${a}.${e}.${sig}`,
      `0${c}.${a}.${e}.${sig}`,
      `${c}.${a}.${e}.${sig.toUpperCase()}`,
      `${c}.${a}.${e}.${sig.slice(0, -1)}`,
      `${c}.${a}.${e}.${sig}0`,
      `${c}.${a}.${e}`,
      ` ${token}`,
      '',
      null,
      undefined,
    ]) {
      expect(verifyJoinToken(bad, 1, NOW, 'secret'), String(bad)).toBeUndefined();
    }
  });
});
