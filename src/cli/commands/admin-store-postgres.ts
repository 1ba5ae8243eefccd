/**
 * The PostgreSQL side of `withStore` (admin-store.ts): `admin webhooks|events|meeting-links …
 * --database URL`. Loaded only when a database is given.
 */
import type { Command } from 'commander';
import * as pgChanges from '../../admin/postgres-changes.js';
import { AdminError } from '../../admin/errors.js';
import type { DataStore } from '../../store/port.js';
import { openPostgresStore, type PostgresStore } from '../../store/postgres/index.js';
import { createPool, maskDatabaseUrl } from '../../store/postgres/pool.js';
import type { TenantRecord } from '../../store/types.js';
import { type CliContext, CliError, EXIT } from '../context.js';
import { connectionFailure } from './admin-database.js';
import { adminFailure, isDryRun, type Opts } from './admin-local.js';
import type { AdminChanges, AdminStore } from './admin-store.js';

/** A database without confctl's schema, as the reads see it: no tenant, destination, delivery or link. */
const EMPTY = {
  tenants: { list: async () => [], byDomain: async () => undefined },
  webhookDestinations: { list: async () => [], get: async () => undefined },
  webhookOutbox: { list: async () => [], get: async () => undefined },
  meetingLinks: { list: async () => [], get: async () => undefined },
} as unknown as DataStore;

/** Whether the database has confctl's schema (without creating it). */
async function hasSchema(url: string): Promise<boolean> {
  const pool = createPool(url, 1);
  try {
    const { rows } = await pool.query<{ present: boolean }>("SELECT to_regclass('confctl_schema') IS NOT NULL AS present");
    return rows[0].present;
  } finally {
    await pool.end();
  }
}

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
  };
}

async function findTenant(store: DataStore, opts: Opts, url: string): Promise<TenantRecord> {
  const tenant = opts.tenant ? await store.tenants.byDomain(String(opts.tenant).toLowerCase()) : (await store.tenants.list())[0];
  if (tenant) return tenant;
  throw new CliError(
    opts.tenant ? `no tenant has the domain '${opts.tenant}'` : `the database ${maskDatabaseUrl(url)} has no tenant yet`,
    EXIT.notFound,
    opts.tenant ? "see 'confctl admin tenants list --database URL'" : "add one with 'confctl admin tenants add DOMAIN --database URL'",
  );
}

/**
 * Runs `work` on the store at `url` and always closes it. A write (not under `--dry-run`) opens
 * it as `serve` does, creating or upgrading confctl's schema; otherwise a database without the
 * schema is `EMPTY` and nothing is created. Unreachable is exit 8 with the password masked.
 */
export async function withDatabaseStore<T>(ctx: CliContext, cmd: Command, url: string, write: boolean, work: (s: AdminStore, opts: Opts) => Promise<T>): Promise<T> {
  const opts = cmd.opts<Opts>();
  let store: PostgresStore | undefined;
  try {
    if ((write && !isDryRun(cmd)) || (await hasSchema(url))) store = await openPostgresStore(url, { maxConnections: 2 });
  } catch (err) {
    throw connectionFailure(err, url);
  }
  const data: DataStore = store ?? EMPTY;
  try {
    return await work({ store: data, changes: changesOf(store), tenantOf: (o) => findTenant(data, o, url) }, opts);
  } catch (err) {
    if (err instanceof AdminError) throw adminFailure(err);
    throw connectionFailure(err, url);
  } finally {
    await store?.close();
  }
}
