/**
 * Shared pieces of the resource commands (users, customers, later conferences): list flags and
 * the list/get/write runners. Each command parses flags into an options object, then runs.
 */
import type { Command } from 'commander';
import type { ListOperationId } from '../../client/types.js';
import type { ListSpec } from '../../contract/list-specs.js';
import { type OperationId, operationMeta } from '../../contract/operations-meta.js';
import { OPERATION_RESOURCE } from '../../contract/resource-fields.js';
import { readData } from '../body.js';
import { apiClient, type CliContext, type GlobalOptions, globalOptions, UsageError } from '../context.js';
import { parseFilters, parseSort, FILTER_SYNTAX } from '../filter.js';
import type { RowFilter } from '../../contract/list-filter.js';
import { listWriter, renderItem, renderValue, type Row } from '../output/index.js';
import { examples } from '../help.js';

/**
 * Flags as commander hands them over: those a command declares by name typed in `Known`, beside
 * the ones added by list, body and bulk helpers (read by `listOptions`, `bodyFromFlags`, …).
 */
export type Flags<Known extends object = object> = Known & Record<string, unknown>;

type Params = Record<string, string>;
type QueryValues = Record<string, string | number | boolean>;

export interface ListOptions {
  params: Params;
  query: QueryValues;
  /** Follow every page. */
  all: boolean;
  globals: GlobalOptions;
  /** `--filter`s after the first, applied to the rows `--all` streams (with the list they belong to). */
  rowFilters?: { spec: ListSpec; filters: RowFilter[] };
}

export interface ItemOptions {
  params: Params;
  globals: GlobalOptions;
}

export interface WriteOptions extends ItemOptions {
  /** Fields from flags; they override the keys of `--data`. */
  body: Record<string, unknown>;
  /** The raw `--data` argument (JSON, @FILE or -), read when the command runs. */
  data?: string;
}

/** Adds the example from the operation table to a command's help. */
export function withExample(cmd: Command, id: OperationId): Command {
  return cmd.addHelpText('after', examples(operationMeta(id).cli.example));
}

/**
 * Registers `get <ARG>` under `parent` for a single-resource operation whose path parameter is
 * `param` (default: named like the argument); the parsed options go to `run`.
 */
export function addGetCommand(parent: Command, id: OperationId, arg: string, run: (opts: ItemOptions) => Promise<void>, param = arg): void {
  withExample(parent.command('get').description(operationMeta(id).summary).argument(`<${arg}>`), id).action((value: string, _flags, cmd: Command) =>
    run({ params: { [param]: idArg(value, arg) }, globals: globalOptions(cmd) }),
  );
}

/** A positive integer id argument. */
export function idArg(value: string, name: string): string {
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`${name} must be a positive integer, not '${value}'`);
  return value;
}

/** A flag's positive integer, undefined when not given, else exit 2. */
export const positiveInt = (value: unknown, flag: string): number | undefined => {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`${flag} must be a positive integer, not '${text}'`);
  return Number(text);
};

/** Adds `--page`, `--page-size`, `--all` and, with a list spec, `--filter`, `--sort`, `--with-trashed`. */
export function addListOptions(cmd: Command, spec?: ListSpec): Command {
  if (spec) {
    cmd
      .option(
        '--filter <expr>',
        `filter: ${FILTER_SYNTAX}; attributes: ${Object.keys(spec.filters).join(', ')}; repeat with --all to combine (AND)`,
        (v: string, prev: string[] = []) => [...prev, v],
      )
      .option('--sort <[-]attr>', `order by an attribute, '-' for descending: ${spec.orders.join(', ')}`)
      .option('--with-trashed', 'include deleted rows');
  }
  return cmd
    .option('--page <n>', 'page number (from 1)')
    .option('--page-size <n>', `rows per page (1 to ${MAX_PAGE_SIZE}; with --all default ${MAX_PAGE_SIZE})`)
    .option(
      '--all',
      'follow every page, streaming rows as they arrive (json, ndjson, csv, yaml; table waits for the last page); with --query every row is collected in memory first; Ctrl-C stops cleanly',
    );
}

/** The largest page the API serves (decisions); `--all` asks for it unless `--page-size` says otherwise: fewer round trips. */
export const MAX_PAGE_SIZE = 100;

