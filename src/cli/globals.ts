/**
 * Which of the program's global options each command takes. The options are declared once on the
 * program (so they may stand before or after the command's name), but a command's help lists only
 * those this table gives it, and `checkGlobals` rejects any other one given on the command line
 * (exit 2) before the command runs: no command accepts a flag it would ignore. Environment
 * variables are not options and are never checked here. Every command must have a row: a test
 * walks the whole command tree and fails on a command without one.
 */
import type { Command, Option } from 'commander';
import { UsageError } from './errors.js';

/** A global option by its commander attribute name (`--base-url` → `baseUrl`). */
export type GlobalName = 'profile' | 'output' | 'fields' | 'query' | 'raw' | 'timeout' | 'baseUrl' | 'verbose' | 'dryRun' | 'showSecret';

/** Calls the API with a profile's key: which profile, where, how long, what to log. */
const ACCESS: GlobalName[] = ['profile', 'baseUrl', 'timeout', 'verbose'];
/** Prints a result: format, selected fields and (where registered) a `--query` expression. */
const OUTPUT: GlobalName[] = ['output', 'fields', 'query'];
/** Reads from the API and can print the whole envelope. */
const API_READ: GlobalName[] = [...ACCESS, ...OUTPUT, 'raw'];
/** Writes through the API: `--dry-run` prints the request as a curl line instead of sending it. */
const API_WRITE: GlobalName[] = [...API_READ, 'dryRun', 'showSecret'];
/** Changes local state (a data directory, the profiles): `--dry-run` prints a plan. */
const PLAN: GlobalName[] = ['dryRun'];

