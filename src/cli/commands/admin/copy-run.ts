/** The action of `confctl admin copy` (see src/admin/copy.ts). */
import { statSync } from 'node:fs';
import { type CopyOptions, type CopySummary, copyToPostgres, planCopy } from '../../../admin/copy.js';
import { resolveDataDir, resolveMediaDir } from '../../../local/data-dir.js';
import { type CliContext, outputFormat, UsageError } from '../../context.js';
import type { Row } from '../../output/index.js';
import type { AdminCommon } from './flags.js';
import { plan, print, printList } from './local.js';
import { isPostgresUrl } from '../database-choice.js';
import { connectionFailure } from './store.js';

/** The flags of `admin copy` as commander hands them over. */
export type CopyFlags = AdminCommon & { from: string; to?: string; media?: string; mediaTo?: string; replace?: boolean };

/** The options as copy takes them; the URL from --to, else CONFCTL_DATABASE_URL. */
function copyOptions(ctx: CliContext, opts: CopyFlags): CopyOptions {
  const env = ctx.env as NodeJS.ProcessEnv;
  const to = opts.to ?? (env.CONFCTL_DATABASE_URL || undefined);
  if (to === undefined) throw new UsageError('say which database to copy into: --to postgres://… or CONFCTL_DATABASE_URL');
  if (!isPostgresUrl(to)) throw new UsageError(`${opts.to !== undefined ? '--to' : 'CONFCTL_DATABASE_URL'} must be a PostgreSQL URL (postgres://user@host/db)`);
  if (opts.media !== undefined && !statSync(opts.media, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`--media ${opts.media} is not a directory`, "give the instance's media directory (by default its data directory's media/)");
  }
  return {
    from: opts.from,
    to,
    mediaFrom: resolveMediaDir(opts.media, env, opts.from),
    // Where serve --database looks in this environment without --data and --media.
    mediaTo: resolveMediaDir(opts.mediaTo, env, resolveDataDir(undefined, env)),
    replace: Boolean(opts.replace),
  };
}

const mediaLine = (m: CopySummary['media'], planned: boolean) =>
  m.same
    ? `${planned ? 'would leave the' : 'The'} ${m.files} media files ${planned ? '' : 'stay '}in ${m.to} (the instance's own media directory)`
    : `${planned ? 'would copy' : 'Copied'} ${m.files} media files (${m.bytes} bytes) from ${m.from} to ${m.to}`;

export async function copy(flags: CopyFlags, ctx: CliContext): Promise<void> {
  const options = copyOptions(ctx, flags);
  const { globals } = flags;
  const plain = outputFormat(ctx, globals) === 'table' && !globals.fields && !globals.query;
  let summary: CopySummary;
  try {
    summary = globals.dryRun ? await planCopy(options) : await copyToPostgres(options);
  } catch (err) {
    // Missing media files (`MediaMissing`) pass through as they are: src/cli/errors.ts says them as exit 2.
    throw connectionFailure(err, options.to);
  }
  if (globals.dryRun) {
    if (!plain) return print(ctx, globals, { dry_run: true, ...summary });
    return plan(ctx, [
      ...(summary.replaced ? [`would empty confctl's tables in ${summary.to} first`] : []),
      `would copy ${summary.rows} rows of ${summary.tables.length} tables from ${summary.from} into ${summary.to}, in one transaction`,
      `would store the instance's signing secret as the database's`,
      mediaLine(summary.media, true),
    ]);
  }
  if (!plain) return print(ctx, globals, summary as unknown as Row);
  await printList(ctx, globals, summary.tables.map((t) => ({ ...t })), ['table', 'rows']);
  ctx.streams.stdout.write(
    `Copied ${summary.rows} rows from ${summary.from} into ${summary.to}${summary.replaced ? ' (emptied first)' : ''}, and the signing secret\n${mediaLine(summary.media, false)}\n`,
  );
}
