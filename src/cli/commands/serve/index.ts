import { type Command, Option } from 'commander';
import { type CliContext, UsageError } from '../../context.js';
import { examples } from '../../help.js';
import { type ConnectionFlagValues, parseConnectionFlags } from './connections.js';
import { FORCE_FLAG } from '../../overwrite.js';
import { localProfileChoice, type ProfileFlags } from '../local-profile.js';
import type { ServeOptions } from './run.js';
// Types only: test-controls.ts loads the server, which `serve --help` must not.
import type { TestControlFlags, TestControlFlagValues } from './test-controls.js';
import type { ClockMode } from './clock.js';

/** serve/postgres.ts takes the options from here. */
export type { ServeOptions };

/** The flags of `confctl serve` as commander hands them over (defaults applied). */
export interface ServeFlags extends ConnectionFlagValues, ProfileFlags, TestControlFlagValues {
  port?: string;
  host?: string;
  data?: string;
  database?: string;
  media?: string;
  demo?: boolean;
  rateLimit?: string;
  maxAttendees?: string;
  log?: ServeOptions['log'];
  strict?: boolean;
  cors?: string[];
  pidFile?: string;
  /** `--clock`: the real clock, or the manual clock that `confctl admin clock` moves. */
  clock?: ClockMode;
}

/** `--cors` values (repeated or comma-separated) → origins; each must be a bare `scheme://host[:port]`. */
export function parseCors(values: readonly string[]): string[] {
  const origins = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  for (const o of origins) {
    let url: URL | undefined;
    try {
      url = new URL(o);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== o) {
      throw new UsageError(`--cors takes origins like https://editor.example or http://localhost:3000, not '${o}'`);
    }
  }
  return [...new Set(origins)];
}

function positiveInt(flag: string, value: string, min = 1): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < min) throw new UsageError(`${flag} must be a whole number of at least ${min}, not '${value}'`);
  return Number(value);
}

/** `off`, `CLIENT` or `CLIENT/TENANT` requests per second. */
export function parseRateLimit(value: string): ServeOptions['rateLimit'] {
  if (value === 'off') return null;
  const m = /^([0-9]+)(?:\/([0-9]+))?$/.exec(value);
  if (!m) throw new UsageError(`--rate-limit must be 'off', CLIENT or CLIENT/TENANT (requests per second), not '${value}'`);
  const client = positiveInt('--rate-limit', m[1]);
  const tenant = m[2] === undefined ? Math.max(client, 10) : positiveInt('--rate-limit', m[2]);
  return { client, tenant };
}

/** Flags → `--test-controls` options, or null without the flag; `--control-token-file` alone is refused. */
export function parseTestControlFlags(o: TestControlFlagValues): TestControlFlags | null {
  const tokenFile = o.controlTokenFile;
  if (!o.testControls) {
    if (tokenFile !== undefined) throw new UsageError('--control-token-file needs --test-controls');
    return null;
  }
  return tokenFile === undefined ? {} : { tokenFile };
}

