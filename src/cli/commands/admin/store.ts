/**
 * The store an `admin …` command works on, opened in one place for both backends: the SQLite data
 * directory, or the PostgreSQL database of `--database` (else `CONFCTL_DATABASE_URL` unless
 * `--data`; see `chooseDatabase`). The commands are written once over the async `DataStore`; the
 * PostgreSQL adapter is loaded only when a database is given (through the store's factories), so
 * the SQLite path never loads pg.
 */
import { resolveDataDir, resolveMediaDir } from '../../../local/data-dir.js';
import { findTenant, openLocal, openLocalForPlan } from '../../../local/open.js';
import { databaseHasSchema, maskDatabaseUrl, openDatabaseStore } from '../../../store/index.js';
import type { DataStore } from '../../../store/port.js';
import type { TenantRecord } from '../../../store/types.js';
import { type CliContext, CliError, EXIT } from '../../context.js';
import { chooseDatabase } from '../database-choice.js';
import type { StoreFlags } from './flags.js';
import { followStoredClock } from './stored-clock.js';

/** An opened store with what the admin commands need beside it. */
export interface AdminStore {
  store: DataStore;
  /** Where the data is, fit to print: the data directory, or the database URL with its password masked. */
  where: string;
  /** What a hint's command needs to reach the same store: nothing for a data directory, ` --database URL` for a database. */
  flag: string;
  /** The tenant of `--tenant` (primary or alias domain), else the first; a CLI error (exit 4) when there is none. */
  tenantOf(opts: { tenant?: string }): Promise<TenantRecord>;
  /** Where recording files go: `--media`, else CONFCTL_MEDIA_DIR, else the data directory's `media/` (as `serve` resolves it). */
  mediaDir: string;
}

/** A database without confctl's schema, as the reads see it: no tenant, key, destination, delivery, link, rule, snapshot or manual clock. */
const EMPTY = {
  backend: 'postgres',
  tenants: { list: async () => [], byDomain: async () => undefined, get: async () => undefined },
  keys: { list: async () => [], get: async () => undefined },
  webhookDestinations: { list: async () => [], get: async () => undefined },
  webhookOutbox: { list: async () => [], get: async () => undefined },
  meetingLinks: { list: async () => [], get: async () => undefined },
  faults: { list: async () => [], get: async () => undefined },
  snapshots: { list: async () => [] },
  clock: { get: async () => undefined },
} as unknown as DataStore;

/** Connection failures a wrong URL or a stopped server cause: exit 8, the URL without its password. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', '28P01', '28000', '3D000']);

/** `err` as the CLI reports it when it is a failure to reach the database at `url`; else `err` itself. */
export function connectionFailure(err: unknown, url: string): unknown {
  const code = (err as { code?: string }).code;
  if (code === undefined || !UNREACHABLE.has(code)) return err;
  return new CliError(`cannot reach the database ${maskDatabaseUrl(url)}: ${(err as Error).message}`, EXIT.network, 'check the URL (--database or CONFCTL_DATABASE_URL) and that PostgreSQL is running');
}

interface Opened {
  store: DataStore;
  where: string;
  flag: string;
  mediaDir: string;
  /** The error of a store without a tenant, and what to do. */
  noTenant: [message: string, hint: string];
  /** What an error thrown while working on the store becomes. */
  failure(err: unknown): unknown;
  close(): Promise<void>;
}

/**
 * The store of `flags`, the one place that chooses a backend. A data directory is opened (created
 * if need be) as serve opens it; under `--dry-run` a missing one is planned against as an empty
 * store and not created. A database is opened as serve opens it (confctl's schema created or
 * brought up to date) for a write that is not a dry run; otherwise only when it has the schema,
 * and else it reads as `EMPTY`. An unreachable database is exit 8 with the password masked.
 */
async function openAdminStore(ctx: CliContext, flags: StoreFlags, write: boolean): Promise<Opened> {
  const env = ctx.env as NodeJS.ProcessEnv;
  const url = chooseDatabase(flags, env);
  if (!url) {
    const local = flags.dryRun ? openLocalForPlan(flags.data, env, flags.media) : openLocal(flags.data, env, (m) => ctx.streams.stderr.write(`${m}\n`), flags.media);
    return {
      store: local.store,
      where: local.layout.dir,
      flag: '',
      mediaDir: local.layout.mediaDir,
      noTenant: [`the data directory ${local.layout.dir} has no tenant yet`, "run 'confctl admin init' first"],
      failure: (err) => err,
      close: async () => local.store.close(),
    };
  }
  let store: DataStore | undefined;
  try {
    store = write && !flags.dryRun ? await openDatabaseStore(url, { maxConnections: 2 }) : (await databaseHasSchema(url)) ? await openDatabaseStore(url, { maxConnections: 2 }) : undefined;
  } catch (err) {
    throw connectionFailure(err, url);
  }
  const where = maskDatabaseUrl(url);
  return {
    store: store ?? EMPTY,
    where,
    flag: ' --database URL',
    // As `serve --database` resolves it: recording files live beside no data directory of their own.
    mediaDir: resolveMediaDir(flags.media, env, resolveDataDir(undefined, env)),
    noTenant: [`the database ${where} has no tenant yet`, "add one with 'confctl admin tenants add DOMAIN --database URL'"],
    failure: (err) => connectionFailure(err, url),
    close: async () => store?.close(),
  };
}

/**
 * Runs `work` on the store `flags` name (see `openAdminStore`) and always closes it. `write` says
 * the command changes data; reads and `--dry-run` never change a database. While it runs, the
 * instance clock follows the store's manual clock (`followStoredClock`).
 */
export async function withStore<T>(ctx: CliContext, flags: StoreFlags, write: boolean, work: (s: AdminStore) => Promise<T>): Promise<T> {
  const opened = await openAdminStore(ctx, flags, write);
  const { store, where, flag, mediaDir, noTenant } = opened;
  const tenantOf = async (opts: { tenant?: string }): Promise<TenantRecord> => {
    const tenant = await findTenant(store, opts.tenant);
    if (tenant) return tenant;
    if (opts.tenant) throw new CliError(`no tenant has the domain '${opts.tenant}'`, EXIT.notFound, `see 'confctl admin tenants list${flag}'`);
    throw new CliError(noTenant[0], EXIT.notFound, noTenant[1]);
  };
  try {
    const restoreClock = await followStoredClock(store);
    try {
      return await work({ store, where, flag, tenantOf, mediaDir });
    } finally {
      restoreClock();
    }
  } catch (err) {
    throw opened.failure(err);
  } finally {
    await opened.close();
  }
}