/** Every runnable command, by its path after `confctl`. */
export const COMMAND_GLOBALS: Readonly<Record<string, readonly GlobalName[]>> = {
  'users list': API_READ,
  'users create': API_WRITE,
  'users get': API_READ,
  'users update': API_WRITE,
  'users accounts': API_READ,
  'users connected-accounts': API_READ,
  'customers list': API_READ,
  'customers get': API_READ,
  'customers create': API_WRITE,
  'customers update': API_WRITE,
  'conferences list': API_READ,
  'conferences create': API_WRITE,
  'conferences get': API_READ,
  'conferences update': API_WRITE,
  'conferences delete': API_WRITE,
  'conferences attendees list': API_READ,
  'conferences attendees add': API_WRITE,
  'conferences attendees remove': API_WRITE,
  'conferences attendees join-link': API_WRITE,
  'recordings list': API_READ,
  'recordings url': API_READ,
  'events get': API_READ,
  'wait conference': [...ACCESS, ...OUTPUT],
  'wait recording': [...ACCESS, ...OUTPUT],
  'wait user': [...ACCESS, ...OUTPUT],
  /** `--from-profile` names the source's profile: no `--profile` or `--base-url`. */
  mirror: ['timeout', 'verbose', ...OUTPUT],
  /** Reads through the API and writes local files: no output format. */
  export: ACCESS,
  /** A plan prints as a diff (table), json or yaml: not a list, so no `--fields` or `--raw`. */
  plan: [...ACCESS, 'output', 'query'],
  apply: [...ACCESS, 'output', 'dryRun', 'showSecret'],
  'sync users': [...ACCESS, 'output', 'dryRun', 'showSecret'],
  'sync customers': [...ACCESS, 'output', 'dryRun', 'showSecret'],
  'profile add': ['baseUrl', ...PLAN],
  'profile list': OUTPUT,
  'profile use': PLAN,
  'profile show': ['profile', ...OUTPUT],
  'profile remove': PLAN,
  'profile names': [],
  login: ['baseUrl', 'timeout', 'verbose'],
  serve: [],
  'admin init': [...OUTPUT, ...PLAN],
  'admin tenants add': [...OUTPUT, ...PLAN],
  'admin tenants list': OUTPUT,
  'admin keys create': [...OUTPUT, ...PLAN],
  'admin keys list': OUTPUT,
  'admin keys revoke': [...OUTPUT, ...PLAN],
  'admin roles list': OUTPUT,
  'admin departments list': OUTPUT,
  'admin invitations list': OUTPUT,
  'admin seed': [...OUTPUT, ...PLAN],
  'admin conferences start': [...OUTPUT, ...PLAN],
  'admin conferences end': [...OUTPUT, ...PLAN],
  'admin recordings finish': OUTPUT,
  'admin recordings fail': [...OUTPUT, ...PLAN],
  'admin import': [...OUTPUT, ...PLAN],
  'admin backup': [...OUTPUT, ...PLAN],
  'admin restore': [...OUTPUT, ...PLAN],
  'admin clock show': OUTPUT,
  'admin clock set': OUTPUT,
  'admin clock advance': OUTPUT,
  'admin copy': [...OUTPUT, ...PLAN],
  'admin snapshot save': OUTPUT,
  'admin snapshot restore': OUTPUT,
  'admin snapshot list': OUTPUT,
  'admin snapshot delete': OUTPUT,
  'admin events create': [...OUTPUT, ...PLAN],
  'admin events update': [...OUTPUT, ...PLAN],
  'admin events reschedule': [...OUTPUT, ...PLAN],
  'admin events delete': [...OUTPUT, ...PLAN],
  'admin meeting-links create': [...OUTPUT, ...PLAN],
  'admin meeting-links list': OUTPUT,
  'admin meeting-links schedule': [...OUTPUT, ...PLAN],
  'admin webhooks add': [...OUTPUT, ...PLAN],
  'admin webhooks list': OUTPUT,
  'admin webhooks remove': [...OUTPUT, ...PLAN],
  'admin webhooks rotate-secret': [...OUTPUT, ...PLAN],
  'admin webhooks deliveries': OUTPUT,
  'admin webhooks redeliver': [...OUTPUT, ...PLAN],
  'admin webhooks trigger': [...OUTPUT, ...PLAN],
  'admin faults add': [...OUTPUT, ...PLAN],
  'admin faults list': OUTPUT,
  'admin faults remove': [...OUTPUT, ...PLAN],
  'admin faults clear': [...OUTPUT, ...PLAN],
  /** `-o table|ndjson` only: deliveries stream as rows or JSON lines. */
  'webhooks listen': ['output'],
  'webhooks verify': [],
  api: [...ACCESS, 'query', 'raw', 'dryRun', 'showSecret'],
  doctor: [...ACCESS, ...OUTPUT],
  /** The profile, base URL and timeout serve the scripts' id completion (`completion SHELL --ids NOUN`). */
  completion: ['profile', 'baseUrl', 'timeout'],
  version: [],
};

/** The command's path after `confctl`, e.g. `admin keys create`. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The globals `cmd` takes; none for a command group or a command without a row. */
export function globalsOf(cmd: Command): readonly GlobalName[] {
  return COMMAND_GLOBALS[commandPath(cmd)] ?? [];
}

/** What help shows of the program's options under `cmd`: only the globals it takes. */
export function applicableGlobalOptions(cmd: Command, options: readonly Option[]): Option[] {
  const allowed = globalsOf(cmd);
  return options.filter((o) => allowed.includes(o.attributeName() as GlobalName));
}

const flagOf = (o: Option) => o.long ?? o.short ?? o.name();

/**
 * Rejects (exit 2) every global option given on the command line that `action` does not take,
 * and `--show-secret` without `--dry-run`. Called once, before any command runs.
 */
export function checkGlobals(program: Command, action: Command): void {
  const allowed = globalsOf(action);
  const given = program.options.filter((o) => program.getOptionValueSource(o.attributeName()) === 'cli');
  const path = commandPath(action);
  for (const option of given) {
    if (option.attributeName() === 'version' || allowed.includes(option.attributeName() as GlobalName)) continue;
    throw new UsageError(`${flagOf(option)} does not apply to 'confctl ${path}'`, `see 'confctl ${path} --help' for the options it takes`);
  }
  if (given.some((o) => o.attributeName() === 'showSecret') && !given.some((o) => o.attributeName() === 'dryRun')) {
    throw new UsageError('--show-secret goes only with --dry-run (it puts the real secret in the printed curl line)');
  }
}
