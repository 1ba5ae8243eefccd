/** `confctl webhooks listen|verify`: the receiving side of webhooks, independent of any server. */
import { collect } from '../../collect.js';
import type { Command } from 'commander';
import { type CliContext, globalOptions, UsageError } from '../../context.js';
import { EXIT } from '../../errors.js';
import { type ExitCodeNote, exitCodes } from '../../exit-codes.js';
import { examples } from '../../help.js';
import { DEFAULT_MAX_AGE_SECONDS } from '../../../webhooks/signature.js';
import type { ListenOptions } from './listen.js';
import { parseMaxAge, secretFrom } from './secret.js';
import type { VerifyOptions } from './verify.js';

/** The flags of `listen` as commander hands them over. */
export interface ListenFlags {
  port?: string;
  host?: string;
  secret?: string;
  secretFile?: string;
  forwardTo?: string;
  cert?: string;
  key?: string;
  maxAge?: string;
}

/** The flags of `verify` as commander hands them over. */
export interface VerifyFlags {
  secret?: string;
  secretFile?: string;
  header?: string[];
  body?: string;
  maxAge?: string;
}

/** The default port of `listen`, beside `serve`'s 8080. */
export const LISTEN_PORT = 8090;

function port(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, not '${value}'`);
  return Number(value);
}

/** `--forward-to`: an absolute http or https URL. */
function forwardUrl(value: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol)) throw new UsageError(`--forward-to takes an http or https URL like http://localhost:3000/hooks, not '${value}'`);
  return url;
}

/** Flags of `listen` → options, no I/O but reading `--secret-file`. */
export function parseListenOptions(o: ListenFlags, ctx: CliContext, output?: string): ListenOptions {
  if ((o.cert === undefined) !== (o.key === undefined)) throw new UsageError('--cert and --key go together (HTTPS needs both)');
  if (output !== undefined && output !== 'table' && output !== 'ndjson') throw new UsageError(`listen prints -o table or -o ndjson, not ${output}`);
  return {
    port: port(o.port ?? String(LISTEN_PORT)),
    host: o.host ?? '127.0.0.1',
    secret: secretFrom(o, ctx.env),
    maxAgeSeconds: parseMaxAge(o.maxAge),
    ...(o.forwardTo !== undefined && { forwardTo: forwardUrl(o.forwardTo) }),
    ...(o.cert !== undefined && o.key !== undefined && { tls: { certFile: o.cert, keyFile: o.key } }),
    format: output === 'ndjson' || (output === undefined && !ctx.streams.stdoutIsTTY) ? 'ndjson' : 'table',
  };
}

/** Flags of `verify` → options; a secret is required, the capture comes from one place only. */
export function parseVerifyOptions(file: string | undefined, o: VerifyFlags, ctx: CliContext): VerifyOptions {
  const secret = secretFrom(o, ctx.env);
  if (!secret.secret) throw new UsageError('verify needs the secret: --secret S, --secret-file F or CONFCTL_WEBHOOK_SECRET');
  const headers = o.header ?? [];
  const bodyFile = o.body;
  if (file !== undefined && (headers.length || bodyFile !== undefined)) {
    throw new UsageError('give a captured request FILE, or --header and --body, not both');
  }
  if ((headers.length > 0) !== (bodyFile !== undefined)) throw new UsageError('--header and --body go together: the signature covers both');
  return { secret: secret.secret, maxAgeSeconds: parseMaxAge(o.maxAge), headers, ...(file !== undefined && { file }), ...(bodyFile !== undefined && { bodyFile }) };
}


/** What `webhooks verify` says by its exit code. */
const VERIFY_EXIT_CODES: readonly ExitCodeNote[] = [
  { code: EXIT.ok, meaning: 'the delivery is authentic and fresh' },
  { code: EXIT.validation, meaning: 'it is not (the reason on stderr)' },
  { code: EXIT.usage, meaning: 'the capture or the flags cannot be read' },
];