/** List flags → options; no I/O. */
export function listOptions(flags: Record<string, unknown>, globals: GlobalOptions, spec?: ListSpec, params: Params = {}): ListOptions {
  const query: QueryValues = {};
  const exprs = typeof flags.filter === 'string' ? [flags.filter] : ((flags.filter as string[] | undefined) ?? []);
  const filters = spec ? parseFilters(exprs, spec, { all: Boolean(flags.all), raw: globals.raw }) : undefined;
  if (filters?.server) Object.assign(query, filters.server);
  if (spec && typeof flags.sort === 'string') Object.assign(query, parseSort(flags.sort, spec));
  if (flags.withTrashed) query.with_trashed = true;
  const page = positiveInt(flags.page, '--page');
  const size = positiveInt(flags.pageSize, '--page-size');
  if (size !== undefined && size > MAX_PAGE_SIZE) throw new UsageError(`--page-size must be at most ${MAX_PAGE_SIZE}`);
  if (page !== undefined && flags.all) throw new UsageError('--page and --all do not go together');
  if (page !== undefined) query.page_number = page;
  const pageSize = size ?? (flags.all ? MAX_PAGE_SIZE : undefined);
  if (pageSize !== undefined) query.page_size = pageSize;
  const rowFilters = spec && filters?.client.length ? { spec, filters: filters.client } : undefined;
  return { params, query, all: Boolean(flags.all), globals, ...(rowFilters && { rowFilters }) };
}

/** Prints a list page, or with `--all` every page, streamed (see `printAllPages`). */
export async function runList(id: ListOperationId, opts: ListOptions, ctx: CliContext, columns?: string[]): Promise<void> {
  const { client, format } = await apiClient(ctx, opts.globals, id);
  const input = { params: opts.params, query: opts.query };
  if (opts.all) {
    const { printAllPages } = await import('./list-all.js');
    return printAllPages(ctx, client, id, input, { format, fields: opts.globals.fields, columns, raw: opts.globals.raw, query: opts.globals.query, rowFilters: opts.rowFilters, resource: OPERATION_RESOURCE[id] });
  }
  if (opts.globals.raw) return renderValue(ctx.streams, await client.call(id, input), format === 'yaml' ? 'yaml' : 'json', opts.globals.query);
  const writer = listWriter(ctx.streams, { format, fields: opts.globals.fields, columns, query: opts.globals.query, resource: OPERATION_RESOURCE[id] });
  const page = await client.call(id, input);
  await writer.write(page.data);
  await writer.end();
  if (format === 'table' && ctx.streams.stdoutIsTTY && page.total > page.data.length) {
    const hint = page.current_page < page.last_page ? ` Use --page ${page.current_page + 1} or --all for more.` : '';
    ctx.streams.stderr.write(`Rows ${page.from ?? 0}-${page.to ?? 0} of ${page.total} (page ${page.current_page} of ${page.last_page}).${hint}\n`);
  }
}

/** Prints the `data` of a single-resource answer of operation `id` (or the envelope with `--raw`). */
export async function printSingle(
  ctx: CliContext,
  globals: GlobalOptions,
  format: Parameters<typeof renderValue>[2],
  envelope: { data: unknown },
  id?: OperationId,
) {
  if (globals.raw) return renderValue(ctx.streams, envelope, format === 'yaml' ? 'yaml' : 'json', globals.query);
  return renderItem(ctx.streams, envelope.data as Row, { format, fields: globals.fields, query: globals.query, resource: id && OPERATION_RESOURCE[id] });
}

export async function runGet(id: OperationId, opts: ItemOptions, ctx: CliContext): Promise<void> {
  const { client, format } = await apiClient(ctx, opts.globals, id);
  await printSingle(ctx, opts.globals, format, await client.call(id, { params: opts.params }), id);
}

/**
 * Sends a create body: `--data` first, field flags over it, then `complete` (which fills in the
 * keys a complete body needs). Updates go through `edit/update.ts`.
 */
export async function runWrite(id: OperationId, opts: WriteOptions, ctx: CliContext, complete = (body: Record<string, unknown>) => body): Promise<void> {
  const body = complete({ ...(opts.data !== undefined ? await readData(opts.data, ctx.streams.stdin) : {}), ...opts.body });
  const { client, format } = await apiClient(ctx, opts.globals, id);
  const answer = (await client.call(id, { params: opts.params, body })) as { data: unknown };
  // Under --dry-run the client printed the request as a curl line and sent nothing.
  if (!opts.globals.dryRun) await printSingle(ctx, opts.globals, format, answer, id);
}
