/**
 * The confctl program. Start-up stays fast: only commander and this file load up front; the one
 * noun being run is imported (and registers its subcommands) on demand, the rest appear in help
 * as cheap placeholders. Errors become exit codes here and nowhere else.
 */
import { realpathSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { OUTPUT_FORMATS } from '../config/profiles.js';
import { COMMANDS } from './command-table.js';
import { type CliContext, processContext } from './context.js';
import { EXIT, errorLines, exitCodeFor } from './errors.js';
import { programHelp } from './help.js';
import { parseQuery } from './output/query.js';
import { applicableGlobalOptions, checkGlobals } from './globals.js';
import { version } from './version.js';

export { COMMANDS, type CommandModule } from './command-table.js';
export { processContext } from './context.js';

const VALUE_OPTIONS = new Set(['--profile', '-o', '--output', '--fields', '--query', '--timeout', '--base-url']);

/** The top-level command named in `args` (skipping global options and `help`), if any. */
export function commandName(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return args[i + 1];
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-') && a !== 'help') return a;
  }
  return undefined;
}

/**
 * The program with its global options, wired to `ctx`'s streams and never calling process.exit.
 * A command's help lists, and the command accepts, only the global options it takes (globals.ts).
 */
export function createProgram(ctx: CliContext): Command {
  const { streams } = ctx;
  const program: Command = new Command('confctl')
    .description('Manage users, customers and online conferences of a tenant through its HTTP API')
    .version(version(), '-v, --version', 'print the version')
    .option('--profile <name>', 'profile to use (default: CONFCTL_PROFILE, else the active profile)')
    .addOption(new Option('-o, --output <format>', 'output format (default: table on a terminal, else json)').choices(OUTPUT_FORMATS))
    .option('--fields <list>', 'comma-separated fields to print, dotted paths allowed (e.g. id,email,address.city)')
    .option('--raw', 'print the whole response envelope')
    .option('--query <jmespath>', 'JMESPath expression applied to the JSON output, printed as json (or -o yaml); with --all every row is collected in memory first', parseQuery)
    .option('--timeout <seconds>', 'request timeout in seconds (default: 30)')
    .option('--base-url <url>', 'API base URL, overriding the profile')
    .option('--verbose', 'print requests and responses to stderr (secret masked)')
    .option('--dry-run', 'print what would change and change nothing (an API write: its curl command line)')
    .option('--show-secret', 'with --dry-run: put the real key secret in the curl line (default: ****)')
    .configureHelp({
      showGlobalOptions: true,
      helpWidth: streams.width,
      visibleGlobalOptions: (cmd) => applicableGlobalOptions(cmd, program.options.filter((o) => !o.hidden)),
    })
    .configureOutput({
      writeOut: (s) => streams.stdout.write(s),
      writeErr: (s) => streams.stderr.write(s),
      getOutHasColors: () => streams.color,
      getErrHasColors: () => false,
    })
    .addHelpText('after', programHelp())
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .hook('preAction', (_program, action) => checkGlobals(program, action));
  return program;
}

/** Runs confctl with `args` (without node and script) and answers the exit code. */
export async function runCli(args: readonly string[], ctx: CliContext = processContext()): Promise<number> {
  const program = createProgram(ctx);
  /** The command whose action ran, for the hints that name it. */
  let ran: Command | undefined;
  program.hook('preAction', (_program, action) => {
    ran = action;
  });
  try {
    const selected = commandName(args);
    for (const [name, entry] of Object.entries(COMMANDS)) {
      if (name === selected) (await entry.load()).register(program, ctx);
      else program.command(name).description(entry.summary);
    }
    await program.parseAsync([...args], { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    for (const line of errorLines(err, ran)) ctx.streams.stderr.write(`${line}\n`);
    return exitCodeFor(err);
  }
}

/** Runs the process's command line (the bundle's entry, entry.ts, calls this). */
export async function main(): Promise<void> {
  exitQuietlyOnClosedPipe(process.stdout);
  process.exitCode = await runCli(process.argv.slice(2));
}

/** A reader that went away (`confctl users list | head`) ends the program quietly, as in Unix tools. */
function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
}

/** Run directly in development (`npm run dev`: tsx src/cli/main.ts) rather than through the bundle. */
function isEntryPoint(): boolean {
  try {
    return /cli[\\/]main\.[jt]s$/.test(realpathSync(process.argv[1] ?? ''));
  } catch {
    return false;
  }
}

if (isEntryPoint()) await main();
