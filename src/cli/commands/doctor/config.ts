/** `confctl doctor`'s local checks: the config file, the profile, base URL and where the key comes from. */
import { existsSync, statSync } from 'node:fs';
import { KeyringSecretError } from '../../../config/keyring.js';
import type { Settings } from '../../../config/settings.js';
import { baseUrlProblem, type CliContext, type GlobalOptions, settingsFor } from '../../context.js';
import type { Status } from './probes.js';

export interface Row {
  check: string;
  status: Status;
  detail: string;
}

/** The config file: found, and readable by its owner only (0600) where modes mean something. */
export function configRow(path: string, platform = process.platform): Row {
  if (!existsSync(path)) return { check: 'config file', status: 'warn', detail: `none at ${path} (settings from flags and environment only)` };
  if (platform === 'win32') return { check: 'config file', status: 'ok', detail: path };
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077) return { check: 'config file', status: 'warn', detail: `${path} has mode 0${mode.toString(8)}: others may read secrets; run chmod 600 ${path}` };
  return { check: 'config file', status: 'ok', detail: `${path} (mode 0600)` };
}

/**
 * The merged settings and rows on profile, base URL and key; `settings` is undefined (with a
 * failed row) when a keychain secret cannot be read.
 */
export async function settingsRows(ctx: CliContext, globals: GlobalOptions): Promise<{ rows: Row[]; settings?: Settings }> {
  const store = await ctx.config();
  let settings: Settings;
  try {
    settings = await settingsFor(ctx, globals);
  } catch (err) {
    if (!(err instanceof KeyringSecretError)) throw err;
    return { rows: [{ check: 'key', status: 'fail', detail: err.message }] };
  }
  const profile = settings.profile ? store.get(settings.profile) : undefined;
  const where = ctx.env.CONFCTL_KEY_SECRET ? 'from CONFCTL_KEY_SECRET' : profile?.secret_store === 'keyring' ? 'in the OS keychain' : 'in the profile file';
  const rows: Row[] = [
    settings.profile
      ? { check: 'profile', status: 'ok', detail: `${settings.profile}${store.active() === settings.profile ? ' (active)' : ''}` }
      : { check: 'profile', status: 'warn', detail: 'none (settings from flags and environment only)' },
    !settings.baseUrl
      ? { check: 'base URL', status: 'fail', detail: 'not set: give --base-url, or a profile domain or base_url' }
      : baseUrlProblem(settings.baseUrl)
        ? { check: 'base URL', status: 'fail', detail: `${baseUrlProblem(settings.baseUrl)}: give an http or https URL` }
        : { check: 'base URL', status: 'ok', detail: settings.baseUrl },
    settings.keyId && settings.secret
      ? { check: 'key', status: 'ok', detail: `${settings.keyId}, secret ${where}` }
      : { check: 'key', status: 'fail', detail: `missing ${[!settings.keyId && 'key id', !settings.secret && 'secret'].filter(Boolean).join(' and ')}` },
  ];
  return { rows, settings };
}
