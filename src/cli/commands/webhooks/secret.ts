import { readFileSync } from 'node:fs';
import { DEFAULT_MAX_AGE_SECONDS } from '../../../webhooks/signature.js';
import { UsageError } from '../../context.js';

/** Where the signing secret came from; a made-up one is printed so a destination can be paired. */
export type SecretSource = { secret: string; from: 'flag' | 'file' | 'env' } | { secret?: undefined; from: 'none' };

/**
 * The secret from `--secret`, `--secret-file` (its first line) or `CONFCTL_WEBHOOK_SECRET`, in
 * that order of preference; giving both flags is exit 2. An empty secret is refused: an HMAC
 * with an empty key proves nothing.
 */
export function secretFrom(o: { secret?: string; secretFile?: string }, env: Record<string, string | undefined>): SecretSource {
  if (o.secret !== undefined && o.secretFile !== undefined) throw new UsageError('give --secret or --secret-file, not both');
  if (o.secret !== undefined) return { secret: nonEmpty(o.secret, '--secret'), from: 'flag' };
  if (o.secretFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(o.secretFile, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --secret-file ${o.secretFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    return { secret: nonEmpty(text.split(/\r?\n/)[0].trim(), `--secret-file ${o.secretFile}`), from: 'file' };
  }
  const env_ = env.CONFCTL_WEBHOOK_SECRET;
  if (env_ !== undefined && env_ !== '') return { secret: env_, from: 'env' };
  return { from: 'none' };
}

function nonEmpty(secret: string, where: string): string {
  if (!secret) throw new UsageError(`${where} is empty; the secret is the destination's signing secret`);
  return secret;
}

/** `--max-age SECONDS`: a whole number; 0 skips the age check. */
export function parseMaxAge(value: string | undefined): number {
  const v = value ?? String(DEFAULT_MAX_AGE_SECONDS);
  if (!/^[0-9]+$/.test(v)) throw new UsageError(`--max-age must be a whole number of seconds (0: no age check), not '${v}'`);
  return Number(v);
}
