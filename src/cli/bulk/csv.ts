/**
 * A small RFC 4180 CSV reader: comma-separated fields, double-quoted fields may hold commas,
 * quotes (written `""`) and line breaks; rows end with LF or CRLF. Each row keeps the physical
 * line it starts on, so errors can name it.
 */

export interface CsvRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  cells: string[];
}

/** Thrown for malformed CSV; `line` is where the problem is. */
export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Parses `text` into rows. Empty lines are skipped; a final line break is optional. */
export function parseCsv(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let cell = '';
      if (text[i] === '"') {
        const quoteLine = line;
        i++;
        for (;;) {
          if (i >= n) throw new CsvError('unterminated quoted field', quoteLine);
          const c = text[i];
          if (c === '"') {
            if (text[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          cell += c;
          i++;
        }
        if (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          throw new CsvError('unexpected text after a closing quote', line);
        }
      } else {
        while (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          if (text[i] === '"') throw new CsvError('a quote inside an unquoted field (quote the whole field and double the quote)', line);
          cell += text[i++];
        }
      }
      cells.push(cell);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '\r') i++;
      if (text[i] === '\n') {
        i++;
        line++;
      }
      break;
    }
    if (!(cells.length === 1 && cells[0] === '')) rows.push({ line: start, cells });
  }
  return rows;
}

/**
 * Rows → objects, keyed by the header row. A dotted header (`address.city`, as `-o csv` writes
 * an address) builds a nested object; empty cells are left out (null on the wire). A row with
 * more cells than the header is an error.
 */
export function csvRecords(text: string): Array<{ line: number; record: Record<string, unknown> }> {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  const names = header.cells.map((h) => h.trim());
  const blank = names.findIndex((h) => !h);
  if (blank >= 0) throw new CsvError(`header column ${blank + 1} has no name`, header.line);
  return rows.map(({ line, cells }) => {
    if (cells.length > names.length) throw new CsvError(`${cells.length} cells but the header names ${names.length} columns`, line);
    const record: Record<string, unknown> = {};
    cells.forEach((cell, c) => {
      if (cell !== '') setPath(record, names[c].split('.'), cell);
    });
    return { line, record };
  });
}

function setPath(target: Record<string, unknown>, path: string[], value: string): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}
