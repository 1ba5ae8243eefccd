/**
 * Runs one request per record with bounded concurrency, prints the results in input order (as
 * soon as every earlier record is done, so csv/ndjson stream), reports failed records and sums up.
 *
 * Exit: 0 when every record succeeded; otherwise the code of the most severe failure, in this
 * order: 3 auth, 1 unexpected/5xx, 8 network, 7 rate limited, 4 not found, 5 conflict,
 * 6 validation, 2 refused before sending (so a run whose failures are all 400s exits 6).
 */
import { writeFile } from 'node:fs/promises';
import { ApiError, type FieldErrors, NetworkError } from '../../client/errors.js';
import { type CliContext, CliError, EXIT, type OutputFormat } from '../context.js';
import { type ExitCode, exitCodeForStatus, fieldLines } from '../errors.js';
import { listWriter, type Row } from '../output/index.js';
import { countBar } from './progress.js';
import type { BulkRecord } from './records.js';

/** A record the API refused, as written to `--errors FILE` (one JSON object per line). */
export interface BulkFailure {
  line: number;
  /** HTTP status; null when no answer came (network) or the failure was local. */
  status: number | null;
  message: string;
  errors?: FieldErrors;
  record: Record<string, unknown>;
}

export interface BulkOptions {
  records: BulkRecord[];
  /** Requests in flight at most. */
  concurrency: number;
  /** Sends one record; answers the resource to print. */
  send: (record: Record<string, unknown>) => Promise<Row>;
  /** Past tense for the summary: `created`, `added`. */
  verb: string;
  errorsFile?: string;
  /** Requests are printed as curl lines by the client; nothing is sent or printed here. */
  dryRun: boolean;
  format: OutputFormat;
  fields?: string[];
  query?: string;
  columns?: string[];
  /** Hints on what the failures have in common (printed after them, one `hint:` line each). */
  hints?: (failures: readonly BulkFailure[]) => string[];
}

const SEVERITY: ExitCode[] = [EXIT.auth, EXIT.unexpected, EXIT.network, EXIT.rateLimited, EXIT.notFound, EXIT.conflict, EXIT.validation, EXIT.usage];

/** The most severe of `codes` (the order of this module's comment); 1 when none is known. */
export const mostSevere = (codes: ReadonlySet<ExitCode | undefined>): ExitCode => SEVERITY.find((c) => codes.has(c)) ?? EXIT.unexpected;

function failureOf({ line, record }: BulkRecord, err: unknown): { failure: BulkFailure; code: ExitCode } {
  if (err instanceof ApiError) return { failure: { line, status: err.status, message: err.message, errors: err.errors, record }, code: exitCodeForStatus(err.status) };
  // Refused before sending (the contract's check): no status, the same field messages.
  if (err instanceof CliError) return { failure: { line, status: null, message: err.message, errors: err.errors, record }, code: err.exitCode };
  const message = err instanceof Error ? err.message : String(err);
  return { failure: { line, status: null, message, record }, code: err instanceof NetworkError ? EXIT.network : EXIT.unexpected };
}

/** Stderr lines for one failure: what and where, then one line per invalid field. */
export function failureLines(f: BulkFailure): string[] {
  return [`line ${f.line}: failed${f.status === null ? '' : ` (${f.status})`}: ${f.message}`, ...fieldLines(f.errors)];
}

export async function runBulk(opts: BulkOptions, ctx: CliContext): Promise<void> {
  const { records } = opts;
  const { streams } = ctx;
  const total = records.length;
  const results = new Array<{ row?: Row; failure?: BulkFailure; code?: ExitCode } | undefined>(total);
  const writer = listWriter(streams, { format: opts.format, fields: opts.fields, columns: opts.columns, query: opts.query });
  const bar = !opts.dryRun && streams.stderrIsTTY ? countBar(streams.stderr, total, streams.width) : undefined;
  let next = 0;
  let flushed = 0;
  let done = 0;
  let failed = 0;

  const flush = async () => {
    const rows: Row[] = [];
    for (; flushed < total && results[flushed]; flushed++) if (results[flushed]!.row) rows.push(results[flushed]!.row!);
    if (rows.length && !opts.dryRun) await writer.write(rows);
  };
  const worker = async () => {
    for (let i = next++; i < total; i = next++) {
      try {
        results[i] = { row: await opts.send(records[i].record) };
      } catch (err) {
        results[i] = failureOf(records[i], err);
        failed++;
      }
      bar?.update(++done, failed);
      await flush();
    }
  };
  // A dry run prints its curl lines in input order.
  const workers = opts.dryRun ? 1 : Math.max(1, Math.min(opts.concurrency, total));
  await Promise.all(Array.from({ length: workers }, worker));
  bar?.done();
  if (opts.dryRun) {
    streams.stderr.write(`dry run: ${total} request${total === 1 ? '' : 's'} printed, nothing sent\n`);
    return;
  }
  await writer.end();

  const failures = results.filter((r) => r?.failure).map((r) => r!.failure!);
  if (opts.errorsFile) {
    await writeFile(opts.errorsFile, failures.map((f) => `${JSON.stringify({ line: f.line, status: f.status, message: f.message, errors: f.errors ?? null, record: f.record })}\n`).join(''));
  } else {
    for (const f of failures) streams.stderr.write(failureLines(f).map((l) => `${l}\n`).join(''));
  }
  for (const hint of opts.hints?.(failures) ?? []) streams.stderr.write(`hint: ${hint}\n`);
  const summary = `${opts.verb} ${total - failures.length}, failed ${failures.length} of ${total}`;
  if (!failures.length) {
    streams.stderr.write(`${summary}\n`);
    return;
  }
  const codes = new Set(results.map((r) => r?.code).filter((c) => c !== undefined));
  throw new CliError(summary, mostSevere(codes), opts.errorsFile ? `failed records written to ${opts.errorsFile}` : 'the failed records are listed above');
}
