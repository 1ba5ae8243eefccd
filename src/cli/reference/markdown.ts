/**
 * The command reference as Markdown (docs/commands/), in the manner of gh's manual: one page per
 * command and an index. Usage and examples are ```text blocks, never ```sh: the docs' example
 * runner must not take them for runnable examples.
 */
import { type ExitCodeNote, GENERAL_EXIT_CODES } from '../exit-codes.js';
import type { NoteBlock } from './help-text.js';
import { type CommandDoc, commandLine, type Term } from './model.js';

/** This page's name in docs/commands/: `confctl_users_list.md`. */
export const markdownFile = (path: readonly string[]) => `${['confctl', ...path].join('_')}.md`;

const GENERATED_NOTE = '<!-- Generated from the command tree by `npm run docs:gen`: edit the command\'s help, not this file. -->';

/**
 * Text with what Markdown would read as markup escaped (emphasis, strike-through, HTML tags,
 * links), except inside `code spans` (help writes a few). A `_` inside a word is not emphasis.
 */
function inline(text: string): string {
  return text
    .split(/(`[^`\n]+`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/[\\`*<[\]~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\$&')))
    .join('');
}

/** A line of prose that Markdown must not read as a heading, quote or list item. */
const proseLine = (line: string) =>
  inline(line)
    .replace(/^([#>+-])(?=\s)/, '\\$1')
    .replace(/^(\d+)([.)])(?=\s)/, '$1\\$2');

const fence = (lines: readonly string[]) => ['```text', ...lines, '```'];

function notes(paragraphs: readonly NoteBlock[][]): string[] {
  return paragraphs.flatMap((blocks) => blocks.flatMap((b) => [...(b.verbatim ? fence(b.lines) : b.lines.map(proseLine)), '']));
}

const termList = (title: string, items: readonly Term[]) =>
  items.length ? [`## ${title}`, '', ...items.map((t) => `- \`${t.term}\`: ${inline(t.description)}`), ''] : [];

const cell = (text: string) => inline(text).replace(/\|/g, '\\|');

function exitTable(notesOf: readonly ExitCodeNote[]): string[] {
  return ['| Code | Meaning |', '|---|---|', ...notesOf.map((n) => `| ${n.code} | ${cell(n.meaning)} |`)];
}

/** The command's own codes, then those of every command. */
function exitCodeSection(doc: CommandDoc): string[] {
  const own = doc.exitCodes.length ? ['This command:', '', ...exitTable(doc.exitCodes), '', 'Every command:', ''] : [];
  return ['## Exit codes', '', ...own, ...exitTable(GENERAL_EXIT_CODES), ''];
}

const link = (path: readonly string[]) => `[${commandLine(path)}](${markdownFile(path)})`;

/** One command's page. */
export function markdownPage(doc: CommandDoc): string {
  const lines = [
    GENERATED_NOTE,
    '',
    `# ${commandLine(doc.path)}`,
    '',
    proseLine(doc.description),
    '',
    ...fence([doc.usage]),
    '',
    ...notes(doc.notes),
    ...termList('Arguments', doc.arguments),
    ...(doc.subcommands.length ? ['## Commands', '', ...doc.subcommands.map((s) => `- ${link(s.path)}: ${inline(s.description)}`), ''] : []),
    ...termList('Options', doc.options),
    ...termList('Global options', doc.globalOptions),
    ...(doc.examples.length ? ['## Examples', '', ...fence(doc.examples.map((e) => `$ ${e}`)), ''] : []),
    ...exitCodeSection(doc),
    '## See also',
    '',
    ...(doc.path.length ? [`- ${link(doc.path.slice(0, -1))}`] : []),
    '- [The command reference](README.md)',
  ];
  return `${lines.join('\n')}\n`;
}

/** docs/commands/README.md: every command as a nested list, and the exit codes. */
export function markdownIndex(docs: readonly CommandDoc[]): string {
  const lines = [
    GENERATED_NOTE,
    '',
    '# Command reference',
    '',
    'One page per command, generated from the command tree: what `confctl COMMAND --help` prints,',
    'as a manual. The same pages are man pages (man/, installed with the package):',
    '`man confctl`, `man confctl-users-list`.',
    '',
    ...docs.map((d) => `${'  '.repeat(d.path.length)}- ${link(d.path)}: ${inline(d.description)}`),
    '',
    '## Exit codes',
    '',
    'Every command exits with one of these. Some give codes a meaning of their own, listed on their',
    `pages: ${docs.filter((d) => d.exitCodes.length).map((d) => link(d.path)).join(', ')}.`,
    '',
    ...exitTable(GENERAL_EXIT_CODES),
  ];
  return `${lines.join('\n')}\n`;
}
