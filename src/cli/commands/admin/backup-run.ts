/** Actions of `confctl admin backup|restore` (see src/admin/backup.ts). */
import type { Command } from 'commander';
import { planBackup, planRestore, runBackup, runRestore } from '../../../admin/backup.js';
import { resolveDataDir, resolveMediaDir } from '../../../local/data-dir.js';
import { type CliContext, globalOptions, UsageError } from '../../context.js';
import type { Row } from '../../output/index.js';
import { databaseUrl, print } from './local.js';

/** A PostgreSQL instance (`--database`, or `CONFCTL_DATABASE_URL` without `--data`) is PostgreSQL's tools' to back up: exit 2. */
function refusePostgres(ctx: CliContext, cmd: Command, what: 'backup' | 'restore'): void {
  if (!databaseUrl(ctx, cmd)) return;
  throw new UsageError(
    `admin ${what} works on a SQLite data directory, not on a PostgreSQL database`,
    what === 'backup'
      ? "back the database up with pg_dump (e.g. pg_dump -Fc -f confctl.dump \"$CONFCTL_DATABASE_URL\"), and the media directory with your file tools; to back up a data directory, give --data"
      : "restore a pg_dump archive with pg_restore (e.g. pg_restore --clean --if-exists -d \"$CONFCTL_DATABASE_URL\" confctl.dump); to move a data directory into PostgreSQL, use 'confctl admin copy'",
  );
}

async function report(ctx: CliContext, cmd: Command, work: () => Row): Promise<void> {
  await print(ctx, cmd, work());
}

/** With `--dry-run` the plan is printed and nothing is written. */
export async function backup(ctx: CliContext, cmd: Command): Promise<void> {
  refusePostgres(ctx, cmd, 'backup');
  const opts = cmd.opts<{ data?: string; media?: string; to: string; force?: boolean }>();
  const dryRun = globalOptions(cmd).dryRun;
  const env = ctx.env as NodeJS.ProcessEnv;
  await report(ctx, cmd, () => {
    const dir = resolveDataDir(opts.data, env);
    const plan = planBackup(dir, opts.to, { force: Boolean(opts.force), mediaDir: resolveMediaDir(opts.media, env, dir) });
    if (dryRun) return { dry_run: true, ...plan };
    return { backup: plan.to, ...runBackup(plan, ctx.now()) };
  });
}

export async function restore(ctx: CliContext, cmd: Command): Promise<void> {
  refusePostgres(ctx, cmd, 'restore');
  const opts = cmd.opts<{ data?: string; media?: string; from: string }>();
  const dryRun = globalOptions(cmd).dryRun;
  const env = ctx.env as NodeJS.ProcessEnv;
  await report(ctx, cmd, () => {
    const dir = resolveDataDir(opts.data, env);
    const media = opts.media || env.CONFCTL_MEDIA_DIR;
    const plan = planRestore(opts.from, dir, media);
    if (dryRun) return { dry_run: true, ...plan };
    runRestore(plan);
    const { to, ...rest } = plan;
    return { restored: to, ...rest };
  });
}
