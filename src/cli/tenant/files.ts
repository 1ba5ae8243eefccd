/**
 * Desired-state files as records: YAML (a list of mappings), JSON (an array), NDJSON or CSV
 * (users and customers; dotted columns as `-o csv` writes them). Each record keeps its file and
 * line, and can name the line of any key inside it, so every problem points at its place. No I/O.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { type BulkFormat, parseRecords } from '../bulk/records.js';
import { KINDS, type Kind, type Problem, type Record_ } from './model.js';
import { yamlValues } from './yaml-values.js';

export interface SourceFile {
  name: string;
  text: string;
}

export type FileFormat = 'yaml' | BulkFormat;

/** A record as read, with the line of a dotted path inside it (the record's own line when not found). */
export interface RawRecord {
  value: unknown;
  file: string;
  line: number;
  lineOf: (path: string) => number;
}

const KIND_FILE = /^(users|customers|conferences)(?:[._-][^/\\]*)?\.(ya?ml|json|ndjson|jsonl|csv)$/i;

/** The kind and format a file name says (`users.yaml`, `customers-eu.csv`), else undefined. */
export function fileKind(base: string): { kind: Kind; format: FileFormat } | undefined {
  const m = KIND_FILE.exec(base);
  if (!m) return undefined;
  const ext = m[2].toLowerCase();
  const format: FileFormat = ext === 'yml' || ext === 'yaml' ? 'yaml' : ext === 'jsonl' ? 'ndjson' : (ext as FileFormat);
  return { kind: m[1].toLowerCase() as Kind, format };
}

export const KIND_FILE_HINT = `name each file after its kind: ${KINDS.map((k) => `${k}.yaml`).join(', ')} (or .json, .ndjson, .csv for users and customers)`;

/** The node naming a dotted path below `root` (a key's own node, where it is written), stopping at the deepest found. */
function nodeAt(root: Node, path: string[]): Node {
  let at: unknown = root;
  let found: Node = root;
  for (const seg of path) {
    if (isMap(at)) {
      const pair = at.items.find((p) => isScalar(p.key) && String(p.key.value) === seg);
      if (!pair) break;
      found = pair.key as Node;
      at = pair.value;
    } else if (isSeq(at) && /^\d+$/.test(seg) && at.items[Number(seg)]) {
      found = at.items[Number(seg)] as Node;
      at = found;
    } else break;
  }
  return found;
}

/** The records of a YAML file as the `yaml` package reads it: its errors and every line exact, and slow (yaml-values.ts). */
function documentRecords(file: SourceFile, problems: Problem[]): RawRecord[] {
  const counter = new LineCounter();
  const doc = parseDocument(file.text, { lineCounter: counter, uniqueKeys: false });
  const lineAt = (offset: number | undefined) => (offset === undefined ? 1 : counter.linePos(offset).line);
  if (doc.errors.length) {
    for (const e of doc.errors) problems.push({ file: file.name, line: e.linePos?.[0].line, message: `not valid YAML: ${e.message.split('\n')[0]}` });
    return [];
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return [];
  if (!isSeq(root)) {
    problems.push({ file: file.name, line: lineAt(root.range?.[0]), message: 'the file must be a list of records (each starting with "- ")' });
    return [];
  }
  // The whole document at once, so aliases (`*a1`, as `yaml` writes a repeated object) resolve.
  const values = doc.toJS({ maxAliasCount: -1 }) as unknown[];
  return root.items.map((item, i) => {
    const node = item as Node;
    const line = lineAt(node.range?.[0]);
    return {
      value: values[i],
      file: file.name,
      line,
      lineOf: (path: string) => lineAt(nodeAt(node, path.split('.')).range?.[0]),
    };
  });
}

/**
 * The records of a YAML file, read by js-yaml. Their lines are wanted only for a problem: the
 * first one asked for reads the file once more with the `yaml` package (documentRecords), which
 * answers the lines of every record. Text that js-yaml will not read goes to the `yaml` package
 * whole.
 */
function yamlRecords(file: SourceFile, problems: Problem[]): RawRecord[] {
  const read = yamlValues(file.text);
  if (read === undefined) return documentRecords(file, problems);
  if (read.value === null || read.value === undefined) return [];
  // Not a list: the yaml package names the problem and its line.
  if (!Array.isArray(read.value)) return documentRecords(file, problems);
  let placed: RawRecord[] | undefined;
  const place = (i: number): RawRecord | undefined => (placed ??= documentRecords(file, []))[i];
  return read.value.map((value: unknown, i) => ({
    value,
    file: file.name,
    get line() {
      return place(i)?.line ?? 1;
    },
    lineOf: (path: string) => place(i)?.lineOf(path) ?? 1,
  }));
}

/** The records of `file` in `format`; unreadable text is a problem naming its line. */
export function readRecordsOf(file: SourceFile, format: FileFormat, problems: Problem[]): RawRecord[] {
  if (format === 'yaml') return yamlRecords(file, problems);
  try {
    return parseRecords(file.text, format).map(({ line, record }) => ({ value: format === 'csv' ? typedCsv(record) : record, file: file.name, line, lineOf: () => line }));
  } catch (err) {
    const m = /^line (\d+): (.*)$/s.exec((err as Error).message);
    problems.push({ file: file.name, line: m ? Number(m[1]) : undefined, message: m ? m[2] : (err as Error).message });
    return [];
  }
}

/** CSV cells are text: work hours are a JSON cell, `activate` is `true` or `false`. */
export function typedCsv(record: Record_): Record_ {
  const out: Record_ = { ...record };
  for (const [k, v] of Object.entries(out)) {
    if (typeof v !== 'string') continue;
    if ((k === 'activate' || k === 'is_public') && (v === 'true' || v === 'false')) out[k] = v === 'true';
    else if (k === 'work_hours' && v.trimStart().startsWith('{')) {
      try {
        out[k] = JSON.parse(v) as unknown;
      } catch {
        // left as text: validation names it
      }
    }
  }
  return out;
}
