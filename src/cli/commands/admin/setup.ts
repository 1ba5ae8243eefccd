/** `confctl admin init|tenants|keys|seed`: setting up a local data directory. */
import type { Command } from 'commander';
import { ALL_PERMISSIONS, grantsMatchingNothing, PERMISSION_PATTERN } from '../../../contract/index.js';
import { createTenant, type CreatedKey, FIRST_KEY_NAME, initFirstTenant, LOCAL_ALIASES } from '../../../local/init.js';
import { seedBulk, seedDemo } from '../../../admin/seed/index.js';
import { hasDemoData } from '../../../admin/seed/demo.js';
import type { DataStore } from '../../../store/port.js';
import type { AccessKeyRecord, TenantRecord } from '../../../store/types.js';
import { type CliContext, CliError, EXIT, globalOptions, outputFormat, UsageError } from '../../context.js';
import type { Row } from '../../output/index.js';
import { databaseUrl, isDryRun, type Opts, plan, print, printList, tenantOf, wholeNumber, withLocal } from './local.js';
import { consentToLocalProfile, localProfileChoice, saveLocalProfile } from '../local-profile.js';
import { baseUrlFor } from '../serve/run.js';

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

/** A new secret is shown as plain lines on a terminal, unless `--fields` picks what to print. */
export function isPlainText(ctx: CliContext, cmd: Command): boolean {
  const globals = globalOptions(cmd);
  return outputFormat(ctx, globals) === 'table' && !globals.fields;
}

export const aliasText = (aliases: readonly string[]) => (aliases.length ? ` (aliases ${aliases.join(', ')})` : '');

/** Where `admin init` creates the first tenant and key: a data directory, or a PostgreSQL database. */
export interface InitTarget {
  /** Fit to print: the directory, or the URL with its password masked. */
  where: string;
  store: Pick<DataStore, 'keys'>;
  hasTenant(): Promise<boolean>;
  /** The first tenant and key, or undefined when another writer created a tenant first. */
  create(domain: string): Promise<{ tenant: TenantRecord; key: CreatedKey } | undefined>;
  /** How to make more keys there. */
  keysHint: string;
}

/** `admin init` on either store: the profile the key goes to is settled (asked, if need be) before the key exists. */
export async function initOn(ctx: CliContext, cmd: Command, opts: Opts, target: InitTarget): Promise<void> {
  const already = () => new CliError(`${target.where} is already initialised`, EXIT.conflict, target.keysHint);
  if (await target.hasTenant()) throw already();
  const domain = String(opts.domain ?? 'localhost').toLowerCase();
  const choice = localProfileChoice(opts);
  const baseUrl = baseUrlFor(domain, 8080);
  if (isDryRun(cmd)) {
    const replaces = choice && (await ctx.config()).get(choice.name);
    return plan(ctx, [
      `would create tenant ${domain}${aliasText(domain === 'localhost' ? LOCAL_ALIASES : [])} with roles Admin, Manager, Member in ${target.where}`,
      `would create an all-permissions key '${FIRST_KEY_NAME}' and print its secret once`,
      ...(choice ? [`would ${replaces ? 'replace' : 'save'} profile '${choice.name}' pointing at ${baseUrl}`] : []),
    ]);
  }
  if (choice) await consentToLocalProfile(ctx, target.store, choice);
  const created = await target.create(domain);
  if (!created) throw new CliError(`${target.where} is already initialised`, EXIT.conflict);
  if (choice) await saveLocalProfile(ctx, target.store, baseUrl, created.key, choice.name);
  const result = { tenant: created.tenant.primary_domain, key_id: created.key.id, secret: created.key.secret };
  if (isPlainText(ctx, cmd)) {
    const saved = choice ? `Profile: ${choice.name} (${baseUrl})\n` : '';
    ctx.streams.stdout.write(`Initialised ${target.where}\nTenant: ${result.tenant}\nKey id: ${result.key_id}\nSecret: ${result.secret}   (shown only now)\n${saved}`);
  } else await print(ctx, cmd, result);
}

/** The first tenant and key of a data directory, or with `--database` of a PostgreSQL database (admin-database.ts). */
export async function init(ctx: CliContext, cmd: Command): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await onDatabase()).init(ctx, cmd, url);
  await withLocal(ctx, cmd, (local, opts) =>
    initOn(ctx, cmd, opts, {
      where: local.layout.dir,
      store: local.store,
      hasTenant: async () => local.store.tenants.list().length > 0,
      create: async (domain) => initFirstTenant(local.store, domain),
      keysHint: "create more keys with 'confctl admin keys create'",
    }),
  );
}

/** The PostgreSQL side of tenants and keys (`--database`), loaded only when one is given. */
const onDatabase = () => import('./database.js');

export async function tenantsAdd(ctx: CliContext, cmd: Command, domain: string): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await onDatabase()).tenantsAdd(ctx, cmd, url, domain);
  await withLocal(ctx, cmd, async (local, opts) => {
    const domains = [domain, ...((opts.alias as string[] | undefined) ?? [])].map((d) => d.toLowerCase());
    const taken = domains.filter((d) => local.store.tenants.byDomain(d));
    if (taken.length) throw new CliError(`domain already in use: ${taken.join(', ')}`, EXIT.conflict);
    if (isDryRun(cmd)) return plan(ctx, [`would create tenant ${domains[0]}${aliasText(domains.slice(1))} with roles Admin, Manager, Member`]);
    await print(ctx, cmd, tenantRow(createTenant(local.store, domains[0], domains.slice(1))));
  });
}

