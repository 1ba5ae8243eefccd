/**
 * `--all` of the list commands: every page streamed into the output (one page in memory), a
 * progress line on stderr when it is a terminal, and Ctrl-C stopping cleanly: no more pages,
 * the output closed (the json array gets its `]`), exit 130.
 */
import type { ApiClient } from '../../client/client.js';
import type { CallInput, ListOperationId } from '../../client/types.js';
import { matchesAll, type RowFilter } from '../../contract/list-filter.js';
import type { ListSpec } from '../../contract/list-specs.js';
import type { ResourceName } from '../../contract/resource-fields.js';
import { type CliContext, CliError, type OutputFormat } from '../context.js';
import { EXIT } from '../errors.js';
import { listWriter, renderValue, type Row } from '../output/index.js';
import { writeChunk } from '../output/sink.js';
import { streamPages } from '../output/stream.js';
import { rowProgress } from '../progress/rows.js';

/** 128 + SIGINT: what shells report for a command ended by Ctrl-C. */
export const EXIT_INTERRUPTED = EXIT.interrupted;

export interface AllOptions {
  format: OutputFormat;
  fields?: string[];
  columns?: string[];
  /** `--raw`: each page's whole envelope as one ndjson line. */
  raw: boolean;
  /** The contract's resource of the rows (see `RenderOptions.resource`). */
  resource?: ResourceName;
  /** `--query`: the whole result (rows, or with `--raw` the array of envelopes) is collected first. */
  query?: string;
  /** Filters the server could not apply (it takes one per request): rows must pass them all. */
  rowFilters?: { spec: ListSpec; filters: readonly RowFilter[] };
}

/** Prints every page of list `id`. A failure mid-way leaves the output unfinished (and exits non-zero). */
export async function printAllPages(ctx: CliContext, client: ApiClient, id: ListOperationId, input: CallInput, opts: AllOptions): Promise<void> {
  const { streams } = ctx;
  const stop = new AbortController();
  const unsubscribe = ctx.onInterrupt?.(() => stop.abort(new Error('interrupted')));
  const writer = listWriter(streams, { format: opts.format, fields: opts.fields, columns: opts.columns, query: opts.query, resource: opts.resource, signal: stop.signal });
  const envelopes: unknown[] = [];
  const { rowFilters } = opts;
  const keep = (rows: Row[]) => (rowFilters ? rows.filter((r) => matchesAll(rowFilters.spec, r, rowFilters.filters)) : rows);
  const write = opts.raw
    ? async (page: unknown) => void (opts.query !== undefined ? envelopes.push(page) : await writeChunk(streams.stdout, `${JSON.stringify(page)}\n`, stop.signal))
    : (page: { data: unknown[] }) => writer.write(keep(page.data as Row[]));
  const progress = streams.stderrIsTTY ? rowProgress(streams.stderr, { width: streams.width, now: () => ctx.now().getTime() }) : undefined;
  let result: Awaited<ReturnType<typeof streamPages>>;
  try {
    result = await streamPages(client.paginate(id, { ...input, signal: stop.signal }), write, {
      signal: stop.signal,
      progress,
      hideProgressWhileWriting: streams.stdoutIsTTY && (opts.raw || opts.format !== 'table'),
    });
  } finally {
    unsubscribe?.();
  }
  if (!opts.raw) await writer.end();
  else if (opts.query !== undefined) await renderValue(streams, envelopes, opts.format === 'yaml' ? 'yaml' : 'json', opts.query);
  if (result.interrupted) {
    throw new CliError(`interrupted after ${result.rows} rows`, EXIT_INTERRUPTED, 'the output holds the rows fetched so far, complete and well-formed');
  }
}
