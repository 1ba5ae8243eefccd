/**
 * The PostgreSQL side of `withStore` (admin-store.ts): `admin webhooks|events|meeting-links|
 * roles|departments|invitations|conferences|recordings|import … --database URL`, and `admin seed
 * --database`. Loaded only when a database is given.
 */
import type { Command } from 'commander';
import { resolveDataDir, resolveMediaDir } from '../../../local/data-dir.js';
import { initFirstTenant } from '../../../local/init.js';
import { AdminError } from '../../../admin/errors.js';
import { ImportError } from '../../../admin/import.js';
import { seedBulk, seedDemo } from '../../../admin/seed/index.js';
import { DEMO_MARKER_EMAIL } from '../../../admin/seed/demo.js';
import type { DataStore } from '../../../store/port.js';
import type { TenantRecord } from '../../../store/types.js';
import { type CliContext, CliError, EXIT } from '../../context.js';
import { connectionFailure, openForAdmin, tenantOf } from './database.js';
import { adminFailure, importFailure, isDryRun, type Opts, plan, print } from './local.js';
import type { AdminStore } from './store.js';
import { followStoredClock } from './stored-clock.js';

/** A database without confctl's schema, as the reads see it: no tenant, destination, delivery, link, snapshot or manual clock. */
const EMPTY = {
  tenants: { list: async () => [], byDomain: async () => undefined },
  webhookDestinations: { list: async () => [], get: async () => undefined },
  webhookOutbox: { list: async () => [], get: async () => undefined },
  meetingLinks: { list: async () => [], get: async () => undefined },
  snapshots: { list: async () => [] },
  clock: { get: async () => undefined },
} as unknown as DataStore;

/**
 * Runs `work` on the store at `url` and always closes it. A write (not under `--dry-run`) opens
 * it as `serve` does, creating or upgrading confctl's schema; otherwise a database without the
 * schema is `EMPTY` and nothing is created. Unreachable is exit 8 with the password masked.
 */
export async function withDatabaseStore<T>(ctx: CliContext, cmd: Command, url: string, write: boolean, work: (s: AdminStore, opts: Opts) => Promise<T>): Promise<T> {
  const opts = cmd.opts<Opts>();
  const store = await openForAdmin(url, write && !isDryRun(cmd));
  const data: DataStore = store ?? EMPTY;
  const env = ctx.env as NodeJS.ProcessEnv;
  // As `serve --database` resolves it: recording files live beside no data directory of their own.
  const mediaDir = resolveMediaDir(opts.media as string | undefined, env, resolveDataDir(undefined, env));
  const restoreClock = await followStoredClock(data);
  try {
    return await work({ store: data, tenantOf: (o) => tenantOf(data, o, url), mediaDir }, opts);
  } catch (err) {
    if (err instanceof AdminError) throw adminFailure(err, cmd);
    if (err instanceof ImportError) throw importFailure(ctx, err);
    throw connectionFailure(err, url);
  } finally {
    restoreClock();
    await store?.close();
  }
}

/**
 * `admin seed --database`: the seeders (src/admin/seed/) on the database's store, into the tenant
 * as on SQLite: the demo set where the tenant lacks it (skipped where it has it), then
 * bulk users and customers. Into a database without a tenant, `--demo` first creates the tenant
 * localhost and an all-permissions key as `serve --database --demo` does, printing its secret once.
 */
export async function seedDatabase(ctx: CliContext, cmd: Command, url: string, what: { demo: boolean; users: number; customers: number }): Promise<void> {
  const { seedPlan } = await import('./setup.js');
  const dryRun = isDryRun(cmd);
  const bulk = what.users > 0 || what.customers > 0;
  await withDatabaseStore(ctx, cmd, url, true, async ({ store, tenantOf, mediaDir }, opts) => {
    let tenant: TenantRecord;
    let created: Record<string, string> = {};
    if (what.demo && !opts.tenant && (await store.tenants.list()).length === 0) {
      if (dryRun) {
        const more = bulk ? `, then add ${what.users} generated users and ${what.customers} generated customers to it` : '';
        return plan(ctx, [`would create tenant localhost with the demo data set and an all-permissions key 'admin' (its secret printed once)${more}`]);
      }
      const first = await initFirstTenant(store);
      if (!first) throw new CliError('another writer filled the database meanwhile: the demo data set was not added', EXIT.conflict);
      tenant = first.tenant;
      created = { key_id: first.key.id, secret: first.key.secret };
    } else {
      tenant = await tenantOf(opts);
      if (dryRun) return plan(ctx, seedPlan(tenant, what, what.demo && Boolean(await store.users.findByEmail(tenant.id, DEMO_MARKER_EMAIL))));
    }
    const result: Record<string, unknown> = { tenant: tenant.primary_domain };
    if (what.demo) result.demo = await seedDemo(store, tenant.id, { mediaDir });
    Object.assign(result, created);
    if (bulk) Object.assign(result, await seedBulk(store, tenant.id, { users: what.users, customers: what.customers }));
    await print(ctx, cmd, result);
  });
}
