/**
 * `--from-file` for create commands: the flags, their parsing (no I/O) and the runner that reads
 * the records and sends one request per record through `runBulk`.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../client/client.js';
import type { OperationId } from '../../contract/operations-meta.js';
import { apiClient, type CliContext, type GlobalOptions, UsageError } from '../context.js';
import { consentToOverwriteFile } from '../overwrite.js';
import type { Row } from '../output/index.js';
import { cell } from '../output/values.js';
import { readRecords } from './records.js';
import { type BulkOptions, runBulk } from './run.js';

export interface FromFileOptions {
  /** A path, or `-` for stdin. */
  file: string;
  concurrency: number;
  /** `--errors FILE`: failed records as NDJSON there instead of on stderr. */
  errorsFile?: string;
  /** `--force`: replace an existing `--errors` file without asking. */
  force: boolean;
  globals: GlobalOptions;
}

/** What differs between bulk commands. */
export interface BulkKind {
  /** The operation each record is sent to (its resource is what prints). */
  operation: OperationId;
  verb: string;
  columns?: string[];
  /** Keys a list export holds that the request does not take (`id`, `name`, `*_at`): dropped, so an export re-imports. */
  responseOnly?: readonly string[];
  /** Sends one record; answers the resource to print. */
  send(client: ApiClient, record: Record<string, unknown>): Promise<Row>;
  /** Hints on the failures (see `BulkOptions.hints`). */
  hints?: BulkOptions['hints'];
}

export const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 32;

/** Adds `--from-file`, `--errors` and (when the command sends in parallel) `--concurrency`. */
export function addFromFileOptions(cmd: Command, opts: { concurrency: boolean }): Command {
  cmd
    .option('--from-file <file>', 'one request per record of a JSON array, NDJSON or CSV file (with a header row); - for stdin')
    .option('--errors <file>', 'with --from-file: write the failed records there as NDJSON instead of listing them on stderr')
    .option('--force', 'with --errors: replace an existing FILE without asking');
  if (opts.concurrency) cmd.option('--concurrency <n>', `with --from-file: requests in flight at most (default ${DEFAULT_CONCURRENCY})`);
  return cmd;
}

/** The body flags and `--data` given besides `--from-file` (they do not combine with it). */
export const givenFlags = (body: Record<string, unknown>, flags: Record<string, unknown>): string[] => [
  ...Object.keys(body).map((k) => `--${k.replace(/_/g, '-')}`),
  ...(flags.data !== undefined ? ['--data'] : []),
];

/**
 * The `--from-file` options, or undefined when it is not given. `others` names the flags given
 * besides it (they do not combine with a file); no I/O.
 */
export function fromFileOptions(flags: Record<string, unknown>, globals: GlobalOptions, others: string[], defaultConcurrency = DEFAULT_CONCURRENCY): FromFileOptions | undefined {
  if (typeof flags.fromFile !== 'string') {
    const stray = ['errors', 'concurrency', 'force'].find((k) => flags[k] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --from-file`);
    return undefined;
  }
  if (others.length) throw new UsageError(`--from-file does not go with ${others.join(', ')}`, 'put every field in the file');
  const raw = flags.concurrency;
  if (raw !== undefined && (typeof raw !== 'string' || !/^[1-9]\d*$/.test(raw) || Number(raw) > MAX_CONCURRENCY)) {
    throw new UsageError(`--concurrency must be an integer from 1 to ${MAX_CONCURRENCY}, not '${cell(raw)}'`);
  }
  return {
    file: flags.fromFile,
    concurrency: raw === undefined ? defaultConcurrency : Number(raw),
    errorsFile: typeof flags.errors === 'string' ? flags.errors : undefined,
    force: Boolean(flags.force),
    globals,
  };
}

/** Reads the records (a bad file is exit 2 before anything is sent), then sends them. */
export async function runFromFile(opts: FromFileOptions, kind: BulkKind, ctx: CliContext): Promise<void> {
  await consentToOverwriteFile(ctx, opts.errorsFile, '--errors', opts.force);
  const records = await readRecords(opts.file, ctx.streams.stdin);
  for (const { record } of records) for (const key of kind.responseOnly ?? []) delete record[key];
  const { client, format } = await apiClient(ctx, opts.globals, kind.operation);
  await runBulk(
    {
      records,
      concurrency: opts.concurrency,
      send: (record) => kind.send(client, record),
      verb: kind.verb,
      errorsFile: opts.errorsFile,
      dryRun: opts.globals.dryRun,
      format,
      fields: opts.globals.fields,
      query: opts.globals.query,
      columns: kind.columns,
      hints: kind.hints,
    },
    ctx,
  );
}
