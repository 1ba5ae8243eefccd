import type { Store } from '../../store/types.js';
import type { CliContext } from '../context.js';

/** The client profile a local instance saves its first key under (decisions §8). */
export const LOCAL_PROFILE = 'local';

/**
 * Points the profile `local` at a local instance. With a newly created key the profile is
 * (re)written with it and made active if none is; otherwise only an existing `local` profile
 * whose key belongs to this instance gets the new base URL. Answers whether a profile was saved.
 */
export async function saveLocalProfile(
  ctx: CliContext,
  store: Store,
  baseUrl: string,
  key?: { id: string; secret: string },
): Promise<boolean> {
  const profiles = await ctx.config();
  if (key) {
    profiles.save(LOCAL_PROFILE, { base_url: baseUrl, key_id: key.id, secret: key.secret }, { activateIfNone: true });
    return true;
  }
  const existing = profiles.get(LOCAL_PROFILE);
  if (!existing || !store.keys.get(existing.key_id)) return false;
  if (existing.base_url !== baseUrl) profiles.save(LOCAL_PROFILE, { ...existing, base_url: baseUrl, domain: undefined });
  return true;
}
