/** `confctl login`: asks for the domain and key (or takes flags), checks the key, saves and activates the profile. */
import type { Command } from 'commander';
import { ApiError, NetworkError } from '../../../client/errors.js';
import type { Profile } from '../../../config/profiles.js';
import { baseUrlOf } from '../../../config/settings.js';
import { type CliContext, CliError, EXIT } from '../../context.js';
import { errorLines } from '../../errors.js';
import { examples } from '../../help.js';
import type { Flags } from '../resource.js';
import { addProfileFlags, completeProfile, consentToReplaceProfile, type PreviousAnswers, type ProfileInput, profileInput, reportSecretStore } from './index.js';

/**
 * A request to `https://DOMAIN` that never got an answer may be a host that speaks plain http:
 * say how to give such a base URL.
 */
function withHttpHint(err: unknown, profile: Profile): unknown {
  if (!(err instanceof NetworkError) || profile.base_url || !profile.domain) return err;
  // An https request to a plain-http port fails in TLS: keep OpenSSL's code, not its internals.
  const cause = /^ERR_SSL_\w+/.exec(err.message)?.[0] ?? err.message;
  return new CliError(
    `cannot reach https://${profile.domain}: ${cause}`,
    EXIT.network,
    `if ${profile.domain} speaks plain http (a local 'confctl serve' does), give --base-url http://${profile.domain}/api/public/v2.0 instead of --domain`,
  );
}

/** Verifies the key with one `GET /users?page_size=1`; a key that is valid but lacks `users.read.*` still passes. */
async function verify(profile: Profile & { secret: string }, opts: ProfileInput, ctx: CliContext): Promise<void> {
  const client = await ctx.createClient({
    baseUrl: baseUrlOf(profile)!,
    keyId: profile.key_id,
    secret: profile.secret,
    timeoutMs: opts.globals.timeoutMs,
    log: opts.globals.verbose ? (line) => ctx.streams.stderr.write(`${line}\n`) : undefined,
  });
  try {
    await client.listUsers({ page_size: 1 });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401 && err.message === 'Access denied.')) throw withHttpHint(err, profile);
    ctx.streams.stderr.write('warning: the key is valid but may not read users (users.read.*)\n');
  }
}

/** On a terminal, after a failed check: shows why and asks whether to try again with the answers as defaults. */
async function retry(err: unknown, ctx: CliContext): Promise<boolean> {
  if (!ctx.streams.canPrompt || !(err instanceof ApiError || err instanceof NetworkError || err instanceof CliError)) return false;
  for (const line of errorLines(err)) ctx.streams.stderr.write(`${line}\n`);
  const answer = await ctx.prompter.input({ message: 'Try again? Your answers are kept as defaults (Y/n)', default: 'Y' });
  return !/^n(o)?$/i.test(answer.trim());
}

export async function runLogin(opts: ProfileInput, ctx: CliContext): Promise<void> {
  let previous: PreviousAnswers | undefined;
  for (;;) {
    const { name, profile } = await completeProfile(opts, ctx, ctx.streams.canPrompt ? opts.name : (opts.name ?? 'default'), previous);
    const store = await ctx.config();
    await consentToReplaceProfile(ctx, store, name, opts.force);
    try {
      await verify(profile, opts, ctx);
    } catch (err) {
      if (!(await retry(err, ctx))) throw err;
      previous = { place: profile.base_url ?? profile.domain ?? '', keyId: profile.key_id, secret: profile.secret };
      opts = { ...opts, name, force: true };
      continue;
    }
    const saved = store.save(name, profile, { activate: true, keyring: opts.keyring });
    ctx.streams.stderr.write(`Logged in to ${baseUrlOf(profile)} with key ${profile.key_id}; saved profile '${name}' (active)\n`);
    return reportSecretStore(ctx, opts.keyring, saved, store.path);
  }
}

export function register(program: Command, ctx: CliContext, runF?: (opts: ProfileInput) => Promise<void>): void {
  addProfileFlags(
    program
      .command('login')
      .description('Save a profile after checking the key with one request; asks for what the flags do not give, and again after a failed check')
      .option('--name <name>', 'profile name (default: asked, or "default")'),
  )
    .addHelpText('after', examples('confctl login --name acme --domain acme.example --key-id ak_123'))
    .action((flags: Flags<{ name?: string }>, cmd: Command) => (runF ?? runLogin)(profileInput(flags.name, flags, cmd), ctx));
}
