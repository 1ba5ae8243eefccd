/**
 * Rendering of resources and lists in the five formats. json prints the `data` array (list) or
 * the `data` object (single); every format but table streams rows as pages arrive (`listWriter`);
 * table fits the width.
 */
import type { OutputFormat } from '../../config/profiles.js';
import type { Streams } from '../context.js';
import type { ResourceName } from '../../contract/resource-fields.js';
import { csvLine, csvRows } from './csv.js';
import { checkFields, csvColumns, labelled } from './fields.js';
import { writeChunk } from './sink.js';
import { pick, type Row } from './values.js';

export type { Row } from './values.js';

export interface RenderOptions {
  format: OutputFormat;
  /** `--fields`: the keys (dotted paths allowed) to keep, in order. */
  fields?: string[];
  /** Table columns when no `--fields` is given (other formats keep every key). */
  columns?: string[];
  /** `--query`: a JMESPath expression over the JSON value; the result prints as json or yaml. */
  query?: string;
  /** The contract's resource printed: checks `--fields`, gives CSV its header, labels codes in tables. */
  resource?: ResourceName;
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const yaml = async (v: unknown) => (await import('./yaml.js')).stringify(v);

/**
 * Prints any JSON value (an envelope for `--raw`, a profile) as json, yaml or one ndjson line;
 * with `query`, the query's result as yaml or json.
 */
export async function renderValue(streams: Streams, value: unknown, format: OutputFormat, query?: string): Promise<void> {
  if (query !== undefined) value = (await import('./query.js')).applyQuery(value, query);
  streams.stdout.write(format === 'yaml' ? await yaml(value) : format === 'ndjson' && query === undefined ? `${JSON.stringify(value)}\n` : json(value));
}

/** Prints one resource. */
export async function renderItem(streams: Streams, item: Row, opts: RenderOptions): Promise<void> {
  checkFields(opts.fields, item, opts.resource);
  const row = pick(item, opts.fields);
  if (opts.query !== undefined) return renderValue(streams, row, opts.format, opts.query);
  switch (opts.format) {
    case 'table':
      streams.stdout.write(await (await import('./table.js')).renderRecord(pick(labelled(item, opts.resource), opts.fields), streams));
      return;
    case 'csv': {
      const columns = csvColumns(opts.fields, item, opts.resource);
      streams.stdout.write(csvLine(columns) + csvRows([row], columns));
      return;
    }
    default:
      return renderValue(streams, row, opts.format);
  }
}

/** Receives a list page by page; `end` finishes the output. */
export interface ListWriter {
  write(rows: readonly Row[]): Promise<void>;
  end(): Promise<void>;
}

/** Indents a pretty-printed JSON value as an element of a pretty-printed array. */
const element = (row: Row) => `  ${JSON.stringify(row, null, 2).replace(/\n/g, '\n  ')}`;

/**
 * A list writer. json, yaml, csv and ndjson write each page as it arrives and hold nothing:
 * json is one array written incrementally (`[`, rows joined by `,\n`, `]`; byte for byte what
 * `JSON.stringify(rows, null, 2)` prints), yaml one block sequence, csv one header. Only table
 * keeps every row until `end`, to size its columns, and so does `--query`, which needs the whole
 * array. Writes wait for stdout to drain; `signal` ends such a wait (Ctrl-C), after which `end`
 * still closes the json array.
 */
export function listWriter(streams: Streams, opts: RenderOptions & { signal?: AbortSignal }): ListWriter {
  const put = (chunk: string) => writeChunk(streams.stdout, chunk, opts.signal);
  const buffered: Row[] = [];
  let count = 0;
  let header: string[] | undefined;
  return {
    async write(rows) {
      if (!rows.length) return;
      if (!count) checkFields(opts.fields, rows[0], opts.resource);
      const table = opts.format === 'table' && opts.query === undefined;
      const picked = rows.map((r) => pick(table ? labelled(r, opts.resource) : r, opts.fields));
      switch (opts.query === undefined ? opts.format : 'query') {
        case 'json':
          await put(`${count ? ',\n' : '[\n'}${picked.map(element).join(',\n')}`);
          break;
        case 'yaml':
          await put(await yaml(picked));
          break;
        case 'ndjson':
          await put(picked.map((r) => `${JSON.stringify(r)}\n`).join(''));
          break;
        case 'csv':
          header ??= csvColumns(opts.fields, rows[0], opts.resource);
          await put((count ? '' : csvLine(header)) + csvRows(picked, header));
          break;
        default:
          buffered.push(...picked);
      }
      count += picked.length;
    },
    async end() {
      if (!count) checkFields(opts.fields, undefined, opts.resource);
      if (opts.query !== undefined) await renderValue(streams, buffered, opts.format, opts.query);
      else if (opts.format === 'json') await put(count ? '\n]\n' : '[]\n');
      else if (opts.format === 'yaml' && !count) await put('[]\n');
      else if (opts.format === 'csv' && !count && (opts.fields || opts.resource)) await put(csvLine(csvColumns(opts.fields, undefined, opts.resource)));
      else if (opts.format === 'table') {
        if (!buffered.length) streams.stderr.write('No results.\n');
        else {
          const columns = opts.fields ?? opts.columns?.filter((c) => c in buffered[0]) ?? Object.keys(buffered[0]);
          await put(await (await import('./table.js')).renderTable(buffered, columns, streams));
        }
      }
    },
  };
}
