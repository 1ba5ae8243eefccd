/** `confctl conferences attendees join-link CONF ATTENDEE [--expiry S] [--open]`. */
import type { Command } from 'commander';
import { JOIN_EXPIRY_DEFAULT, JOIN_EXPIRY_MAX, JOIN_EXPIRY_MIN, operationMeta } from '../../../contract/operations-meta.js';
import { apiClient, type CliContext, globalOptions, type GlobalOptions, UsageError } from '../../context.js';
import { renderItem, renderValue } from '../../output/index.js';
import { idArg, withExample } from '../resource.js';

export interface JoinLinkOptions {
  params: { online_conference_id: string; online_conference_attendee_id: string };
  /** Seconds until the token expires; absent means the server's default (3600). */
  expiry?: number;
  /** Open the join URL in the browser after printing it. */
  open: boolean;
  globals: GlobalOptions;
}

/** `--expiry`: whole seconds within the operation's bounds, checked before any request. */
export function parseJoinExpiry(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= JOIN_EXPIRY_MIN && n <= JOIN_EXPIRY_MAX)) throw new UsageError(`--expiry must be whole seconds from ${JOIN_EXPIRY_MIN} to ${JOIN_EXPIRY_MAX}, not '${value}'`);
  return n;
}

/**
 * Creates the token and prints `{token, join_url, expires_at}` in the chosen format (the envelope
 * with `--raw`). With `--open` it then opens `join_url` in the browser, unless stdout is not a
 * terminal or there is no display: then it says so on stderr and still succeeds (the URL is
 * printed). An opener that fails to start is reported the same way.
 */
export async function runJoinLink(opts: JoinLinkOptions, ctx: CliContext): Promise<void> {
  if (opts.open && opts.globals.dryRun) throw new UsageError('--open does not go with --dry-run: no link is created');
  const { client, format } = await apiClient(ctx, opts.globals, 'createAttendeeJoinToken');
  const body = opts.expiry === undefined ? {} : { expiry: opts.expiry };
  const res = await client.call('createAttendeeJoinToken', { params: opts.params, body });
  if (opts.globals.dryRun) return;
  if (opts.globals.raw) await renderValue(ctx.streams, res, format === 'yaml' ? 'yaml' : 'json', opts.globals.query);
  else await renderItem(ctx.streams, res.data, { format, fields: opts.globals.fields, query: opts.globals.query, resource: 'JoinToken' });
  if (opts.open) await openInBrowser(res.data.join_url, ctx);
}

async function openInBrowser(url: string, ctx: CliContext): Promise<void> {
  const { cannotOpenReason, systemOpener } = await import('../../open-url.js');
  const reason = cannotOpenReason(ctx.streams, ctx.env);
  if (reason !== undefined) {
    ctx.streams.stderr.write(`Could not open a browser (${reason}); open the join URL yourself.\n`);
    return;
  }
  try {
    await (ctx.openUrl ?? systemOpener())(url);
    ctx.streams.stderr.write('Opened the join URL in your browser.\n');
  } catch (err) {
    const detail = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    ctx.streams.stderr.write(`Could not open a browser (${detail}); open the join URL yourself.\n`);
  }
}

/** Adds `join-link` under `conferences attendees`. */
export function addJoinLinkCommand(attendees: Command, run: (opts: JoinLinkOptions) => Promise<void>): void {
  const cmd = attendees
    .command('join-link')
    .description(`${operationMeta('createAttendeeJoinToken').summary}; prints the URL and its expiry`)
    .argument('<conference_id>')
    .argument('<attendee_id>')
    .option('--expiry <seconds>', `seconds until the link expires (${JOIN_EXPIRY_MIN}-${JOIN_EXPIRY_MAX}; default ${JOIN_EXPIRY_DEFAULT})`)
    .option('--open', 'open the join URL in the browser too (not from a pipe or without a display)');
  withExample(cmd, 'createAttendeeJoinToken').action((confId: string, attendeeId: string, flags: { expiry?: string; open?: boolean }, c: Command) =>
    run({
      params: { online_conference_id: idArg(confId, 'conference_id'), online_conference_attendee_id: idArg(attendeeId, 'attendee_id') },
      expiry: parseJoinExpiry(flags.expiry),
      open: Boolean(flags.open),
      globals: globalOptions(c),
    }),
  );
}
