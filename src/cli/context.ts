/**
 * What every command gets: the streams, environment, clock, config, API client factory and
 * prompter (`CliContext`), plus the helpers to read global options, pick the output format and
 * open an API client for the active profile. Cheap to import: heavy modules load on use.
 */
import type { Command } from 'commander';
import type { ApiClient, ClientOptions } from '../client/client.js';
import type { Sleep } from '../client/pacing.js';
import { curlCommand } from '../client/curl.js';
import type { Env, OutputFormat, ProfileReader, ProfileStore } from '../config/profiles.js';
import type { OperationId } from '../contract/operations-meta.js';
import { instanceClock } from '../contract/clock.js';
import type { UrlOpener } from './open-url.js';
import { OUTPUT_FORMATS } from '../config/profiles.js';
import type { Settings } from '../config/settings.js';
import { CliError, EXIT, UsageError } from './errors.js';

export { CliError, EXIT, UsageError } from './errors.js';
export type { OutputFormat } from '../config/profiles.js';

interface Out {
  write(chunk: string): unknown;
}

/** The one place that knows about the terminal. Commands never touch `process.*` directly. */
export interface Streams {
  stdout: Out;
  stderr: Out;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  /** Progress lines are drawn on stderr only when it is a terminal. */
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Prompts are allowed only when stdin and stdout are both terminals. */
  canPrompt: boolean;
  /** Colour on stdout: `FORCE_COLOR` wins, then `NO_COLOR`, then whether stdout is a terminal. */
  color: boolean;
  /** Columns available on stdout (80 when unknown). */
  width: number;
  /** Whether `width` was measured (stdout's or stderr's terminal, or `COLUMNS`): tables truncate only to a known width. */
  widthKnown?: boolean;
}

/** Decides the terminal facts once from the real streams (or fakes in tests). */
export function createStreams(
  io: {
    stdout: Out & { isTTY?: boolean; columns?: number };
    stderr: Out & { isTTY?: boolean; columns?: number };
    stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  },
  env: Env,
): Streams {
  const stdoutIsTTY = Boolean(io.stdout.isTTY);
  const stdinIsTTY = Boolean(io.stdin.isTTY);
  const force = env.FORCE_COLOR;
  const color = force !== undefined && force !== '' ? force !== '0' && force !== 'false' : env.NO_COLOR ? false : stdoutIsTTY;
  const measured = io.stdout.columns || io.stderr.columns || Number(env.COLUMNS) || undefined;
  const stderrIsTTY = Boolean(io.stderr.isTTY);
  return { stdout: io.stdout, stderr: io.stderr, stdin: io.stdin, stdoutIsTTY, stderrIsTTY, stdinIsTTY, canPrompt: stdoutIsTTY && stdinIsTTY, color, width: measured ?? 80, widthKnown: measured !== undefined };
}

/** Interactive questions; only called when `streams.canPrompt`. */
export interface Prompter {
  input(question: { message: string; default?: string }): Promise<string>;
  /** Masked input, for secrets. */
  password(question: { message: string }): Promise<string>;
}

export interface CliContext {
  streams: Streams;
  env: Env;
  now: () => Date;
  /** Waits between polls (`wait`); absent: a real timer. Tests pass one that moves their clock. */
  sleep?: Sleep;
  /** Opens the profile store (honours `CONFCTL_CONFIG_DIR` in `env`). */
  config: () => Promise<ProfileStore>;
  /** Reads the profiles without conf, for commands that only use one (default: `config`). */
  readConfig?: () => Promise<ProfileReader>;
  /** Builds an API client; tests pass one with an instant sleep. */
  createClient: (options: ClientOptions) => Promise<ApiClient>;
  prompter: Prompter;
  /**
   * Subscribes to Ctrl-C (SIGINT) for a long command such as `--all`; answers the unsubscribe.
   * Absent: Ctrl-C keeps its default (the process ends). Tests pass a fake to interrupt.
   */
  onInterrupt?: (handler: () => void) => () => void;
  /** Opens a URL in the browser (`--open`); absent: the system's opener. Tests pass a fake. */
  openUrl?: UrlOpener;
}

/**
 * The production context over the real process: its streams and environment, unless `io` and `env`
 * say others (a program that runs confctl in its own process, as the end-to-end tests' runner does).
 */
