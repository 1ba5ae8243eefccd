import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh control token: 32 random bytes, base64url. */
export function newControlToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A token fit for an HTTP header: 16 to 512 visible ASCII characters. */
export const TOKEN_SHAPE = /^[\x21-\x7e]{16,512}$/;

/**
 * Compares a sent token with the expected one in constant time: both are hashed first, so
 * neither the content nor the length of the expected token leaks through timing.
 */
export function tokenMatches(expected: string, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(sent));
}
