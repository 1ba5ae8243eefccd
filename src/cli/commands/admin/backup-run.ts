/** Actions of `confctl admin backup|restore` (see src/admin/backup.ts). */
import { planBackup, planRestore, runBackup, runRestore } from '../../../admin/backup.js';
import { resolveDataDir, resolveMediaDir } from '../../../local/data-dir.js';
import { type CliContext, UsageError } from '../../context.js';
import type { Row } from '../../output/index.js';
import { chooseDatabase } from '../database-choice.js';
import type { AdminCommon, StoreFlags } from './flags.js';
import { print } from './local.js';

export type BackupOptions = AdminCommon & { to: string; force?: boolean };
export type RestoreOptions = AdminCommon & { from: string };

/** A PostgreSQL instance (`--database`, or `CONFCTL_DATABASE_URL` without `--data`) is PostgreSQL's tools' to back up: exit 2. */
function refusePostgres(ctx: CliContext, flags: StoreFlags, what: 'backup' | 'restore'): void {
  if (!chooseDatabase(flags, ctx.env)) return;
  throw new UsageError(
    `admin ${what} works on a SQLite data directory, not on a PostgreSQL database`,
    what === 'backup'
      ? "back the database up with pg_dump (e.g. pg_dump -Fc -f confctl.dump \"$CONFCTL_DATABASE_URL\"), and the media directory with your file tools; to back up a data directory, give --data"
      : "restore a pg_dump archive with pg_restore (e.g. pg_restore --clean --if-exists -d \"$CONFCTL_DATABASE_URL\" confctl.dump); to move a data directory into PostgreSQL, use 'confctl admin copy'",
  );
}

/** With `--dry-run` the plan is printed and nothing is written. */
export async function backup(options: BackupOptions, ctx: CliContext): Promise<void> {
  refusePostgres(ctx, options.store, 'backup');
  const { data, media, dryRun } = options.store;
  const env = ctx.env as NodeJS.ProcessEnv;
  const dir = resolveDataDir(data, env);
  const plan = planBackup(dir, options.to, { force: Boolean(options.force), mediaDir: resolveMediaDir(media, env, dir) });
  const row: Row = dryRun ? { dry_run: true, ...plan } : { backup: plan.to, ...runBackup(plan, ctx.now()) };
  await print(ctx, options.globals, row);
}

export async function restore(options: RestoreOptions, ctx: CliContext): Promise<void> {
  refusePostgres(ctx, options.store, 'restore');
  const { data, media, dryRun } = options.store;
  const env = ctx.env as NodeJS.ProcessEnv;
  const dir = resolveDataDir(data, env);
  const plan = planRestore(options.from, dir, media || env.CONFCTL_MEDIA_DIR);
  if (dryRun) return print(ctx, options.globals, { dry_run: true, ...plan });
  runRestore(plan);
  const { to, ...rest } = plan;
  await print(ctx, options.globals, { restored: to, ...rest });
}
