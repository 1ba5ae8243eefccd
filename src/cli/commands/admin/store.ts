/**
 * The store an `admin webhooks|events|meeting-links|roles|departments|invitations|conferences|recordings …` command works on: the SQLite data
 * directory, or the PostgreSQL database of `--database` (else `CONFCTL_DATABASE_URL` unless
 * `--data`; see `databaseUrl`). The commands are written once over the async `DataStore`, and
 * the changes of src/admin run on it as units (src/admin/change.ts); the PostgreSQL side is
 * loaded only when a database is given, so the SQLite path never loads pg.
 */
import type { Command } from 'commander';
import type { DataStore } from '../../../store/port.js';
import type { TenantRecord } from '../../../store/types.js';
import type { CliContext } from '../../context.js';
import { databaseUrl, type Opts, tenantOf, withLocal } from './local.js';

/** An opened store with what the admin commands need beside it. */
export interface AdminStore {
  store: DataStore;
  /** The tenant of `--tenant` (primary or alias domain), else the first; a CLI error (exit 4) when there is none. */
  tenantOf(opts: Opts): Promise<TenantRecord>;
  /** Where recording files go: `--media`, else CONFCTL_MEDIA_DIR, else the data directory's `media/` (as `serve` resolves it). */
  mediaDir: string;
}

/**
 * Runs `work` on the command's store and always closes it; admin errors become exit codes. `write`
 * says the command changes data: on PostgreSQL it then opens the database as `serve` does
 * (creating confctl's schema if missing), while reads and `--dry-run` never change it (a database
 * without the schema reads as empty). On SQLite it is `withLocal`, as before.
 */
export async function withStore<T>(ctx: CliContext, cmd: Command, write: boolean, work: (s: AdminStore, opts: Opts) => Promise<T>): Promise<T> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await import('./store-postgres.js')).withDatabaseStore(ctx, cmd, url, write, work);
  return withLocal(ctx, cmd, (local, opts) =>
    work({ store: local.store, tenantOf: (o) => tenantOf(local, o), mediaDir: local.layout.mediaDir }, opts),
  );
}