/** Flags → options, no I/O. */
export function parseServeOptions(o: ServeFlags): ServeOptions {
  return {
    port: positiveInt('--port', o.port ?? '8080', 0),
    host: o.host ?? '127.0.0.1',
    data: o.data,
    database: o.database,
    media: o.media,
    demo: Boolean(o.demo),
    rateLimit: parseRateLimit(o.rateLimit ?? '5/10'),
    maxAttendees: positiveInt('--max-attendees', o.maxAttendees ?? '5'),
    trustProxy: Boolean(o.trustProxy),
    profile: localProfileChoice(o),
    log: o.log ?? 'pretty',
    connections: parseConnectionFlags(o),
    strict: Boolean(o.strict),
    cors: parseCors(o.cors ?? []),
    pidFile: o.pidFile,
    clock: o.clock ?? 'real',
    testControls: parseTestControlFlags(o),
  };
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('Run a local instance of the API on node:http with SQLite, or PostgreSQL for several instances (--database)')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '8080')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--data <dir>', 'data directory (default: CONFCTL_DATA, else ~/.local/share/confctl)')
    .option('--database <url>', 'serve from PostgreSQL (postgres://user@host/db; prefer CONFCTL_DATABASE_URL, which no process list shows)')
    .option('--media <dir>', "recording files' directory (default: CONFCTL_MEDIA_DIR, else the data directory's media/)")
    .option('--demo', 'fill the first tenant with the deterministic demo data set')
    .option('--rate-limit <limits>', "requests per second: CLIENT[/TENANT], or 'off'", '5/10')
    .option('--max-attendees <n>', 'maximum attendees of a conference besides its owner', '5')
    .option('--trust-proxy', 'honour X-Forwarded-Host/-Proto/-For')
    .option('--no-profile', 'do not save the first key as a client profile')
    .option('--profile-name <name>', "save the first key as this profile instead of 'local'")
    .option(...FORCE_FLAG)
    .option('--strict', "require the hosted service's complete bodies (PATCH users and conferences, POST customers)")
    .option('--cors <origin>', 'let browser pages on ORIGIN call the API (repeatable or comma-separated)', (v: string, acc: string[] = []) => [...acc, v])
    .addOption(new Option('--log <format>', 'access log on stderr').choices(['json', 'pretty', 'off']).default('pretty'))
    .option('--headers-timeout <seconds>', "time a request's header section may take", '20')
    .option('--request-timeout <seconds>', 'time a whole request (headers and body) may take', '30')
    .option('--max-connections <n>', 'open connections served at once; more are answered 503', '500')
    .option('--max-connections-per-address <n>', "open connections per client address, or 'off'; more are answered 503 (default: 100, off with --trust-proxy)")
    .addOption(new Option('--clock <clock>', "the instance's clock: 'real', or 'manual' to move it only with 'confctl admin clock'").choices(['real', 'manual']).default('real'))
    .option('--pid-file <file>', "write the process id there once listening (removed on exit), to stop a background server with kill \"$(cat FILE)\"; a file naming a running process is refused (exit 5)")
    .option('--test-controls', 'answer the test controls under /_confctl (snapshots, ...) to loopback clients holding the control token')
    .option('--control-token-file <file>', 'with --test-controls: read the control token from FILE instead of printing a random one')
    .addHelpText(
      'after',
      `
On an empty data directory, serve creates the tenant 'localhost' (aliases 127.0.0.1, ::1) and an
all-permissions key, prints the key once and saves it as the profile 'local' (or --profile-name).
A profile of that name that points elsewhere is replaced only with consent: asked on a terminal,
else --force. This is checked before the key exists.

Connections over --max-connections or --max-connections-per-address are refused as they are
accepted, before they send anything (503 Too many connections., Retry-After: 1). At the total cap a
new connection first closes the oldest connection with no request in hand (idle, or with headers
still arriving) of the address holding the most. Pipelined requests on a connection are handled
at most 10 at a time, and a connection with 64 more waiting is not read until fewer wait.

serve also delivers webhooks to the destinations of 'confctl admin webhooks', including events
queued by admin commands in other processes; each attempt is logged as one line on stderr.

With --database (or CONFCTL_DATABASE_URL, which no process list shows, unless --data is given),
serve runs on PostgreSQL: several instances on one database act as one service (shared rate
limits, caches that see every instance's writes, one signing secret), with recording files in a
--media directory they share. --data and --database together are refused (exit 2).

With --clock manual the instance's clock starts at the real time (or where the manual clock last
stood, if later) and moves only when told: 'confctl admin clock set TIME|advance DURATION|show'.
Everything dated in the data reads it: created_at/updated_at, conference and recording times,
recording-link and join-token expiry, webhook retry times and delivery pruning; advancing past a
retry time sends the delivery, past an expiry makes the link answer 403. Rate-limit windows and
timeouts keep real time. The clock lives in the database, so every instance on one PostgreSQL
database follows it. serve without --clock manual turns a manual clock off.

With --test-controls, a test harness can drive the instance over HTTP under /_confctl
(GET /_confctl lists the routes). They answer only when the connection comes from a loopback
address (127.0.0.0/8, ::1; --trust-proxy and X-Forwarded-For are ignored here: 403 otherwise)
and carries the control token in the header X-Confctl-Control-Token (401 otherwise). The token
is printed at start, or read from --control-token-file (16 to 512 visible ASCII characters);
it never appears in the access log. Without --test-controls, /_confctl is an unknown path (404).
${examples('confctl serve --demo', 'confctl serve --port 9000 --data ./data --log json --rate-limit off', 'CONFCTL_DATABASE_URL=postgres://confctl@db/confctl confctl serve --media /srv/confctl-media')}`,
    )
    .action(async (flags: ServeFlags) => {
      const options = parseServeOptions(flags);
      await (await import('./run.js')).runServe(options, ctx);
    });
}
