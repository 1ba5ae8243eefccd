import { randomBytes } from 'node:crypto';
import { initFirstTenant } from '../../../local/init.js';
import { resolveDataDir, resolveMediaDir } from '../../../local/data-dir.js';
import { ensurePrivateDir } from '../../../media/files.js';
import type { CreatedKey } from '../../../local/init.js';
import { databaseHasSchema, type DatabaseStore, maskDatabaseUrl, openDatabaseStore, type TenantRecord } from '../../../store/index.js';
import { type DemoSummary, seedDemo } from '../../../admin/seed/demo.js';
import type { CliContext } from '../../context.js';
import { consentToLocalProfile } from '../local-profile.js';
import type { ServeOptions } from './index.js';
import { CliError, EXIT } from '../../errors.js';

/** What `serve --database` opened: the shared store, its signing secret and the media directory. */
export interface SharedInstance {
  store: DatabaseStore;
  signingSecret: string;
  mediaDir: string;
  created?: { tenant: TenantRecord; key: CreatedKey };
  /** The database had no tenant when this instance started, and another instance created it meanwhile. */
  createdElsewhere: boolean;
  demo?: DemoSummary;
}

/**
 * Opens the PostgreSQL store for `serve` (migrating it under an advisory lock), creates the first
 * tenant and key on an empty database (once, however many instances start together), and reads
 * the instance secret from the database, where the first instance stored it. Recording files live
 * in `--media` (or `CONFCTL_MEDIA_DIR`, else the data directory's `media/`), a directory every
 * instance must share.
 */
export async function openShared(url: string, options: Pick<ServeOptions, 'data' | 'media' | 'demo' | 'profile'>, ctx: CliContext): Promise<SharedInstance> {
  const env = ctx.env as NodeJS.ProcessEnv;
  const mediaDir = resolveMediaDir(options.media, env, resolveDataDir(options.data, env));
  ensurePrivateDir(mediaDir);
  hideFromProcessList(url);
  const unreachable = (err: Error) =>
    new CliError(`cannot open the database ${maskDatabaseUrl(url)}: ${err.message.replaceAll(url, maskDatabaseUrl(url))}`, EXIT.network, 'check that PostgreSQL runs there and that the user may connect (CONFCTL_DATABASE_URL or --database)');
  // As on SQLite: a profile the new key would replace is replaced only with consent, asked before
  // the key exists, and on a database without confctl's schema before the schema is created.
  const fresh = !(await databaseHasSchema(url).catch((err: Error) => Promise.reject(unreachable(err))));
  if (options.profile && fresh) await consentToLocalProfile(ctx, undefined, options.profile);
  const store = await openDatabaseStore(url).catch((err: Error) => {
    throw unreachable(err);
  });
  for (const notice of store.notices) ctx.streams.stderr.write(`warning: ${notice}\n`);
  try {
    const empty = fresh || !(await store.tenants.list()).length;
    if (options.profile && !fresh && empty) await consentToLocalProfile(ctx, store, options.profile);
    const created = await initFirstTenant(store);
    const demo = options.demo ? await loadDemo(store, mediaDir) : undefined;
    const signingSecret = await store.shared.signingSecret(() => randomBytes(32).toString('hex'));
    return { store, signingSecret, mediaDir, created, createdElsewhere: empty && !created, demo };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/**
 * A `--database` URL with a password would show in the process list (`ps`, /proc/PID/cmdline):
 * renaming the process overwrites its command line there. CONFCTL_DATABASE_URL avoids the
 * window before this runs, and docs/instances-and-postgresql.md says to prefer it.
 */
function hideFromProcessList(url: string): void {
  if (process.argv.some((arg) => arg.includes(url)) && new URL(url).password) process.title = 'confctl serve --database ***';
}

/**
 * `--demo` on PostgreSQL, as on SQLite: the demo set goes into the first tenant (the one just
 * created on an empty database), in one transaction under the tenant's seed lock, and its
 * recording files into `mediaDir`; a tenant that has it is left alone (a skipped summary), so
 * instances starting together load it once.
 */
async function loadDemo(store: DatabaseStore, mediaDir: string): Promise<DemoSummary> {
  const [first] = await store.tenants.list();
  return seedDemo(store, first.id, { mediaDir });
}
