/**
 * The command reference as man pages (roff, section 1): `man confctl-users-list`. The same parts
 * as the Markdown pages; no date or version in the title line, so the pages change only when the
 * commands do.
 */
import { type ExitCodeNote, GENERAL_EXIT_CODES } from '../exit-codes.js';
import type { NoteBlock } from './help-text.js';
import type { CommandDoc, Term } from './model.js';

/** The page's name: `confctl-users-list`. */
const pageName = (path: readonly string[]) => ['confctl', ...path].join('-');

/** This page's file in man/: `confctl-users-list.1`. */
export const manFile = (path: readonly string[]) => `${pageName(path)}.1`;

/**
 * Text as roff shows it literally: backslashes and hyphens escaped (a plain `-` may print as a
 * hyphen that a pasted option would not survive), a leading `.` or `'` kept from being read as a
 * request, and anything beyond ASCII as a Unicode escape (troff reads bytes, not UTF-8).
 */
const roff = (text: string) =>
  text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^[.']/, '\\&$&')
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);

const bold = (text: string) => `\\fB${roff(text)}\\fR`;

const verbatim = (lines: readonly string[]) => ['.PP', '.RS 4', '.nf', ...lines.map(roff), '.fi', '.RE'];

function notes(paragraphs: readonly NoteBlock[][]): string[] {
  return paragraphs.flatMap((blocks) => blocks.flatMap((b) => (b.verbatim ? verbatim(b.lines) : ['.PP', ...b.lines.map(roff)])));
}

const termSection = (title: string, items: readonly Term[]) => (items.length ? [`.SH ${title}`, ...items.flatMap((t) => ['.TP', bold(t.term), roff(t.description)])] : []);

const codes = (notesOf: readonly ExitCodeNote[]) => notesOf.flatMap((n) => ['.TP', bold(String(n.code)), roff(n.meaning)]);

/** The command's own codes, then those of every command. */
function exitStatus(doc: CommandDoc): string[] {
  const own = doc.exitCodes.length ? ['.PP', 'This command:', ...codes(doc.exitCodes), '.PP', 'Every command:'] : [];
  return ['.SH EXIT STATUS', ...own, ...codes(GENERAL_EXIT_CODES)];
}

const reference = (path: readonly string[]) => `${bold(pageName(path))}(1)`;

/** One command's man page. */
export function manPage(doc: CommandDoc): string {
  const seeAlso = [...(doc.path.length ? [doc.path.slice(0, -1)] : []), ...doc.subcommands.map((s) => s.path)];
  const lines = [
    `.TH "${roff(pageName(doc.path).toUpperCase())}" "1" "" "confctl" "confctl manual"`,
    '.nh',
    '.ad l',
    '.SH NAME',
    `${roff(pageName(doc.path))} \\- ${roff(doc.description)}`,
    '.SH SYNOPSIS',
    bold(doc.usage),
    '.SH DESCRIPTION',
    '.PP',
    roff(doc.description),
    ...notes(doc.notes),
    ...termSection('ARGUMENTS', doc.arguments),
    ...(doc.subcommands.length ? ['.SH COMMANDS', ...doc.subcommands.flatMap((s) => ['.TP', reference(s.path), roff(s.description)])] : []),
    ...termSection('OPTIONS', doc.options),
    ...termSection('GLOBAL OPTIONS', doc.globalOptions),
    ...(doc.examples.length ? ['.SH EXAMPLES', ...verbatim(doc.examples.map((e) => `$ ${e}`))] : []),
    ...exitStatus(doc),
    ...(seeAlso.length ? ['.SH SEE ALSO', seeAlso.map(reference).join(', ')] : []),
  ];
  return `${lines.join('\n')}\n`;
}
