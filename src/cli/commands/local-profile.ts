import type { Profile } from '../../config/profiles.js';
import { baseUrlOf } from '../../config/settings.js';
import type { DataStore } from '../../store/port.js';
import { type CliContext, UsageError } from '../context.js';
import { consentToReplace } from '../overwrite.js';

/** The client profile a local instance saves its first key under, unless `--profile-name` names another. */
export const LOCAL_PROFILE = 'local';

/** How `serve` and `admin init` save the first key: under which name, and may an existing one be replaced. */
export interface LocalProfileChoice {
  name: string;
  force: boolean;
}

/** One line about a profile for messages: its base URL and key id, never the secret. */
export const profileSummary = (profile: Profile) => `${baseUrlOf(profile) ?? 'no base URL'}, key ${profile.key_id}`;

/** A profile name, or exit 2 saying what a name may hold. */
export function checkProfileName(name: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new UsageError(`profile name '${name}' may hold only letters, digits, '.', '_' and '-'`);
  return name;
}

/** `--no-profile` (profile false), `--profile-name` and `--force` as commander hands them over. */
export interface ProfileFlags {
  profile?: boolean;
  profileName?: string;
  force?: boolean;
}

/** `--profile-name` and `--force` → the choice, null with `--no-profile` (which goes with neither); no I/O. */
export function localProfileChoice(opts: ProfileFlags): LocalProfileChoice | null {
  if (opts.profile === false) {
    if (opts.profileName !== undefined || opts.force) throw new UsageError('--no-profile does not go with --profile-name or --force');
    return null;
  }
  return { name: checkProfileName(opts.profileName ?? LOCAL_PROFILE), force: Boolean(opts.force) };
}

/**
 * Called before a new instance's key is created (its secret is shown once, so it must not be lost
 * to a refused profile): a profile of the chosen name whose key is not one of this data
 * directory's is replaced only with consent. One whose key is this directory's is re-pointed
 * silently. `store` undefined: an instance not created yet (it has no keys), asked about before
 * anything is created, so a refusal leaves the directory or database as it was.
 */
export async function consentToLocalProfile(ctx: CliContext, store: Pick<DataStore, 'keys'> | undefined, choice: LocalProfileChoice): Promise<void> {
  const existing = (await ctx.config()).get(choice.name);
  if (!existing || (store && (await store.keys.get(existing.key_id)))) return;
  await consentToReplace(ctx, `profile '${choice.name}' (${profileSummary(existing)})`, {
    force: choice.force,
    hint: 'give --profile-name NAME to save the new key under another name, --force to replace the profile, or --no-profile',
  });
}

/**
 * Points the chosen profile at a local instance. With a newly created key the profile is
 * (re)written with it and made active if none is (`consentToLocalProfile` asked first); otherwise
 * only an existing profile whose key belongs to this instance gets the new base URL. Answers
 * whether a profile was saved.
 */
export async function saveLocalProfile(
  ctx: CliContext,
  store: Pick<DataStore, 'keys'>,
  baseUrl: string,
  key?: { id: string; secret: string },
  name: string = LOCAL_PROFILE,
): Promise<boolean> {
  const profiles = await ctx.config();
  if (key) {
    profiles.save(name, { base_url: baseUrl, key_id: key.id, secret: key.secret }, { activateIfNone: true });
    return true;
  }
  const existing = profiles.get(name);
  if (!existing || !(await store.keys.get(existing.key_id))) return false;
  if (existing.base_url !== baseUrl) profiles.save(name, { ...existing, base_url: baseUrl, domain: undefined });
  return true;
}