export function register(program: Command, ctx: CliContext): void {
  const webhooks = program
    .command('webhooks')
    .description('Receive webhook deliveries: listen locally, or verify a captured one')
    .addHelpText('after', examples('confctl webhooks listen --secret-file hook.secret --forward-to http://localhost:3000/hooks', 'confctl webhooks verify --secret-file hook.secret delivery.http'));
  webhooks
    .command('listen')
    .description('Receive deliveries on a local port: verify each one, print it, answer 200 (or forward it)')
    .option('--port <port>', 'port to listen on (0 picks a free one)', String(LISTEN_PORT))
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--secret <secret>', "the destination's signing secret (visible to other users in a process list: prefer --secret-file)")
    .option('--secret-file <file>', 'read the secret from the first line of FILE (default: CONFCTL_WEBHOOK_SECRET, else a new one is made and printed)')
    .option('--forward-to <url>', 'pass each verified delivery on to URL, headers and body untouched, and answer with its status')
    .option('--cert <file>', 'serve HTTPS with this PEM certificate (with --key)')
    .option('--key <file>', "the certificate's PEM private key")
    .option('--max-age <seconds>', 'refuse deliveries older (or further ahead) than this; 0: no age check', String(DEFAULT_MAX_AGE_SECONDS))
    .addHelpText(
      'after',
      `
Each verified delivery prints as a row on a terminal, else as one JSON line (NDJSON:
{"id","timestamp","event","data","status"}); -o table or -o ndjson chooses. A forged, malformed or stale delivery is answered
400 with the reason, which also goes to stderr; it is never forwarded. With --forward-to the
answer is the target's status and body, 502 when it cannot be reached, 504 after 10 seconds.
SIGINT (Ctrl-C) and SIGTERM stop the listener (exit 0).
${examples(
  'confctl webhooks listen',
  'CONFCTL_WEBHOOK_SECRET=whsec_... confctl webhooks listen --port 9000 -o ndjson | jq .event',
  'confctl webhooks listen --secret-file hook.secret --forward-to http://localhost:3000/hooks',
  'confctl webhooks listen --secret-file hook.secret --cert cert.pem --key key.pem',
)}`,
    )
    .action(async (flags: ListenFlags, cmd: Command) => {
      const options = parseListenOptions(flags, ctx, globalOptions(cmd).output);
      await (await import('./listen.js')).runListen(options, ctx);
    });
  const verify = webhooks
    .command('verify')
    .description('Say whether a captured delivery is authentic and fresh (exit 0), or why not (exit 6)')
    .argument('[file]', 'the raw HTTP request as captured (default: stdin, unless --header/--body)')
    .option('--secret <secret>', "the destination's signing secret")
    .option('--secret-file <file>', 'read the secret from the first line of FILE (default: CONFCTL_WEBHOOK_SECRET)')
    .option('--header <line>', "a header of the delivery, 'Name: value' (repeatable; with --body)", collect)
    .option('--body <file>', 'the body of the delivery, read as bytes (with --header)')
    .option('--max-age <seconds>', 'refuse deliveries older (or further ahead) than this; 0: no age check', String(DEFAULT_MAX_AGE_SECONDS))
    .addHelpText(
      'after',
      `
A capture is the request as it arrived: an optional request line, the headers, a blank line and
the body (with Content-Length, exactly that many bytes). A capture older than 5 minutes is stale
by definition: --max-age 0 checks the signature alone.`,
    );
  exitCodes(verify, VERIFY_EXIT_CODES)
    .addHelpText(
      'after',
      examples(
        'confctl webhooks verify --secret-file hook.secret delivery.http',
        'confctl webhooks verify --secret-file hook.secret --max-age 0 < delivery.http',
        "confctl webhooks verify --secret whsec_... --header 'X-Webhook-Id: 7f3a...' --header 'X-Webhook-Timestamp: 2026-11-23T20:30:00.000Z' --header 'X-Webhook-Signature: 9c1e...' --body body.json",
      ),
    )
    .action(async (file: string | undefined, flags: VerifyFlags) => {
      const options = parseVerifyOptions(file, flags, ctx);
      await (await import('./verify.js')).runVerify(options, ctx);
    });
}
