/**
 * Reads the records of a bulk file: a JSON array, NDJSON or CSV with a header row. The format
 * comes from the extension (`.json`, `.ndjson`/`.jsonl`, `.csv`), else from the content (`[` →
 * JSON array; `{` → NDJSON, or one pretty-printed object; anything else → CSV). `-` is stdin.
 * Any unreadable record is an error naming its line before anything is sent.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { UsageError } from '../errors.js';
import { CsvError, csvRecords } from './csv.js';

/** One record and the 1-based line of the file where it starts. */
export interface BulkRecord {
  line: number;
  record: Record<string, unknown>;
}

export type BulkFormat = 'json' | 'ndjson' | 'csv';

/** The format of `name` by extension, else of `text` by its first character. */
export function detectFormat(name: string, text: string): BulkFormat {
  const ext = extname(name).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  if (ext === '.csv') return 'csv';
  const first = text.trimStart()[0];
  if (first === '[') return 'json';
  if (first === '{') return 'ndjson';
  return 'csv';
}

/**
 * The 1-based line of an index of `text`, by binary search over the line starts (found once):
 * slicing the text for each record made reading a large JSON array quadratic.
 */
function lineFinder(text: string): (index: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (index) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

function asRecord(value: unknown, line: number): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`line ${line}: a record must be a JSON object`);
  return value as Record<string, unknown>;
}

/** The start index of each top-level element of a JSON array (strings and nesting skipped). */
function elementStarts(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let inString = false;
  let expecting = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 1 && expecting && !/\s/.test(c) && c !== ']') {
      starts.push(i);
      expecting = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expecting = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expecting = true;
  }
  return starts;
}

function jsonRecords(text: string): BulkRecord[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the file is not valid JSON: ${(err as Error).message}`);
  }
  const lineAt = lineFinder(text);
  if (!Array.isArray(value)) return [{ line: lineAt(text.search(/\S/)), record: asRecord(value, 1) }];
  const starts = elementStarts(text);
  return value.map((v, i) => {
    const line = lineAt(starts[i] ?? 0);
    return { line, record: asRecord(v, line) };
  });
}

function ndjsonRecords(text: string): BulkRecord[] {
  try {
    const whole: unknown = JSON.parse(text);
    if (whole && typeof whole === 'object' && !Array.isArray(whole)) return jsonRecords(text);
  } catch {
    // several lines: read them one by one below
  }
  return text.split('\n').flatMap((l, i) => {
    if (!l.trim()) return [];
    let value: unknown;
    try {
      value = JSON.parse(l);
    } catch (err) {
      throw new UsageError(`line ${i + 1}: not valid JSON: ${(err as Error).message}`);
    }
    return [{ line: i + 1, record: asRecord(value, i + 1) }];
  });
}

/** Parses `text` as `format` into records with their lines. */
export function parseRecords(text: string, format: BulkFormat): BulkRecord[] {
  const body = text.replace(/^\uFEFF/, '');
  if (format === 'json') return jsonRecords(body);
  if (format === 'ndjson') return ndjsonRecords(body);
  try {
    return csvRecords(body);
  } catch (err) {
    if (err instanceof CsvError) throw new UsageError(`line ${err.line}: ${err.message}`);
    throw err;
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads `--from-file FILE` (`-` for stdin) into records; no records is exit 2. */
export async function readRecords(file: string, stdin: NodeJS.ReadableStream): Promise<BulkRecord[]> {
  let text: string;
  try {
    text = file === '-' ? await readAll(stdin) : await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --from-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const records = parseRecords(text, detectFormat(file === '-' ? '' : file, text)).map(unwrapFailure);
  if (!records.length) throw new UsageError(`no records in ${file === '-' ? 'stdin' : file}`);
  return records;
}

/**
 * A line of an `--errors` file (`{line, status, message, errors, record}`) stands for its record,
 * so the file feeds straight back into `--from-file` once the records are fixed.
 */
function unwrapFailure(r: BulkRecord): BulkRecord {
  const { line, message, record } = r.record;
  const failure = typeof line === 'number' && typeof message === 'string' && 'status' in r.record && record !== null && typeof record === 'object' && !Array.isArray(record);
  return failure ? { ...r, record: record as Record<string, unknown> } : r;
}
