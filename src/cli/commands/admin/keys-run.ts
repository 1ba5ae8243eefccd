/** The actions of `confctl admin keys create|list|revoke`, on a data directory or with `--database` on PostgreSQL. */
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import type { DataStore } from '../../../store/port.js';
import type { AccessKeyRecord } from '../../../store/types.js';
import { CliError, EXIT } from '../../context.js';
import { isPlainText, plan, print, printList } from './local.js';
import { keyRow, parseExpiry, parseGrants } from './setup.js';
import { withStore } from './store.js';

export type KeysCreateOptions = AdminCommon & { tenant?: string; name: string; permissions: string; expires?: string };
export type KeysListOptions = AdminCommon & { tenant?: string };
export type KeysRevokeOptions = AdminCommon & { id: string };

const tenantNames = async (store: DataStore) => new Map((await store.tenants.list()).map((t) => [t.id, t.primary_domain]));

export async function keysCreate(options: KeysCreateOptions, ctx: CliContext): Promise<void> {
  const permissions = parseGrants(options.permissions);
  const expiresAt = parseExpiry(options.expires, ctx.now());
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const tenant = await tenantOf(options);
    if (options.globals.dryRun) {
      const until = expiresAt ? `, expiring ${expiresAt}` : '';
      return plan(ctx, [`would create key '${options.name}' for tenant ${tenant.primary_domain} with permissions ${permissions.join(', ')}${until}`]);
    }
    const { record, secret } = await store.keys.create({ tenant_id: tenant.id, name: options.name, permissions, expires_at: expiresAt });
    const result = { id: record.id, secret, tenant: tenant.primary_domain, name: record.name, permissions: record.permissions, expires_at: record.expires_at };
    if (isPlainText(ctx, options.globals)) {
      const until = record.expires_at ? `Expires: ${record.expires_at}\n` : '';
      ctx.streams.stdout.write(`Created key ${result.id} for ${result.tenant}\nSecret: ${secret}   (shown only now)\nPermissions: ${permissions.join(', ')}\n${until}`);
    } else await print(ctx, options.globals, result);
  });
}

export async function keysList(options: KeysListOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, false, async ({ store, tenantOf }) => {
    const tenants = await tenantNames(store);
    const tenantId = options.tenant ? (await tenantOf(options)).id : undefined;
    const rows = (await store.keys.list(tenantId)).map((k) => keyRow(k, tenants));
    await printList(ctx, options.globals, rows, ['id', 'tenant', 'name', 'permissions', 'expires_at', 'revoked_at']);
  });
}

/** Revoked in the store: every `serve` on it refuses the key from its next request on. */
export async function keysRevoke(options: KeysRevokeOptions, ctx: CliContext): Promise<void> {
  const { id } = options;
  await withStore(ctx, options.store, true, async ({ store, flag }) => {
    const notFound = () => new CliError(`no access key '${id}'`, EXIT.notFound, `see 'confctl admin keys list${flag}'`);
    const key = await store.keys.get(id);
    if (!key) throw notFound();
    const tenants = await tenantNames(store);
    if (options.globals.dryRun) {
      const already = key.revoked_at ? ` (already revoked at ${key.revoked_at})` : '';
      return plan(ctx, [`would revoke key ${id} '${key.name}' of tenant ${tenants.get(key.tenant_id)}${already}`]);
    }
    if (!(await store.keys.revoke(id))) throw notFound();
    await print(ctx, options.globals, keyRow((await store.keys.get(id)) as AccessKeyRecord, tenants));
  });
}
