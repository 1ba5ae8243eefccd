/**
 * The command reference's source: every visible command of the program as commander's help
 * describes it (usage, options with their defaults and choices, the text after the options),
 * read from a program with every command module loaded. Nothing here knows a particular command.
 */
import type { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { Command, Help } from 'commander';
import { loadAllCommands, visibleSubcommands } from '../commands/completion/tree.js';
import { type CliContext, createStreams } from '../context.js';
import { declaredExitCodes, type ExitCodeNote } from '../exit-codes.js';
import { createProgram } from '../main.js';
import { type HelpSections, helpSections } from './help-text.js';

/** A term (`-o, --output <format>`, `<user_id>`) and what help says of it. */
export interface Term {
  term: string;
  description: string;
}

export interface CommandDoc extends HelpSections {
  /** The words after `confctl` (`[]` for the program itself). */
  path: string[];
  usage: string;
  description: string;
  arguments: Term[];
  options: Term[];
  /** The program's options this command takes (globals.ts), as its help lists them. */
  globalOptions: Term[];
  subcommands: { path: string[]; description: string }[];
  /** The codes the command gives a meaning of its own (exit-codes.ts). */
  exitCodes: readonly ExitCodeNote[];
}

/** `confctl users list` for `['users', 'list']`. */
export const commandLine = (path: readonly string[]) => ['confctl', ...path].join(' ');

/**
 * A context that makes help the same on every machine: no terminal, no colour, no environment
 * (so no default read from `CONFCTL_*`). Nothing runs, so nothing may open the config or a client.
 */
function referenceContext(): CliContext {
  const quiet = { write: () => true };
  const env = {};
  const never = () => Promise.reject(new Error('the command reference runs no command'));
  return {
    streams: createStreams({ stdout: quiet, stderr: quiet, stdin: Readable.from([]) }, env),
    env,
    now: () => new Date(0),
    config: never,
    createClient: never,
    prompter: { input: never, password: never },
  };
}

/**
 * The text `cmd`'s help prints after (or before) the options: `addHelpText` listens for this event
 * (a Command is an EventEmitter, which commander's types leave out).
 */
function helpTextAt(cmd: Command, event: 'beforeHelp' | 'afterHelp'): string {
  let text = '';
  (cmd as unknown as EventEmitter).emit(event, { error: false, command: cmd, write: (s: string) => (text += s) });
  return text;
}

function commandDoc(cmd: Command, path: string[]): CommandDoc {
  const help: Help = cmd.createHelp();
  const options = help.visibleOptions(cmd).map((o) => ({ term: help.optionTerm(o), description: help.optionDescription(o) }));
  const globals = path.length ? help.visibleGlobalOptions(cmd).map((o) => ({ term: help.optionTerm(o), description: help.optionDescription(o) })) : [];
  const args = help.visibleArguments(cmd).map((a) => ({ term: help.argumentTerm(a), description: help.argumentDescription(a) }));
  return {
    path,
    usage: help.commandUsage(cmd),
    description: help.commandDescription(cmd),
    arguments: args,
    options,
    globalOptions: globals,
    subcommands: visibleSubcommands(cmd).map((c) => ({ path: [...path, c.name()], description: help.subcommandDescription(c) })),
    exitCodes: declaredExitCodes(cmd),
    ...helpSections(`${helpTextAt(cmd, 'beforeHelp')}${helpTextAt(cmd, 'afterHelp')}`),
  };
}

/** Every visible command, the program first, then depth first in the order help lists them. */
export async function commandDocs(): Promise<CommandDoc[]> {
  const ctx = referenceContext();
  const program = createProgram(ctx);
  await loadAllCommands(program, ctx);
  const docs: CommandDoc[] = [];
  const walk = (cmd: Command, path: string[]) => {
    docs.push(commandDoc(cmd, path));
    for (const sub of visibleSubcommands(cmd)) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return docs;
}
