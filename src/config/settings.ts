import type { Env, OutputFormat, ProfileReader } from './profiles.js';
import { OUTPUT_FORMATS } from './profiles.js';

/** What a command needs to call the API, after profile and environment are merged. */
export interface Settings {
  /** The profile used, if any. */
  profile?: string;
  baseUrl?: string;
  keyId?: string;
  secret?: string;
  output?: OutputFormat;
}

/** `https://{domain}/api/public/v2.0`, or `base_url` without trailing slashes. */
export function baseUrlOf(p: { domain?: string; base_url?: string }): string | undefined {
  if (p.base_url) return p.base_url.replace(/\/+$/, '');
  if (p.domain) return `https://${p.domain}/api/public/v2.0`;
  return undefined;
}

export class UnknownProfileError extends Error {
  override name = 'UnknownProfileError';
  constructor(readonly profile: string) {
    super(`no profile named '${profile}'`);
  }
}

/**
 * Merges, strongest first: explicit flags, then `CONFCTL_*` variables, then the profile named by
 * `--profile`, `CONFCTL_PROFILE` or the active one. An explicitly named profile must exist.
 */
export function resolveSettings(store: ProfileReader, env: Env, flags: { profile?: string; baseUrl?: string } = {}): Settings {
  const named = flags.profile ?? (env.CONFCTL_PROFILE || undefined);
  if (named && !store.get(named)) throw new UnknownProfileError(named);
  const name = named ?? store.active();
  const p = name ? store.get(name) : undefined;
  const envBase = baseUrlOf({ base_url: env.CONFCTL_BASE_URL || undefined, domain: env.CONFCTL_DOMAIN || undefined });
  const envOutput = OUTPUT_FORMATS.find((f) => f === env.CONFCTL_OUTPUT);
  return {
    profile: name,
    baseUrl: (flags.baseUrl && baseUrlOf({ base_url: flags.baseUrl })) ?? envBase ?? (p && baseUrlOf(p)),
    keyId: env.CONFCTL_KEY_ID || p?.key_id,
    // Read last and only when needed: a keychain profile's secret costs a keychain lookup.
    secret: env.CONFCTL_KEY_SECRET || (name && p ? store.secret(name) : undefined),
    output: envOutput ?? p?.output,
  };
}
