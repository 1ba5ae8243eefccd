/** The actions of `confctl admin keys create|list|revoke`, on a data directory or with `--database` on PostgreSQL (database.ts). */
import type { AccessKeyRecord } from '../../../store/types.js';
import { CliError, EXIT } from '../../context.js';
import { type AdminDeps, databaseUrl, isDryRun, plan, print, printList, tenantOf, withLocal } from './local.js';
import { isPlainText, keyRow, parseExpiry, parseGrants } from './setup.js';

export type KeysCreateOptions = { tenant?: string; name: string; permissions: string; expires?: string };
export type KeysListOptions = { tenant?: string };
export type KeysRevokeOptions = { id: string };

export async function keysCreate(options: KeysCreateOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await import('./database.js')).keysCreate(ctx, cmd, url);
  await withLocal(ctx, cmd, async (local) => {
    const permissions = parseGrants(options.permissions);
    const expiresAt = parseExpiry(options.expires, ctx.now());
    const tenant = await tenantOf(local, options);
    if (isDryRun(cmd)) {
      const until = expiresAt ? `, expiring ${expiresAt}` : '';
      return plan(ctx, [`would create key '${options.name}' for tenant ${tenant.primary_domain} with permissions ${permissions.join(', ')}${until}`]);
    }
    const { record, secret } = await local.store.keys.create({ tenant_id: tenant.id, name: options.name, permissions, expires_at: expiresAt });
    const result = { id: record.id, secret, tenant: tenant.primary_domain, name: record.name, permissions: record.permissions, expires_at: record.expires_at };
    if (isPlainText(ctx, cmd)) {
      const until = record.expires_at ? `Expires: ${record.expires_at}\n` : '';
      ctx.streams.stdout.write(`Created key ${result.id} for ${result.tenant}\nSecret: ${secret}   (shown only now)\nPermissions: ${permissions.join(', ')}\n${until}`);
    } else await print(ctx, cmd, result);
  });
}

export async function keysList(options: KeysListOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await import('./database.js')).keysList(ctx, cmd, url);
  await withLocal(ctx, cmd, async (local) => {
    const tenants = new Map((await local.store.tenants.list()).map((t) => [t.id, t.primary_domain]));
    const tenantId = options.tenant ? (await tenantOf(local, options)).id : undefined;
    const rows = (await local.store.keys.list(tenantId)).map((k) => keyRow(k, tenants));
    await printList(ctx, cmd, rows, ['id', 'tenant', 'name', 'permissions', 'expires_at', 'revoked_at']);
  });
}

export async function keysRevoke({ id }: KeysRevokeOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await import('./database.js')).keysRevoke(ctx, cmd, url, id);
  await withLocal(ctx, cmd, async (local) => {
    const key = await local.store.keys.get(id);
    if (!key) throw new CliError(`no access key '${id}'`, EXIT.notFound, "see 'confctl admin keys list'");
    const tenants = new Map((await local.store.tenants.list()).map((t) => [t.id, t.primary_domain]));
    if (isDryRun(cmd)) {
      const already = key.revoked_at ? ` (already revoked at ${key.revoked_at})` : '';
      return plan(ctx, [`would revoke key ${id} '${key.name}' of tenant ${tenants.get(key.tenant_id)}${already}`]);
    }
    if (!(await local.store.keys.revoke(id))) throw new CliError(`no access key '${id}'`, EXIT.notFound, "see 'confctl admin keys list'");
    await print(ctx, cmd, keyRow((await local.store.keys.get(id)) as AccessKeyRecord, tenants));
  });
}
