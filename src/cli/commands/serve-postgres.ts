import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { initFirstTenantShared } from '../../local/init-shared.js';
import { resolveDataDir, resolveMediaDir } from '../../local/data-dir.js';
import type { CreatedKey } from '../../local/init.js';
import { maskDatabaseUrl, openPostgresStore, type PostgresStore } from '../../store/postgres/index.js';
import type { DataStore } from '../../store/port.js';
import type { TenantRecord } from '../../store/types.js';
import { DEMO_MARKER_EMAIL, type DemoSummary, seedDemo, skippedDemo } from '../../admin/seed/index.js';
import { AdminError } from '../../admin/errors.js';
import { initFirstTenant } from '../../local/init.js';
import { openLocal } from '../../local/open.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliContext } from '../context.js';
import { consentToLocalProfile } from './local-profile.js';
import type { ServeOptions } from './serve.js';
import { CliError, EXIT } from '../errors.js';

/** What `serve --database` opened: the shared store, its signing secret and the media directory. */
export interface SharedInstance {
  store: PostgresStore;
  signingSecret: string;
  mediaDir: string;
  created?: { tenant: TenantRecord; key: CreatedKey };
  demo?: DemoSummary;
  /** Said once started (what --demo did when it could not load the demo). */
  notice?: string;
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
  mkdirSync(mediaDir, { recursive: true, mode: 0o700 });
  hideFromProcessList(url);
  const store = await openPostgresStore(url).catch((err: Error) => {
    throw new CliError(`cannot open the database ${maskDatabaseUrl(url)}: ${err.message.replaceAll(url, maskDatabaseUrl(url))}`, EXIT.network, 'check that PostgreSQL runs there and that the user may connect (CONFCTL_DATABASE_URL or --database)');
  });
  try {
    // As on SQLite: a profile the new key would replace is replaced only with consent, asked before the key exists.
    if (options.profile && !(await store.tenants.list()).length) await consentToLocalProfile(ctx, store, options.profile);
    const loaded = options.demo ? await loadDemo(store, url, mediaDir, env) : undefined;
    const created = loaded?.created ?? (await initFirstTenantShared(store));
    const signingSecret = await store.shared!.signingSecret(() => randomBytes(32).toString('hex'));
    return { store, signingSecret, mediaDir, created, demo: loaded?.demo, notice: loaded?.notice };
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

const OTHER_DATA = 'The database already holds data: --demo added nothing.';

/**
 * `--demo` on PostgreSQL: on an empty database, the demo set is built in a scratch SQLite instance
 * (the seeders are the SQLite store's) and moved in with `admin copy`'s code, its first key with
 * it; a database that already has the demo's first user says so and gets nothing. When another
 * instance fills the empty database first, the copy refuses and this one adds nothing either.
 */
export async function loadDemo(
  store: Pick<DataStore, 'tenants' | 'users'>,
  url: string,
  mediaDir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ demo?: DemoSummary; created?: { tenant: TenantRecord; key: CreatedKey }; notice?: string }> {
  const [first] = await store.tenants.list();
  if (first) return (await store.users.findByEmail(first.id, DEMO_MARKER_EMAIL)) ? { demo: skippedDemo() } : { notice: OTHER_DATA };
  const scratch = mkdtempSync(join(tmpdir(), 'confctl-demo-'));
  try {
    const local = openLocal(scratch, env);
    let created: { tenant: TenantRecord; key: CreatedKey } | undefined;
    let demo: DemoSummary;
    try {
      created = initFirstTenant(local.store)!;
      demo = seedDemo(local.store, created.tenant.id, { mediaDir: local.layout.mediaDir });
    } finally {
      local.store.close();
    }
    const { copyToPostgres } = await import('../../admin/copy.js');
    try {
      await copyToPostgres({ from: scratch, to: url, mediaFrom: local.layout.mediaDir, mediaTo: mediaDir, replace: false });
    } catch (err) {
      if (!(err instanceof AdminError && err.kind === 'conflict')) throw err;
      return { notice: OTHER_DATA };
    }
    return { demo, created };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
