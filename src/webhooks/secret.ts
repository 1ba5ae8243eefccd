import { randomBytes } from 'node:crypto';

/** A new destination secret: `whsec_` and 32 random bytes in hex (the HMAC key is this text). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}