export async function tenantsList(ctx: CliContext, cmd: Command): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await onDatabase()).tenantsList(ctx, cmd, url);
  await withLocal(ctx, cmd, (local) => printList(ctx, cmd, local.store.tenants.list().map(tenantRow), ['id', 'primary_domain', 'aliases', 'created_at']));
}

export function parseExpiry(value: unknown, now: Date): string | null {
  if (value === undefined) return null;
  const time = Date.parse(String(value));
  if (Number.isNaN(time)) throw new UsageError(`--expires must be an ISO 8601 date or date-time, not '${String(value)}'`);
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

export async function keysCreate(ctx: CliContext, cmd: Command): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await onDatabase()).keysCreate(ctx, cmd, url);
  await withLocal(ctx, cmd, async (local, opts) => {
    const permissions = parseGrants(opts.permissions);
    const expiresAt = parseExpiry(opts.expires, ctx.now());
    const tenant = tenantOf(local, opts);
    if (isDryRun(cmd)) {
      const until = expiresAt ? `, expiring ${expiresAt}` : '';
      return plan(ctx, [`would create key '${String(opts.name)}' for tenant ${tenant.primary_domain} with permissions ${permissions.join(', ')}${until}`]);
    }
    const { record, secret } = local.store.keys.create({ tenant_id: tenant.id, name: String(opts.name), permissions, expires_at: expiresAt });
    const result = { id: record.id, secret, tenant: tenant.primary_domain, name: record.name, permissions: record.permissions, expires_at: record.expires_at };
    if (isPlainText(ctx, cmd)) {
      const until = record.expires_at ? `Expires: ${record.expires_at}\n` : '';
      ctx.streams.stdout.write(`Created key ${result.id} for ${result.tenant}\nSecret: ${secret}   (shown only now)\nPermissions: ${permissions.join(', ')}\n${until}`);
    } else await print(ctx, cmd, result);
  });
}

export async function keysList(ctx: CliContext, cmd: Command): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await onDatabase()).keysList(ctx, cmd, url);
  await withLocal(ctx, cmd, async (local, opts) => {
    const tenants = new Map(local.store.tenants.list().map((t) => [t.id, t.primary_domain]));
    const tenantId = opts.tenant ? tenantOf(local, opts).id : undefined;
    const rows = local.store.keys.list(tenantId).map((k) => keyRow(k, tenants));
    await printList(ctx, cmd, rows, ['id', 'tenant', 'name', 'permissions', 'expires_at', 'revoked_at']);
  });
}

export async function keysRevoke(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await onDatabase()).keysRevoke(ctx, cmd, url, id);
  await withLocal(ctx, cmd, async (local) => {
    const key = local.store.keys.get(id);
    if (!key) throw new CliError(`no access key '${id}'`, EXIT.notFound, "see 'confctl admin keys list'");
    const tenants = new Map(local.store.tenants.list().map((t) => [t.id, t.primary_domain]));
    if (isDryRun(cmd)) {
      const already = key.revoked_at ? ` (already revoked at ${key.revoked_at})` : '';
      return plan(ctx, [`would revoke key ${id} '${key.name}' of tenant ${tenants.get(key.tenant_id)}${already}`]);
    }
    if (!local.store.keys.revoke(id)) throw new CliError(`no access key '${id}'`, EXIT.notFound, "see 'confctl admin keys list'");
    await print(ctx, cmd, keyRow(local.store.keys.get(id) as AccessKeyRecord, tenants));
  });
}

/** `--demo`, `--users N`, `--customers N`: what `admin seed` was asked to add, or exit 2. */
export function seedRequest(opts: Opts): { demo: boolean; users: number; customers: number } {
  if (!opts.demo && opts.users === undefined && opts.customers === undefined) {
    throw new UsageError('say what to seed: --demo, or --users N and/or --customers N');
  }
  const users = opts.users === undefined ? 0 : wholeNumber('--users', opts.users);
  const customers = opts.customers === undefined ? 0 : wholeNumber('--customers', opts.customers);
  return { demo: Boolean(opts.demo), users, customers };
}

export async function seed(ctx: CliContext, cmd: Command): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await import('./store-postgres.js')).seedDatabase(ctx, cmd, url, seedRequest(cmd.opts<Opts>()));
  await withLocal(ctx, cmd, async (local, opts) => {
    const { users, customers } = seedRequest(opts);
    const tenant = tenantOf(local, opts);
    if (isDryRun(cmd)) return plan(ctx, seedPlan(tenant, { demo: Boolean(opts.demo), users, customers }, hasDemoData(local.store, tenant.id)));
    const result: Row = { tenant: tenant.primary_domain };
    if (opts.demo) result.demo = seedDemo(local.store, tenant.id, { mediaDir: local.layout.mediaDir });
    if (users || customers) Object.assign(result, seedBulk(local.store, tenant.id, { users, customers }));
    local.store.optimize();
    await print(ctx, cmd, result);
  });
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
