/**
 * The PostgreSQL side of `withStore` (admin-store.ts): `admin webhooks|events|meeting-links|
 * roles|departments|invitations|conferences|recordings|import … --database URL`, and `admin seed
 * --database`. Loaded only when a database is given.
 */
import type { Command } from 'commander';
import * as pgChanges from '../../admin/postgres-changes.js';
import * as pgLifecycle from '../../admin/postgres-lifecycle.js';
import { resolveDataDir, resolveMediaDir } from '../../local/data-dir.js';
import { AdminError } from '../../admin/errors.js';
import { ImportError } from '../../admin/import.js';
import { importRecordsPg } from '../../admin/postgres-import.js';
import { seedBulkPg } from '../../admin/postgres-seed.js';
import type { DataStore } from '../../store/port.js';
import type { PostgresStore } from '../../store/postgres/index.js';
import { maskDatabaseUrl } from '../../store/postgres/pool.js';
import type { TenantRecord } from '../../store/types.js';
import { type CliContext, CliError, EXIT } from '../context.js';
import { connectionFailure, openForAdmin, tenantOf } from './admin-database.js';
import { adminFailure, importFailure, isDryRun, type Opts, plan, print } from './admin-local.js';
import type { AdminChanges, AdminStore } from './admin-store.js';

/** A database without confctl's schema, as the reads see it: no tenant, destination, delivery or link. */
const EMPTY = {
  tenants: { list: async () => [], byDomain: async () => undefined },
  webhookDestinations: { list: async () => [], get: async () => undefined },
  webhookOutbox: { list: async () => [], get: async () => undefined },
  meetingLinks: { list: async () => [], get: async () => undefined },
} as unknown as DataStore;

function changesOf(store: PostgresStore | undefined): AdminChanges {
  const target = (): PostgresStore => {
    // Only a write opens the store; a change without one is a bug in the command.
    if (!store) throw new Error('a change needs the database opened for writing');
    return store;
  };
  return {
    createEvent: (tenantId, input) => pgChanges.createEvent(target(), tenantId, input),
    updateEvent: (tenantId, id, patch) => pgChanges.updateEvent(target(), tenantId, id, patch),
    deleteEvent: (tenantId, id) => pgChanges.deleteEvent(target(), tenantId, id),
    createMeetingLink: (tenantId, input) => pgChanges.createMeetingLink(target(), tenantId, input),
    scheduleMeeting: (tenantId, linkId, booker, start) => pgChanges.scheduleMeeting(target(), tenantId, linkId, booker, start),
    trigger: (tenantId, type, now) => pgChanges.trigger(target(), tenantId, type, now),
    startConference: (tenantId, id, now, dryRun) => pgLifecycle.startConference(target(), tenantId, id, now, dryRun),
    endConference: (tenantId, id, now, dryRun) => pgLifecycle.endConference(target(), tenantId, id, now, dryRun),
    finishRecording: (tenantId, id, options) => pgLifecycle.finishRecording(target(), tenantId, id, options),
    failRecording: (tenantId, id, now, dryRun) => pgLifecycle.failRecording(target(), tenantId, id, now, dryRun),
    importRecords: (tenantId, kind, text, fileName, dryRun) => importRecordsPg(target(), tenantId, kind, text, { fileName, dryRun }),
  };
}

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
  try {
    return await work({ store: data, changes: changesOf(store), tenantOf: (o) => tenantOf(data, o, url), mediaDir }, opts);
  } catch (err) {
    if (err instanceof AdminError) throw adminFailure(err);
    if (err instanceof ImportError) throw importFailure(ctx, err);
    throw connectionFailure(err, url);
  } finally {
    await store?.close();
  }
}

/**
 * `admin seed --database`. Bulk users and customers go into the tenant natively
 * (src/admin/postgres-seed.ts). The demo set is built by the SQLite seeders: into a database
 * without a tenant it is loaded as `serve --database --demo` loads it (built in a scratch data
 * directory and moved in with `admin copy`'s code, with the tenant localhost and an
 * all-permissions key whose secret is printed once); a tenant that has it is skipped, as on
 * SQLite; a tenant without it is refused (exit 5), nothing added.
 */
export async function seedDatabase(ctx: CliContext, cmd: Command, url: string, what: { demo: boolean; users: number; customers: number }): Promise<void> {
  const { DEMO_MARKER_EMAIL, skippedDemo } = await import('../../admin/seed/index.js');
  const { seedPlan } = await import('./admin-setup.js');
  const dryRun = isDryRun(cmd);
  const bulk = what.users > 0 || what.customers > 0;
  await withDatabaseStore(ctx, cmd, url, true, async ({ store, tenantOf, mediaDir }, opts) => {
    const result: Record<string, unknown> = {};
    let tenant: TenantRecord;
    if (what.demo && !opts.tenant && (await store.tenants.list()).length === 0) {
      if (dryRun) {
        const more = bulk ? `, then add ${what.users} generated users and ${what.customers} generated customers to it` : '';
        return plan(ctx, [`would create tenant localhost with the demo data set and an all-permissions key 'admin' (its secret printed once)${more}`]);
      }
      const { loadDemo } = await import('./serve-postgres.js');
      const loaded = await loadDemo(store, url, mediaDir, ctx.env as NodeJS.ProcessEnv);
      if (!loaded.created) throw new CliError('another writer filled the database meanwhile: the demo data set was not added', EXIT.conflict);
      tenant = loaded.created.tenant;
      Object.assign(result, { tenant: tenant.primary_domain, demo: loaded.demo, key_id: loaded.created.key.id, secret: loaded.created.key.secret });
    } else {
      tenant = await tenantOf(opts);
      const hasDemo = what.demo && Boolean(await store.users.findByEmail(tenant.id, DEMO_MARKER_EMAIL));
      if (what.demo && !hasDemo) {
        throw new CliError(
          `the demo data set goes only into an empty database on PostgreSQL; tenant ${tenant.primary_domain} of ${maskDatabaseUrl(url)} has none, and nothing was added`,
          EXIT.conflict,
          "load it into an empty database (confctl admin seed --demo --database URL, or serve --database URL --demo), or seed a data directory and move it in with 'confctl admin copy --from DIR --to URL --replace'",
        );
      }
      if (dryRun) return plan(ctx, seedPlan(tenant, what, hasDemo));
      result.tenant = tenant.primary_domain;
      if (what.demo) result.demo = skippedDemo();
    }
    if (bulk) Object.assign(result, await seedBulkPg(store as PostgresStore, tenant.id, { users: what.users, customers: what.customers }));
    await print(ctx, cmd, result);
  });
}
