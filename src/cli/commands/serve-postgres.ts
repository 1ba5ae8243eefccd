import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { initFirstTenantShared } from '../../local/init-shared.js';
import { resolveDataDir, resolveMediaDir } from '../../local/data-dir.js';
import type { CreatedKey } from '../../local/init.js';
import { maskDatabaseUrl, openPostgresStore, type PostgresStore } from '../../store/postgres/index.js';
import type { TenantRecord } from '../../store/types.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../context.js';
import { CliError, EXIT } from '../errors.js';

/** What `serve --database` opened: the shared store, its signing secret and the media directory. */
export interface SharedInstance {
  store: PostgresStore;
  signingSecret: string;
  mediaDir: string;
  created?: { tenant: TenantRecord; key: CreatedKey };
}

/**
 * Opens the PostgreSQL store for `serve` (migrating it under an advisory lock), creates the first
 * tenant and key on an empty database (once, however many instances start together), and reads
 * the instance secret from the database, where the first instance stored it. Recording files live
 * in `--media` (or `CONFCTL_MEDIA_DIR`, else the data directory's `media/`), a directory every
 * instance must share.
 */
export async function openShared(url: string, options: { data?: string; media?: string; demo: boolean }, ctx: CliContext): Promise<SharedInstance> {
  if (options.demo) throw new UsageError('--demo loads into the local SQLite store; load it there and move it with confctl admin copy --to <url>');
  const env = ctx.env as NodeJS.ProcessEnv;
  const mediaDir = resolveMediaDir(options.media, env, resolveDataDir(options.data, env));
  mkdirSync(mediaDir, { recursive: true, mode: 0o700 });
  hideFromProcessList(url);
  const store = await openPostgresStore(url).catch((err: Error) => {
    throw new CliError(`cannot open the database ${maskDatabaseUrl(url)}: ${err.message.replaceAll(url, maskDatabaseUrl(url))}`, EXIT.network, 'check that PostgreSQL runs there and that the user may connect (CONFCTL_DATABASE_URL or --database)');
  });
  try {
    const created = await initFirstTenantShared(store);
    const signingSecret = await store.shared!.signingSecret(() => randomBytes(32).toString('hex'));
    return { store, signingSecret, mediaDir, created };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/**
 * A `--database` URL with a password would show in the process list (`ps`, /proc/PID/cmdline):
 * renaming the process overwrites its command line there. CONFCTL_DATABASE_URL avoids the
 * window before this runs, and the README says to prefer it.
 */
function hideFromProcessList(url: string): void {
  if (process.argv.some((arg) => arg.includes(url)) && new URL(url).password) process.title = 'confctl serve --database ***';
}
