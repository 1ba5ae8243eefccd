/** Help text in one format: every command's `--help` ends with at least one example. */

/** `Example:` (or `Examples:`) and one `  $ LINE` per command line, for `addHelpText('after', ...)`. */
export function examples(...lines: string[]): string {
  return `\n${lines.length > 1 ? 'Examples' : 'Example'}:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}
