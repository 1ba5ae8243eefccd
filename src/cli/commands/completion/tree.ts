/**
 * The command tree for completion scripts, read from the commander program with every command
 * module loaded (slower than a normal start, which is fine for `confctl completion`). The command
 * reference (src/cli/reference/) loads the program the same way.
 */
import type { Command } from 'commander';
import { COMMANDS } from '../../command-table.js';
import type { CliContext } from '../../context.js';
import { idNounOf } from './ids.js';

export interface FlagNode {
  /** Short and long forms, e.g. `['-o', '--output']`. */
  names: string[];
  takesValue: boolean;
  /** Allowed values, or `'profiles'` for saved profile names. */
  values?: string[] | 'profiles';
  description: string;
}

export interface CommandNode {
  /** Space-joined words after `confctl` (`''` for the program, `'users list'`). */
  path: string;
  description: string;
  subcommands: CommandNode[];
  flags: FlagNode[];
  /** Candidates for the first positional argument, if known: fixed, profile names, or ids of a list (`{ ids: 'users' }`). */
  args?: string[] | 'profiles' | { ids: string };
}

/** Arguments that name a saved profile (`profile use|show|remove NAME`). */
const profileArg = (path: string, arg: string | undefined) => path.startsWith('profile ') && arg === 'name';

function idArgs(path: string): { ids: string } | undefined {
  const noun = idNounOf(path);
  return noun ? { ids: noun } : undefined;
}

function node(cmd: Command, path: string): CommandNode {
  const flags: FlagNode[] = cmd.options
    .filter((o) => !o.hidden)
    .map((o) => ({
      names: [o.short, o.long].filter((n): n is string => Boolean(n)),
      takesValue: o.required || o.optional,
      values: o.long === '--profile' ? 'profiles' : o.argChoices?.length ? [...o.argChoices] : undefined,
      description: o.description,
    }));
  // commander's help flag is on every command: offered once, with the program's (global) flags.
  if (!path) flags.push({ names: ['-h', '--help'], takesValue: false, description: 'display help for command' });
  const first = cmd.registeredArguments[0];
  return {
    path,
    description: cmd.description(),
    subcommands: visibleSubcommands(cmd).map((c) => node(c, path ? `${path} ${c.name()}` : c.name())),
    flags,
    args: profileArg(path, first?.name()) ? 'profiles' : first?.argChoices?.length ? [...first.argChoices] : idArgs(path),
  };
}

/** `cmd`'s subcommands as help lists them: hidden ones and commander's implicit `help` left out. */
export function visibleSubcommands(cmd: Command): Command[] {
  return cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden && c.name() !== 'help');
}

/** A command main.ts added by name only, its module not loaded. */
const isPlaceholder = (cmd: Command) => !cmd.commands.length && !cmd.options.length && !cmd.registeredArguments.length;

/**
 * Gives `program` every command of the command table, in the table's order: a placeholder that
 * main.ts left unloaded (or a missing command) is replaced by its module's registration.
 */
export async function loadAllCommands(program: Command, ctx: CliContext): Promise<void> {
  const commands = program.commands as Command[];
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const existing = commands.find((c) => c.name() === name);
    if (existing) commands.splice(commands.indexOf(existing), 1);
    if (existing && !isPlaceholder(existing)) commands.push(existing);
    else (await entry.load()).register(program, ctx);
  }
}

/** The whole program as a tree, every command module loaded. */
export async function commandTree(program: Command, ctx: CliContext): Promise<CommandNode> {
  await loadAllCommands(program, ctx);
  return node(program, '');
}

/** Every node, the program first, depth first. */
export function allNodes(root: CommandNode): CommandNode[] {
  return [root, ...root.subcommands.flatMap(allNodes)];
}

/** Quotes for a POSIX shell (and fish), always. */
export const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