export function processContext(io: Parameters<typeof createStreams>[0] = process, env: Env = process.env): CliContext {
  const streams = createStreams(io, env);
  return {
    streams,
    env,
    // The instance clock: the real time, unless an admin command opened an instance on a manual clock.
    now: () => instanceClock().now(),
    config: async () => (await import('../config/profiles.js')).openProfiles({ env }),
    readConfig: async () => (await import('../config/profiles-read.js')).readProfiles({ env }),
    createClient: async (options) => (await import('../client/client.js')).createClient(options),
    prompter: {
      input: async (q) => (await import('@inquirer/prompts')).input(q, { output: process.stderr }),
      password: async (q) => (await import('@inquirer/prompts')).password({ ...q, mask: '*' }, { output: process.stderr }),
    },
    // `once`: a second Ctrl-C has the default effect again and ends the process at once.
    onInterrupt: (handler) => {
      process.once('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
  };
}

/** Options every command accepts (declared on the program). */
export interface GlobalOptions {
  profile?: string;
  output?: OutputFormat;
  fields?: string[];
  raw: boolean;
  timeoutMs: number;
  baseUrl?: string;
  verbose: boolean;
  /** `--dry-run`: writes print a curl command line on stdout instead of being sent. */
  dryRun: boolean;
  /** `--show-secret`: the dry run's curl line carries the real secret instead of `****`. */
  showSecret: boolean;
  /** `--query`: a JMESPath expression (checked when parsed) over what would print as JSON. */
  query?: string;
}

/** `--raw` prints the whole envelope as json or yaml: `--fields`, or another format, would be ignored, so they are exit 2. */
function refuseDoingNothing(raw: boolean, fields: string[] | undefined, output: OutputFormat | undefined): void {
  if (!raw) return;
  if (fields?.length) throw new UsageError('--fields does nothing with --raw (the envelope prints whole)', 'drop one of them, or pick from the envelope with --query');
  if (output === 'table' || output === 'csv') throw new UsageError(`--raw prints the envelope as json or yaml, not ${output}`, 'give -o json or -o yaml, or drop --raw');
}

/** Reads and checks the global options as seen from `cmd`. */
export function globalOptions(cmd: Command): GlobalOptions {
  const o = cmd.optsWithGlobals<Record<string, string | boolean | undefined>>();
  const timeout = o.timeout === undefined ? 30 : Number(o.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0) throw new UsageError(`--timeout must be a positive number of seconds, not '${o.timeout}'`);
  const fields = typeof o.fields === 'string' ? o.fields.split(',').map((f) => f.trim()).filter(Boolean) : undefined;
  refuseDoingNothing(Boolean(o.raw), fields, o.output as OutputFormat | undefined);
  return {
    profile: o.profile as string | undefined,
    output: o.output as OutputFormat | undefined,
    fields: fields?.length ? fields : undefined,
    raw: Boolean(o.raw),
    timeoutMs: Math.round(timeout * 1000),
    baseUrl: o.baseUrl as string | undefined,
    verbose: Boolean(o.verbose),
    dryRun: Boolean(o.dryRun),
    showSecret: Boolean(o.showSecret),
    ...(typeof o.query === 'string' && { query: o.query }),
  };
}

/**
 * `-o`, else `CONFCTL_OUTPUT`, else the profile's default, else table on a terminal and json in a
 * pipe. With `--query` only json and yaml can print its result: `-o` anything else is exit 2, a
 * default other than yaml becomes json.
 */
export function outputFormat(ctx: CliContext, globals: GlobalOptions, profileDefault?: OutputFormat): OutputFormat {
  if (globals.query !== undefined) {
    if (globals.output && globals.output !== 'json' && globals.output !== 'yaml') {
      throw new UsageError(`--query prints json or yaml, not ${globals.output}`, 'use -o json or -o yaml with --query, or drop --query');
    }
    return globals.output ?? ((ctx.env.CONFCTL_OUTPUT ?? profileDefault) === 'yaml' ? 'yaml' : 'json');
  }
  if (globals.output) return globals.output;
  const env = ctx.env.CONFCTL_OUTPUT;
  if (env) {
    const f = OUTPUT_FORMATS.find((x) => x === env);
    if (!f) throw new UsageError(`CONFCTL_OUTPUT must be one of ${OUTPUT_FORMATS.join(', ')}, not '${env}'`);
    return f;
  }
  return profileDefault ?? (ctx.streams.stdoutIsTTY ? 'table' : 'json');
}

/** The merged profile/environment settings for this invocation. Unknown `--profile` is exit 2. */
export async function settingsFor(ctx: CliContext, globals: GlobalOptions): Promise<Settings> {
  const { resolveSettings, UnknownProfileError } = await import('../config/settings.js');
  const { KeyringSecretError } = await import('../config/keyring.js');
  try {
    return resolveSettings(await (ctx.readConfig ?? ctx.config)(), ctx.env, globals);
  } catch (err) {
    if (err instanceof UnknownProfileError) throw new UsageError(err.message, "see 'confctl profile list'");
    if (err instanceof KeyringSecretError) {
      throw new UsageError(err.message, "set CONFCTL_KEY_SECRET, or add the profile again without --keyring");
    }
    throw err;
  }
}

/** Why a base URL cannot be used (it must be an absolute http or https URL), else undefined. */
export function baseUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `'${url}' is not a URL`;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? undefined : `'${url}' is not an http or https URL`;
}

/** Settings with a usable base URL and a key pair, or exit 2 naming what is missing or wrong (every API command). */
export function requireAccess(settings: Settings): Settings & Required<Pick<Settings, 'baseUrl' | 'keyId' | 'secret'>> {
  const { baseUrl, keyId, secret } = settings;
  const missing = [!baseUrl && '--base-url (or a profile domain)', !keyId && 'a key id', !secret && 'a secret'].filter(Boolean);
  if (!baseUrl || !keyId || !secret) {
    throw new CliError(
      `no API access configured: missing ${missing.join(', ')}`,
      EXIT.usage,
      "run 'confctl login', or 'confctl profile add NAME --domain D --key-id ID --secret-stdin', or set CONFCTL_DOMAIN, CONFCTL_KEY_ID and CONFCTL_KEY_SECRET",
    );
  }
  const problem = baseUrlProblem(baseUrl);
  if (problem) throw new UsageError(`bad base URL: ${problem}`, 'give --base-url like https://acme.example.com/api/public/v2.0, or a profile --domain');
  return { ...settings, baseUrl, keyId, secret };
}

/**
 * An API client for the selected profile, with `--timeout` and `--verbose` applied, and the output
 * format that profile implies. A missing or bad URL or key is exit 2 with a hint (`requireAccess`).
 * `printed` names the operation whose answer the command prints: its `--fields` are checked
 * against the contract first (`checkFieldsBeforeRequest`), so no write is sent whose answer
 * cannot print.
 */
export async function apiClient(ctx: CliContext, globals: GlobalOptions, printed?: OperationId): Promise<{ client: ApiClient; settings: Settings; format: OutputFormat }> {
  if (printed && globals.fields) {
    const [{ checkFieldsBeforeRequest }, { OPERATION_RESOURCE }, { operationMeta }] = await Promise.all([
      import('./output/fields.js'),
      import('../contract/resource-fields.js'),
      import('../contract/operations-meta.js'),
    ]);
    checkFieldsBeforeRequest(globals.fields, OPERATION_RESOURCE[printed], operationMeta(printed).method !== 'GET');
  }
  const settings = requireAccess(await settingsFor(ctx, globals));
  const client = await ctx.createClient({
    baseUrl: settings.baseUrl,
    keyId: settings.keyId,
    secret: settings.secret,
    timeoutMs: globals.timeoutMs,
    log: globals.verbose ? (line) => ctx.streams.stderr.write(`${line}\n`) : undefined,
    dryRun: globals.dryRun ? (req) => ctx.streams.stdout.write(`${curlCommand(req, { showSecret: globals.showSecret })}\n`) : undefined,
  });
  return { client: checkingBodies(client), settings, format: outputFormat(ctx, globals, settings.output) };
}

/** The client with every write's body checked against the contract before it is sent (`check-body.ts`). */
function checkingBodies(client: ApiClient): ApiClient {
  const call: ApiClient['call'] = async (id, input) => {
    await (await import('./check-body.js')).checkBody(id, input?.body ?? {});
    return client.call(id, input);
  };
  return { ...client, call };
}
