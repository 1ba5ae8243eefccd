/** `confctl admin init|tenants|keys|seed`: setting up a local data directory. */
import type { Command } from 'commander';
import { PERMISSION_PATTERN } from '../../contract/index.js';
import { createTenant, initFirstTenant } from '../../local/init.js';
import { seedBulk, seedDemo } from '../../store/index.js';
import type { AccessKeyRecord, TenantRecord } from '../../store/types.js';
import { type CliContext, CliError, EXIT, globalOptions, outputFormat, UsageError } from '../context.js';
import { renderValue, type Row } from '../output/index.js';
import { print, printList, tenantOf, wholeNumber, withLocal } from './admin-local.js';
import { saveLocalProfile } from './local-profile.js';
import { baseUrlFor } from './serve-run.js';

const tenantRow = (t: TenantRecord): Row => ({ id: t.id, primary_domain: t.primary_domain, aliases: t.aliases, created_at: t.created_at });
const keyRow = (k: AccessKeyRecord, tenants: Map<number, string>): Row => ({
  id: k.id,
  tenant: tenants.get(k.tenant_id) ?? null,
  name: k.name,
  permissions: k.permissions,
  expires_at: k.expires_at,
  revoked_at: k.revoked_at,
  created_at: k.created_at,
});

export async function init(ctx: CliContext, cmd: Command): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    const created = initFirstTenant(local.store, String(opts.domain ?? 'localhost').toLowerCase());
    if (!created) {
      throw new CliError(`${local.layout.dir} is already initialised`, EXIT.conflict, "create more keys with 'confctl admin keys create'");
    }
    if (opts.profile !== false) await saveLocalProfile(ctx, local.store, baseUrlFor(created.tenant.primary_domain, 8080), created.key);
    const globals = globalOptions(cmd);
    const format = outputFormat(ctx, globals);
    const result = { tenant: created.tenant.primary_domain, key_id: created.key.id, secret: created.key.secret };
    if (format === 'table') {
      ctx.streams.stdout.write(
        `Initialised ${local.layout.dir}\nTenant: ${result.tenant}\nKey id: ${result.key_id}\nSecret: ${result.secret}   (shown only now)\n`,
      );
    } else await renderValue(ctx.streams, result, format, globals.query);
  });
}

export async function tenantsAdd(ctx: CliContext, cmd: Command, domain: string): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    const domains = [domain, ...((opts.alias as string[] | undefined) ?? [])].map((d) => d.toLowerCase());
    const taken = domains.filter((d) => local.store.tenants.byDomain(d));
    if (taken.length) throw new CliError(`domain already in use: ${taken.join(', ')}`, EXIT.conflict);
    await print(ctx, cmd, tenantRow(createTenant(local.store, domains[0], domains.slice(1))));
  });
}

export async function tenantsList(ctx: CliContext, cmd: Command): Promise<void> {
  await withLocal(ctx, cmd, (local) => printList(ctx, cmd, local.store.tenants.list().map(tenantRow), ['id', 'primary_domain', 'aliases', 'created_at']));
}

function parseExpiry(value: unknown, now: Date): string | null {
  if (value === undefined) return null;
  const time = Date.parse(String(value));
  if (Number.isNaN(time)) throw new UsageError(`--expires must be an ISO 8601 date or date-time, not '${String(value)}'`);
  if (time <= now.getTime()) throw new UsageError('--expires must be in the future');
  return new Date(time).toISOString();
}

export async function keysCreate(ctx: CliContext, cmd: Command): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    const permissions = String(opts.permissions).split(',').map((p) => p.trim()).filter(Boolean);
    const bad = permissions.filter((p) => !PERMISSION_PATTERN.test(p));
    if (!permissions.length || bad.length) {
      throw new UsageError(`invalid permission${bad.length > 1 ? 's' : ''}: ${bad.join(', ') || '(none given)'}`, "use names like 'users.read.*', 'customers.*' or '*'");
    }
    const tenant = tenantOf(local, opts);
    const { record, secret } = local.store.keys.create({
      tenant_id: tenant.id,
      name: String(opts.name),
      permissions,
      expires_at: parseExpiry(opts.expires, ctx.now()),
    });
    const result = { id: record.id, secret, tenant: tenant.primary_domain, name: record.name, permissions: record.permissions };
    const globals = globalOptions(cmd);
    const format = outputFormat(ctx, globals);
    if (format === 'table') {
      ctx.streams.stdout.write(`Created key ${result.id} for ${result.tenant}\nSecret: ${secret}   (shown only now)\nPermissions: ${permissions.join(', ')}\n`);
    } else await renderValue(ctx.streams, result, format, globals.query);
  });
}

export async function keysList(ctx: CliContext, cmd: Command): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    const tenants = new Map(local.store.tenants.list().map((t) => [t.id, t.primary_domain]));
    const tenantId = opts.tenant ? tenantOf(local, opts).id : undefined;
    const rows = local.store.keys.list(tenantId).map((k) => keyRow(k, tenants));
    await printList(ctx, cmd, rows, ['id', 'tenant', 'name', 'permissions', 'expires_at', 'revoked_at']);
  });
}

export async function keysRevoke(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withLocal(ctx, cmd, async (local) => {
    if (!local.store.keys.revoke(id)) throw new CliError(`no access key '${id}'`, EXIT.notFound, "see 'confctl admin keys list'");
    const tenants = new Map(local.store.tenants.list().map((t) => [t.id, t.primary_domain]));
    await print(ctx, cmd, keyRow(local.store.keys.get(id) as AccessKeyRecord, tenants));
  });
}

export async function seed(ctx: CliContext, cmd: Command): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    if (!opts.demo && opts.users === undefined && opts.customers === undefined) {
      throw new UsageError('say what to seed: --demo, or --users N and/or --customers N');
    }
    const users = opts.users === undefined ? 0 : wholeNumber('--users', opts.users);
    const customers = opts.customers === undefined ? 0 : wholeNumber('--customers', opts.customers);
    const tenant = tenantOf(local, opts);
    const result: Row = { tenant: tenant.primary_domain };
    if (opts.demo) result.demo = seedDemo(local.store, tenant.id, { mediaDir: local.layout.mediaDir });
    if (users || customers) Object.assign(result, seedBulk(local.store, tenant.id, { users, customers }));
    local.store.optimize();
    await print(ctx, cmd, result);
  });
}
