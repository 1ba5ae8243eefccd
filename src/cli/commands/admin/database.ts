/**
 * `confctl admin tenants|keys … --database URL` (or `CONFCTL_DATABASE_URL`): the commands an
 * operator needs to run an instance on PostgreSQL, through the PostgreSQL store's `DataStore`
 * methods, printing exactly what the SQLite path prints (admin-setup.ts). Loaded only when a
 * database is given, so the SQLite path never loads pg.
 *
 * Writes open the store as `serve --database` does (creating or upgrading confctl's schema);
 * reads and `--dry-run` never change the database: one without confctl's schema reads as empty.
 */
import type { Command } from 'commander';
import { createTenant, initFirstTenant } from '../../../local/init.js';
import { type AccessKeyRecord, databaseHasSchema, type DatabaseStore, maskDatabaseUrl, openDatabaseStore, type TenantRecord } from '../../../store/index.js';
import { type CliContext, CliError, EXIT } from '../../context.js';
import { isDryRun, type Opts, plan, print, printList } from './local.js';
import { followStoredClock } from './stored-clock.js';
import { aliasText, initOn, isPlainText, keyRow, parseExpiry, parseGrants, tenantRow } from './setup.js';

/** What the read side of these commands needs of the store. */
type Reader = Pick<DatabaseStore, 'tenants' | 'keys'>;

/** A database without confctl's schema: no tenant, no key. */
const EMPTY: Reader = {
  tenants: { list: async () => [], byDomain: async () => undefined } as unknown as Reader['tenants'],
  keys: { list: async () => [], get: async () => undefined } as unknown as Reader['keys'],
};

/** Connection failures a wrong URL or a stopped server cause: exit 8, the URL without its password. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', '28P01', '28000', '3D000']);

/** `err` as the CLI reports it when it is a failure to reach the database at `url`; else `err` itself. */
export function connectionFailure(err: unknown, url: string): unknown {
  const code = (err as { code?: string }).code;
  if (code === undefined || !UNREACHABLE.has(code)) return err;
  return new CliError(`cannot reach the database ${maskDatabaseUrl(url)}: ${(err as Error).message}`, EXIT.network, 'check the URL (--database or CONFCTL_DATABASE_URL) and that PostgreSQL is running');
}

/**
 * The store at `url` for an admin command: a write opens it as serve does (the schema created or
 * brought up to date); a read opens it only when the schema is there, and answers undefined
 * otherwise (the caller reads an empty store). Unreachable is exit 8 with the password masked.
 */
export async function openForAdmin(url: string, write: boolean): Promise<DatabaseStore | undefined> {
  try {
    return write || (await databaseHasSchema(url)) ? await openDatabaseStore(url, { maxConnections: 2 }) : undefined;
  } catch (err) {
    throw connectionFailure(err, url);
  }
}

/** Runs `work` on the store at `url` (see `openForAdmin`; without the schema, `EMPTY`) and always closes it. */
async function withDatabase<T>(url: string, write: boolean, work: (store: Reader & Partial<DatabaseStore>) => Promise<T>): Promise<T> {
  const store = await openForAdmin(url, write);
  const restoreClock = store ? await followStoredClock(store) : () => {};
  try {
    return await work(store ?? EMPTY);
  } finally {
    restoreClock();
    await store?.close();
  }
}

/** The tenant of `--tenant`, else the first one; exit 4 naming what to do when there is none. */
export async function tenantOf(store: Pick<DatabaseStore, 'tenants'>, opts: Opts, url: string): Promise<TenantRecord> {
  const tenant = opts.tenant ? await store.tenants.byDomain(String(opts.tenant).toLowerCase()) : (await store.tenants.list())[0];
  if (tenant) return tenant;
  throw new CliError(
    opts.tenant ? `no tenant has the domain '${opts.tenant}'` : `the database ${maskDatabaseUrl(url)} has no tenant yet`,
    EXIT.notFound,
    opts.tenant ? "see 'confctl admin tenants list --database URL'" : "add one with 'confctl admin tenants add DOMAIN --database URL'",
  );
}

/**
 * `admin init --database`: the first tenant and key as `serve --database` makes them on its first
 * start (`initFirstTenant`, once however many start together), the profile asked for first
 * as on a data directory. A database with a tenant is exit 5.
 */
export async function init(ctx: CliContext, cmd: Command, url: string): Promise<void> {
  await withDatabase(url, !isDryRun(cmd), (store) =>
    initOn(ctx, cmd, cmd.opts<Opts>(), {
      where: maskDatabaseUrl(url),
      store,
      hasTenant: async () => (await store.tenants.list()).length > 0,
      create: async (domain) => initFirstTenant(store as DatabaseStore, domain),
      keysHint: "create more keys with 'confctl admin keys create --database URL'",
    }),
  );
}

