/**
 * Reading an import file into records. The format is detected from the first non-blank
 * character: `[` is a JSON array, anything else NDJSON (one JSON object per line; blank lines
 * skipped).
 *
 * Each record carries the number it is reported under: for NDJSON its 1-based line number in
 * the file; for a JSON array its 1-based position in the array (the "record number"), since a
 * JSON value has no line of its own. `ImportError.unit` says which one a report uses.
 */
import type { FieldErrors } from '../contract/validation.js';

export type ImportFormat = 'json' | 'ndjson';

export interface ImportRecord {
  /** Line number (NDJSON) or record number (JSON array), from 1. */
  line: number;
  value: unknown;
}

/** One bad record: where it is and its Laravel-style field errors. */
export interface ImportRowError {
  line: number;
  errors: FieldErrors;
}

/** Raised when any record is bad; nothing has been written. */
export class ImportError extends Error {
  readonly fileName: string;
  readonly format: ImportFormat;
  /** What `line` counts in `rows`: file lines (NDJSON, and JSON syntax errors) or array records. */
  readonly unit: 'line' | 'record';
  readonly rows: ImportRowError[];

  constructor(fileName: string, format: ImportFormat, unit: 'line' | 'record', rows: ImportRowError[]) {
    const where = rows
      .slice(0, 10)
      .map((r) => r.line)
      .join(', ');
    const more = rows.length > 10 ? ', …' : '';
    super(`${fileName}: ${rows.length} invalid ${rows.length === 1 ? unit : `${unit}s`} (${unit} ${where}${more}); nothing was imported.`);
    this.name = 'ImportError';
    this.fileName = fileName;
    this.format = format;
    this.unit = unit;
    this.rows = rows;
  }

  /** One readable line per error message: `file:line: attribute: message`. */
  details(): string[] {
    const label = this.unit === 'record' ? '#' : ':';
    return this.rows.flatMap((r) =>
      Object.entries(r.errors).flatMap(([attr, messages]) => messages.map((m) => `${this.fileName}${label}${r.line}: ${attr}: ${m}`)),
    );
  }
}

function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Parses an import file. A JSON array with a syntax error throws `ImportError` at once (its line
 * computed from the parser's position when known); malformed NDJSON lines come back in `bad`, so
 * they are reported together with the other records' errors.
 */
export function readRecords(text: string, fileName: string): { format: ImportFormat; records: ImportRecord[]; bad: ImportRowError[] } {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      const position = /position (\d+)/.exec(String((error as Error).message));
      const line = position ? lineAt(body, Number(position[1])) : 1;
      throw new ImportError(fileName, 'json', 'line', [{ line, errors: { file: ['The file must be valid JSON.'] } }]);
    }
    if (!Array.isArray(parsed)) {
      throw new ImportError(fileName, 'json', 'line', [{ line: 1, errors: { file: ['The file must be a JSON array or NDJSON.'] } }]);
    }
    return { format: 'json', records: (parsed as unknown[]).map((value, i) => ({ line: i + 1, value })), bad: [] };
  }
  const records: ImportRecord[] = [];
  const bad: ImportRowError[] = [];
  body.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      records.push({ line: i + 1, value: JSON.parse(raw) });
    } catch {
      bad.push({ line: i + 1, errors: { record: ['The record must be valid JSON.'] } });
    }
  });
  return { format: 'ndjson', records, bad };
}
