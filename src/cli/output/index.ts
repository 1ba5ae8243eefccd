/**
 * Rendering of resources and lists in the five formats. json prints the `data` array (list) or
 * the `data` object (single); csv and ndjson stream rows as pages arrive; table fits the width.
 */
import type { OutputFormat } from '../../config/profiles.js';
import type { Streams } from '../context.js';
import { csvLine, csvRows } from './csv.js';
import { pick, type Row } from './values.js';

export type { Row } from './values.js';

export interface RenderOptions {
  format: OutputFormat;
  /** `--fields`: the keys (dotted paths allowed) to keep, in order. */
  fields?: string[];
  /** Table columns when no `--fields` is given (other formats keep every key). */
  columns?: string[];
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const yaml = async (v: unknown) => (await import('yaml')).stringify(v);

/** Prints any JSON value (an envelope for `--raw`, a profile) as json, yaml or one ndjson line. */
export async function renderValue(streams: Streams, value: unknown, format: OutputFormat): Promise<void> {
  streams.stdout.write(format === 'yaml' ? await yaml(value) : format === 'ndjson' ? `${JSON.stringify(value)}\n` : json(value));
}

/** Prints one resource. */
export async function renderItem(streams: Streams, item: Row, opts: RenderOptions): Promise<void> {
  const row = pick(item, opts.fields);
  switch (opts.format) {
    case 'table':
      streams.stdout.write(await (await import('./table.js')).renderRecord(row, streams));
      return;
    case 'csv':
      streams.stdout.write(csvLine(Object.keys(row)) + csvRows([row], Object.keys(row)));
      return;
    default:
      return renderValue(streams, row, opts.format);
  }
}

/** Receives a list page by page; `end` finishes the output (json, yaml and table print there). */
export interface ListWriter {
  write(rows: readonly Row[]): Promise<void>;
  end(): Promise<void>;
}

export function listWriter(streams: Streams, opts: RenderOptions): ListWriter {
  const out = streams.stdout;
  const buffered: Row[] = [];
  let header: string[] | undefined;
  return {
    async write(rows) {
      const picked = rows.map((r) => pick(r, opts.fields));
      if (opts.format === 'ndjson') out.write(picked.map((r) => `${JSON.stringify(r)}\n`).join(''));
      else if (opts.format === 'csv') {
        if (!header && picked.length) {
          header = opts.fields ?? Object.keys(picked[0]);
          out.write(csvLine(header));
        }
        if (header) out.write(csvRows(picked, header));
      } else buffered.push(...picked);
    },
    async end() {
      if (opts.format === 'json') out.write(json(buffered));
      else if (opts.format === 'yaml') out.write(buffered.length ? await yaml(buffered) : '[]\n');
      else if (opts.format === 'csv' && !header && opts.fields) out.write(csvLine(opts.fields));
      else if (opts.format === 'table') {
        if (!buffered.length) streams.stderr.write('No results.\n');
        else {
          const columns = opts.fields ?? opts.columns?.filter((c) => c in buffered[0]) ?? Object.keys(buffered[0]);
          out.write(await (await import('./table.js')).renderTable(buffered, columns, streams));
        }
      }
    },
  };
}
