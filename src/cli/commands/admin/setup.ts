/** What `confctl admin init|tenants|keys|seed` share: their rows, plans and flag parsers, and `admin init` itself. */
import { ALL_PERMISSIONS } from '../../../contract/operations-meta.js';
import { grantsMatchingNothing, PERMISSION_PATTERN } from '../../../contract/permissions.js';
import { FIRST_KEY_NAME, initFirstTenant, LOCAL_ALIASES } from '../../../local/init.js';
import type { AccessKeyRecord, TenantRecord } from '../../../store/types.js';
import { type CliContext, CliError, EXIT, UsageError } from '../../context.js';
import type { Row } from '../../output/index.js';
import type { AdminCommon } from './flags.js';
import { isPlainText, plan, print } from './local.js';
import type { AdminStore } from './store.js';
import { consentToLocalProfile, localProfileChoice, type ProfileFlags, saveLocalProfile } from '../local-profile.js';
import { baseUrlFor } from '../listen-address.js';

export const tenantRow = (t: TenantRecord): Row => ({ id: t.id, primary_domain: t.primary_domain, aliases: t.aliases, created_at: t.created_at });
export const keyRow = (k: AccessKeyRecord, tenants: Map<number, string>): Row => ({
  id: k.id,
  tenant: tenants.get(k.tenant_id) ?? null,
  name: k.name,
  permissions: k.permissions,
  expires_at: k.expires_at,
  revoked_at: k.revoked_at,
  created_at: k.created_at,
});

export const aliasText = (aliases: readonly string[]) => (aliases.length ? ` (aliases ${aliases.join(', ')})` : '');

/** The flags of `admin init`: the first tenant's domain, and the profile its key is saved as. */
export type InitOptions = AdminCommon & ProfileFlags & { domain?: string };

/**
 * `admin init` on either store: the first tenant and key as `serve` makes them on its first start
 * (`initFirstTenant`, once however many start together); the profile the key goes to is settled
 * (asked, if need be) before the key exists. A store with a tenant is exit 5.
 */
export async function initOn(ctx: CliContext, opts: InitOptions, { store, where, flag }: AdminStore): Promise<void> {
  if ((await store.tenants.list()).length > 0) throw new CliError(`${where} is already initialised`, EXIT.conflict, `create more keys with 'confctl admin keys create${flag}'`);
  const domain = (opts.domain ?? 'localhost').toLowerCase();
  const choice = localProfileChoice(opts);
  const baseUrl = baseUrlFor(domain, 8080);
  if (opts.globals.dryRun) {
    const replaces = choice && (await ctx.config()).get(choice.name);
    return plan(ctx, [
      `would create tenant ${domain}${aliasText(domain === 'localhost' ? LOCAL_ALIASES : [])} with roles Admin, Manager, Member in ${where}`,
      `would create an all-permissions key '${FIRST_KEY_NAME}' and print its secret once`,
      ...(choice ? [`would ${replaces ? 'replace' : 'save'} profile '${choice.name}' pointing at ${baseUrl}`] : []),
    ]);
  }
  if (choice) await consentToLocalProfile(ctx, store, choice);
  const created = await initFirstTenant(store, domain);
  if (!created) throw new CliError(`${where} is already initialised`, EXIT.conflict);
  if (choice) await saveLocalProfile(ctx, store, baseUrl, created.key, choice.name);
  const result = { tenant: created.tenant.primary_domain, key_id: created.key.id, secret: created.key.secret };
  if (isPlainText(ctx, opts.globals)) {
    const saved = choice ? `Profile: ${choice.name} (${baseUrl})\n` : '';
    ctx.streams.stdout.write(`Initialised ${where}\nTenant: ${result.tenant}\nKey id: ${result.key_id}\nSecret: ${result.secret}   (shown only now)\n${saved}`);
  } else await print(ctx, opts.globals, result);
}

/** `--expires` → an ISO 8601 time in the future, null without it, else exit 2. */
export function parseExpiry(value: unknown, now: Date): string | null {
  if (value === undefined) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new UsageError(`--expires must be an ISO 8601 date or date-time, not '${text}'`);
  if (time <= now.getTime()) throw new UsageError('--expires must be in the future');
  return new Date(time).toISOString();
}

/** `--permissions` → grants, each a well-formed name that grants at least one known permission, else exit 2. */
export function parseGrants(value: unknown): string[] {
  const grants = String(value).split(',').map((p) => p.trim()).filter(Boolean);
  const malformed = grants.filter((p) => !PERMISSION_PATTERN.test(p));
  if (!grants.length || malformed.length) {
    throw new UsageError(`invalid permission${malformed.length > 1 ? 's' : ''}: ${malformed.join(', ') || '(none given)'}`, "use names like 'users.read.*', 'customers.*' or '*'");
  }
  const unknown = grantsMatchingNothing(grants);
  if (unknown.length) {
    throw new UsageError(`no known permission matches ${unknown.map((g) => `'${g}'`).join(', ')}`, `known permissions: ${ALL_PERMISSIONS.join(', ')} (wildcards: '*', 'users.*', '*.read.*')`);
  }
  return grants;
}

/** The plan of `admin seed --dry-run` (either store): `hasDemo` says the tenant already has the demo set. */
export function seedPlan(tenant: TenantRecord, what: { demo: boolean; users: number; customers: number }, hasDemo: boolean): string[] {
  const lines: string[] = [];
  if (what.demo) {
    lines.push(hasDemo ? `would skip the demo data set: tenant ${tenant.primary_domain} already has it` : `would fill tenant ${tenant.primary_domain} with the demo data set`);
  }
  if (what.users || what.customers) lines.push(`would add ${what.users} generated users and ${what.customers} generated customers to tenant ${tenant.primary_domain}`);
  return lines;
}
