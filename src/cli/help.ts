/** Help text in one format: every command's `--help` ends with at least one example. */
import { exitCodesText, GENERAL_EXIT_CODES } from './exit-codes.js';

/** `Example:` (or `Examples:`) and one `  $ LINE` per command line, for `addHelpText('after', ...)`. */
export function examples(...lines: string[]): string {
  return `\n${lines.length > 1 ? 'Examples' : 'Example'}:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** The end of `confctl --help`: everyday examples, where to try them, where the manual is, the exit codes. */
export function programHelp(): string {
  return `${examples(
    "confctl users list --filter 'email~@acme.com' --sort -created_at",
    'confctl customers create --first-name Ada --last-name Lovelace --email ada@example.com',
    "confctl customers list --all -o json | jq -r '.[].email'",
    'confctl serve --demo',
  )}
Try it locally: 'confctl serve --demo' runs a local instance with demo data and saves its key as
the profile 'local' (made active if no profile is); try the examples from another terminal.

Every command's --help has examples. The manual: 'man confctl' (one page per command, such as
'man confctl-users-list'), or docs/commands/ in the repository.
${exitCodesText(GENERAL_EXIT_CODES)}`;
}