const tenantNames = async (store: Reader) => new Map((await store.tenants.list()).map((t) => [t.id, t.primary_domain]));

export async function tenantsAdd(ctx: CliContext, cmd: Command, url: string, domain: string): Promise<void> {
  const opts = cmd.opts<Opts>();
  const domains = [domain, ...((opts.alias as string[] | undefined) ?? [])].map((d) => d.toLowerCase());
  const dryRun = isDryRun(cmd);
  await withDatabase(url, !dryRun, async (store) => {
    const taken = (await Promise.all(domains.map(async (d) => ((await store.tenants.byDomain(d)) ? d : undefined)))).filter((d) => d !== undefined);
    if (taken.length) throw new CliError(`domain already in use: ${taken.join(', ')}`, EXIT.conflict);
    if (dryRun) return plan(ctx, [`would create tenant ${domains[0]}${aliasText(domains.slice(1))} with roles Admin, Manager, Member`]);
    let tenant: TenantRecord;
    try {
      tenant = await createTenant(store as DatabaseStore, domains[0], domains.slice(1));
    } catch (err) {
      // Another writer took one of the domains since the check above.
      if ((err as { code?: string }).code === '23505') throw new CliError(`domain already in use: ${domains.join(', ')}`, EXIT.conflict);
      throw err;
    }
    await print(ctx, cmd, tenantRow(tenant));
  });
}

export async function tenantsList(ctx: CliContext, cmd: Command, url: string): Promise<void> {
  await withDatabase(url, false, async (store) => printList(ctx, cmd, (await store.tenants.list()).map(tenantRow), ['id', 'primary_domain', 'aliases', 'created_at']));
}

export async function keysCreate(ctx: CliContext, cmd: Command, url: string): Promise<void> {
  const opts = cmd.opts<Opts>();
  const permissions = parseGrants(opts.permissions);
  const expiresAt = parseExpiry(opts.expires, ctx.now());
  const dryRun = isDryRun(cmd);
  await withDatabase(url, !dryRun, async (store) => {
    const tenant = await tenantOf(store, opts, url);
    if (dryRun) {
      const until = expiresAt ? `, expiring ${expiresAt}` : '';
      return plan(ctx, [`would create key '${String(opts.name)}' for tenant ${tenant.primary_domain} with permissions ${permissions.join(', ')}${until}`]);
    }
    const { record, secret } = await store.keys.create({ tenant_id: tenant.id, name: String(opts.name), permissions, expires_at: expiresAt });
    const result = { id: record.id, secret, tenant: tenant.primary_domain, name: record.name, permissions: record.permissions, expires_at: record.expires_at };
    if (isPlainText(ctx, cmd)) {
      const until = record.expires_at ? `Expires: ${record.expires_at}\n` : '';
      ctx.streams.stdout.write(`Created key ${result.id} for ${result.tenant}\nSecret: ${secret}   (shown only now)\nPermissions: ${permissions.join(', ')}\n${until}`);
    } else await print(ctx, cmd, result);
  });
}

export async function keysList(ctx: CliContext, cmd: Command, url: string): Promise<void> {
  const opts = cmd.opts<Opts>();
  await withDatabase(url, false, async (store) => {
    const tenants = await tenantNames(store);
    const tenantId = opts.tenant ? (await tenantOf(store, opts, url)).id : undefined;
    const rows = (await store.keys.list(tenantId)).map((k) => keyRow(k, tenants));
    await printList(ctx, cmd, rows, ['id', 'tenant', 'name', 'permissions', 'expires_at', 'revoked_at']);
  });
}

/** Revoked in the database: every `serve --database` refuses the key from its next request on. */
export async function keysRevoke(ctx: CliContext, cmd: Command, url: string, id: string): Promise<void> {
  const dryRun = isDryRun(cmd);
  await withDatabase(url, !dryRun, async (store) => {
    const key = await store.keys.get(id);
    if (!key) throw new CliError(`no access key '${id}'`, EXIT.notFound, "see 'confctl admin keys list --database URL'");
    const tenants = await tenantNames(store);
    if (dryRun) {
      const already = key.revoked_at ? ` (already revoked at ${key.revoked_at})` : '';
      return plan(ctx, [`would revoke key ${id} '${key.name}' of tenant ${tenants.get(key.tenant_id)}${already}`]);
    }
    if (!(await store.keys.revoke(id))) throw new CliError(`no access key '${id}'`, EXIT.notFound, "see 'confctl admin keys list --database URL'");
    await print(ctx, cmd, keyRow((await store.keys.get(id)) as AccessKeyRecord, tenants));
  });
}
