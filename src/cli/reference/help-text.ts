/**
 * The text a command's help prints after its options, read back into parts: its examples (the
 * lines `examples()` writes, help.ts), its notes, and nothing of an `Exit codes:` list (the
 * reference writes those from exit-codes.ts, where they are declared).
 */

/** A run of note lines: prose (reflowed by the reader) or verbatim (indented in help: kept as is). */
export interface NoteBlock {
  verbatim: boolean;
  lines: string[];
}

export interface HelpSections {
  /** Each command line of the `Example(s):` lists, without its `$ `. */
  examples: string[];
  /** Paragraphs, in the order help prints them. */
  notes: NoteBlock[][];
}

const EXAMPLES = /^Examples?:$/;
const EXAMPLE_LINE = /^ {2}\$ (.*)$/;

/** A paragraph's lines as prose and verbatim runs (a verbatim line is indented). */
function blocks(lines: string[]): NoteBlock[] {
  const out: NoteBlock[] = [];
  for (const line of lines) {
    const verbatim = /^\s/.test(line);
    const text = verbatim ? line.replace(/^ {2}/, '') : line;
    const last = out.at(-1);
    if (last && last.verbatim === verbatim) last.lines.push(text);
    else out.push({ verbatim, lines: [text] });
  }
  return out;
}

export function helpSections(text: string): HelpSections {
  const examples: string[] = [];
  const notes: NoteBlock[][] = [];
  const paragraphs = text
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/^\n+|\s+$/g, ''))
    .filter(Boolean);
  for (const paragraph of paragraphs) {
    const [first, ...rest] = paragraph.split('\n');
    if (first === 'Exit codes:') continue;
    if (EXAMPLES.test(first) && rest.every((l) => EXAMPLE_LINE.test(l))) examples.push(...rest.map((l) => EXAMPLE_LINE.exec(l)![1]));
    else notes.push(blocks([first, ...rest]));
  }
  return { examples, notes };
}
