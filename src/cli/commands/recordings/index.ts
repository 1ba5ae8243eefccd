/** `confctl recordings list|url`; `url --download FILE` saves the recording itself. */
import type { Command } from 'commander';
import { EXPIRY_MAX, EXPIRY_MIN, operationMeta } from '../../../contract/operations-meta.js';
import { apiClient, type CliContext, globalOptions, type GlobalOptions, UsageError } from '../../context.js';
import { renderItem, renderValue } from '../../output/index.js';
import { addListOptions, type Flags, idArg, type ListOptions, listOptions, runList, withExample } from '../resource.js';
import { examples } from '../../help.js';
import { consentToOverwriteFile } from '../../overwrite.js';

/** Table columns of recording lists when no --fields is given. */
export const RECORDING_COLUMNS = ['id', 'status', 'file_name', 'started_at', 'stopped_at'];

export interface UrlOptions {
  params: { online_conference_id: string; online_conference_recording_id: string };
  /** Seconds until the URL expires; absent means the server's default (length + 10 min). */
  expiry?: number;
  /** Save the recording to this file (`-` for stdout) instead of printing the URL. */
  download?: string;
  /** `--force`: replace an existing download file without asking. */
  force?: boolean;
  globals: GlobalOptions;
}

export interface RecordingsRunners {
  list(opts: ListOptions): Promise<void>;
  url(opts: UrlOptions): Promise<void>;
}

/** `--expiry`: whole seconds within the operation's bounds. */
export function parseExpiry(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= EXPIRY_MIN && n <= EXPIRY_MAX)) throw new UsageError(`--expiry must be whole seconds from ${EXPIRY_MIN} to ${EXPIRY_MAX}, not '${value}'`);
  return n;
}

/** Prints `{url, expires_at}` (the envelope with `--raw`), or downloads the file with `--download`. */
export async function runUrl(opts: UrlOptions, ctx: CliContext): Promise<void> {
  if (opts.force && opts.download === undefined) throw new UsageError('--force goes with --download FILE');
  const { output, fields, raw } = opts.globals;
  if (opts.download !== undefined && (output || fields || raw)) throw new UsageError('-o, --fields and --raw do not go with --download: the file is saved as it comes');
  await consentToOverwriteFile(ctx, opts.download, '--download', Boolean(opts.force));
  const { client, format } = await apiClient(ctx, opts.globals, 'getRecordingUrl');
  const query = opts.expiry === undefined ? undefined : { expiry: opts.expiry };
  const res = await client.call('getRecordingUrl', { params: opts.params, query });
  if (opts.download !== undefined) {
    const { downloadRecording } = await import('./download.js');
    await downloadRecording(res.data.url, opts.download, ctx, opts.globals.timeoutMs);
    return;
  }
  if (opts.globals.raw) return renderValue(ctx.streams, res, format === 'yaml' ? 'yaml' : 'json', opts.globals.query);
  await renderItem(ctx.streams, res.data, { format, fields: opts.globals.fields, query: opts.globals.query, resource: 'TemporaryUrl' });
}

/** Registers `recordings`; `runF` replaces the runners in parse-only tests. */
export function register(program: Command, ctx: CliContext, runF: Partial<RecordingsRunners> = {}): void {
  const run: RecordingsRunners = {
    list: (o) => runList('listConferenceRecordings', o, ctx, RECORDING_COLUMNS),
    url: (o) => runUrl(o, ctx),
    ...runF,
  };
  const recordings = program
    .command('recordings')
    .description("List a conference's recordings; get a temporary URL or download one")
    .addHelpText('after', examples(operationMeta('listConferenceRecordings').cli.example, operationMeta('getRecordingUrl').cli.example));

  const list = recordings.command('list').description(`${operationMeta('listConferenceRecordings').summary} (status 1 recording, 2 processing, 3 finished, 4 failed)`);
  withExample(addListOptions(list.argument('<conference_id>')), 'listConferenceRecordings').action((id: string, flags: Flags, cmd: Command) =>
    run.list(listOptions(flags, globalOptions(cmd), undefined, { online_conference_id: idArg(id, 'conference_id') })),
  );

  const url = recordings
    .command('url')
    .description(`${operationMeta('getRecordingUrl').summary}; with --download, save the file instead of printing the URL`)
    .argument('<conference_id>')
    .argument('<recording_id>')
    .option('--expiry <seconds>', `seconds until the URL expires (${EXPIRY_MIN}-${EXPIRY_MAX}; default: recording length + 10 minutes)`)
    .option('--download <file>', 'download the recording to FILE (- for stdout); progress on stderr when it is a terminal')
    .option('--force', 'with --download: replace an existing FILE without asking');
  withExample(url, 'getRecordingUrl').action((confId: string, recId: string, flags: { expiry?: string; download?: string; force?: boolean }, cmd: Command) =>
    run.url({
      params: { online_conference_id: idArg(confId, 'conference_id'), online_conference_recording_id: idArg(recId, 'recording_id') },
      expiry: parseExpiry(flags.expiry),
      download: flags.download,
      force: Boolean(flags.force),
      globals: globalOptions(cmd),
    }),
  );
}
