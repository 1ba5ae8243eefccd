/**
 * What the exit codes mean, in one place that `--help` and the command reference (docs/commands/,
 * man/) both read: the codes every command shares (decisions §9), and the codes a command
 * declares for itself (`wait`'s 9 and 124, `plan --detailed-exitcode`'s 2).
 */
import type { Command } from 'commander';
import { EXIT } from './errors.js';

/** One exit code and when it happens. */
export interface ExitCodeNote {
  code: number;
  meaning: string;
}

/** The codes of every command (decisions §9). */
export const GENERAL_EXIT_CODES: readonly ExitCodeNote[] = [
  { code: EXIT.ok, meaning: 'success' },
  { code: EXIT.unexpected, meaning: 'unexpected error, or a 5xx from the service' },
  { code: EXIT.usage, meaning: 'usage: bad flags, arguments or input; a declined confirmation; a body refused before sending' },
  { code: EXIT.auth, meaning: 'authentication or permission (401)' },
  { code: EXIT.notFound, meaning: 'not found (404)' },
  { code: EXIT.conflict, meaning: 'conflict (409)' },
  { code: EXIT.validation, meaning: 'validation (400) by the service' },
  { code: EXIT.rateLimited, meaning: 'still rate limited (429) after retries' },
  { code: EXIT.network, meaning: 'network error or timeout' },
  { code: EXIT.interrupted, meaning: 'interrupted (Ctrl-C)' },
];

const declared = new WeakMap<Command, readonly ExitCodeNote[]>();

/** `Exit codes:` and one aligned `  CODE  MEANING` line per code, as help text. */
export function exitCodesText(notes: readonly ExitCodeNote[], footer?: string): string {
  const width = Math.max(...notes.map((n) => String(n.code).length));
  const lines = notes.map((n) => `  ${String(n.code).padEnd(width)}  ${n.meaning}`);
  return `\nExit codes:\n${lines.join('\n')}${footer ? `\n${footer}` : ''}\n`;
}

/** Where the codes every command shares are listed, for a command's own list. */
const OTHERS = "Other codes as for every command ('confctl --help').";

/**
 * Declares the exit codes `cmd` gives a meaning of its own: its `--help` lists them, and the
 * reference reads them back (`declaredExitCodes`).
 */
export function exitCodes(cmd: Command, notes: readonly ExitCodeNote[]): Command {
  declared.set(cmd, notes);
  return cmd.addHelpText('after', exitCodesText(notes, OTHERS));
}

/** The codes `cmd` declared with `exitCodes` (none: only the general ones). */
export function declaredExitCodes(cmd: Command): readonly ExitCodeNote[] {
  return declared.get(cmd) ?? [];
}
