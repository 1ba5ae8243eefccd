/**
 * Reads the shell examples of the README or a guide in docs/ by the manual's convention (the
 * development guide states it for writers):
 * - every `##`/`###` heading starts a section (a `####` heading stays in its section);
 * - a ```sh block runs; ```sh no-test does not (it is only checked for syntax, `bash -n`), and its
 *   first line is a comment giving the reason, starting with one of REASONS (`# needs Docker …`);
 * - a ```sh data-dir block runs only against a data directory (SQLite), not against PostgreSQL;
 *   its first line is a comment giving the reason too;
 * - other info strings (json, text, none) are not shell; bash/shell/console/zsh are refused, so an
 *   example cannot slip past the test by its fence;
 * - a command ends at a line without a trailing `\`; a trailing `# exit N` (or `# exit N: why`)
 *   is the exit code it must end with, every other command must exit 0;
 * - comment-only lines and blank lines are skipped; here-documents are not supported.
 */

export interface Command {
  /** Document line (1-based) where the command starts. */
  line: number;
  /** The command as written, continuation lines included, trailing comment dropped. */
  text: string;
  expectedExit: number;
}

export interface Block {
  line: number;
  runs: boolean;
  /** The block's text as written (a `no-test` block's is checked for syntax only). */
  source: string;
  /** Runs against a data directory only (`sh data-dir`): skipped when serve runs on PostgreSQL. */
  dataDirOnly: boolean;
  commands: Command[];
}

export interface Section {
  /** The document it is in, as failures name it (`README`, `docs/webhooks.md`). */
  doc: string;
  title: string;
  line: number;
  blocks: Block[];
}

/** A document that breaks the convention: the message names the line and what to write instead. */
export class ConventionError extends Error {}

/** The fence flags, each with what its block's opening comment explains. */
const FLAGS = new Map([
  ['no-test', 'cannot run in a test'],
  ['data-dir', 'runs against a data directory only'],
]);

/** How the reason of a `no-test` block begins: what it needs, or what it does that a test cannot. */
export const REASONS = ['needs', 'starts', 'long-running', 'interactive', 'changes'];

const REFUSED = new Set(['bash', 'shell', 'console', 'zsh', 'shellsession', 'sh-session', 'terminal']);

export function extractSections(markdown: string, doc = 'README'): Section[] {
  const at = (line: number) => `${doc} line ${line}`;
  const lines = markdown.split(/\r?\n/);
  const sections: Section[] = [];
  let current: Section | undefined;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(lines[i]);
    if (fence) {
      const end = closingFence(lines, i, fence[2], at);
      const block = readBlock(fence[3].trim(), lines.slice(i + 1, end), i + 1, at);
      if (block && current) current.blocks.push(block);
      else if (block?.runs) throw new ConventionError(`${at(i + 1)}: a sh block before the first ## heading has no section to run in`);
      i = end;
      continue;
    }
    const heading = /^(#{2,3})\s+(.*)$/.exec(lines[i]);
    if (heading) {
      current = { doc, title: heading[2].trim(), line: i + 1, blocks: [] };
      sections.push(current);
    }
  }
  return sections;
}

/** Names a document line in a convention error. */
type At = (line: number) => string;

function closingFence(lines: string[], open: number, marker: string, at: At): number {
  for (let j = open + 1; j < lines.length; j++) {
    const t = lines[j].trim();
    if (t.length >= marker.length && t === marker[0].repeat(t.length)) return j;
  }
  throw new ConventionError(`${at(open + 1)}: code fence never closed`);
}

/** Answers the block if it is shell (running or not), else undefined. */
function readBlock(info: string, body: string[], fenceLine: number, at: At): Block | undefined {
  const [lang, ...flags] = info.split(/\s+/).filter(Boolean);
  if (lang && REFUSED.has(lang)) {
    throw new ConventionError(`${at(fenceLine)}: \`\`\`${lang} block: write \`\`\`sh (it runs in a test) or \`\`\`sh no-test with the reason`);
  }
  if (lang !== 'sh') return undefined;
  if (flags.length > 1 || (flags.length === 1 && !FLAGS.has(flags[0]))) {
    throw new ConventionError(`${at(fenceLine)}: unknown fence flag '${flags.join(' ')}' (known: ${[...FLAGS.keys()].join(', ')})`);
  }
  const [flag] = flags;
  const first = body.find((l) => l.trim() !== '');
  if (flag && (!first || !/^\s*#\s*\S/.test(first))) {
    throw new ConventionError(`${at(fenceLine + 1)}: a sh ${flag} block starts with a comment saying why it ${FLAGS.get(flag)}`);
  }
  if (flag === 'no-test' && !REASONS.includes(/^\s*#\s*([\w-]+)/.exec(first!)?.[1] ?? '')) {
    throw new ConventionError(`${at(fenceLine + 1)}: a sh no-test block's reason starts with one of: ${REASONS.join(', ')} (e.g. '# needs a PostgreSQL server')`);
  }
  const source = body.join('\n');
  if (flag === 'no-test') return { line: fenceLine, runs: false, source, dataDirOnly: false, commands: [] };
  return { line: fenceLine, runs: true, source, dataDirOnly: flag === 'data-dir', commands: readCommands(body, fenceLine + 1, at) };
}

function readCommands(body: string[], firstLine: number, at: At): Command[] {
  const commands: Command[] = [];
  let pending: { line: number; parts: string[] } | undefined;
  body.forEach((raw, k) => {
    const line = firstLine + k;
    if (!pending && (raw.trim() === '' || raw.trim().startsWith('#'))) return;
    const { code, comment } = splitComment(raw);
    if (/<<[^<]/.test(code)) throw new ConventionError(`${at(line)}: here-documents are not supported in examples; use a fixture file`);
    pending ??= { line, parts: [] };
    if (code.trimEnd().endsWith('\\')) {
      if (comment !== undefined) throw new ConventionError(`${at(line)}: a comment cannot follow a line continuation`);
      pending.parts.push(code.trimEnd());
      return;
    }
    pending.parts.push(code.trimEnd());
    commands.push({ line: pending.line, text: pending.parts.join('\n'), expectedExit: expectedExit(comment, at(line)) });
    pending = undefined;
  });
  if (pending) throw new ConventionError(`${at(pending.line)}: the command's last line ends with a continuation '\\'`);
  return commands;
}

/** `# exit N` or `# exit N: why` at the start of the trailing comment; anything else starting with "exit" is refused. */
function expectedExit(comment: string | undefined, where: string): number {
  const text = comment?.trim() ?? '';
  if (!/^exit\b/i.test(text)) return 0;
  const m = /^exit (\d{1,3})(?::.*)?$/.exec(text);
  if (!m) throw new ConventionError(`${where}: write an expected exit code as '# exit N' or '# exit N: why', not '# ${text}'`);
  return Number(m[1]);
}

/**
 * Splits a shell line at its comment: a `#` outside quotes at the start of a word, as the shell
 * reads it (`${#x}`, `'a # b'`, `a#b` are not comments).
 */
export function splitComment(line: string): { code: string; comment?: string } {
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (c === '\\') {
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
      return { code: line.slice(0, i), comment: line.slice(i + 1) };
    }
  }
  return { code: line };
}
