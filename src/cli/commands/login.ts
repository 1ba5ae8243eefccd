/** `confctl login`: asks for the domain and key (or takes flags), checks the key, saves and activates the profile. */
import type { Command } from 'commander';
import { ApiError } from '../../client/errors.js';
import { baseUrlOf } from '../../config/settings.js';
import type { CliContext } from '../context.js';
import { addProfileFlags, completeProfile, type ProfileInput, profileInput, reportSecretStore } from './profile.js';
import { examples } from '../help.js';

/** Verifies the key with one `GET /users?page_size=1`; a key that is valid but lacks `users.read.*` still passes. */
export async function runLogin(opts: ProfileInput, ctx: CliContext): Promise<void> {
  const { name, profile } = await completeProfile(opts, ctx, ctx.streams.canPrompt ? undefined : 'default');
  const baseUrl = baseUrlOf(profile)!;
  const client = await ctx.createClient({
    baseUrl,
    keyId: profile.key_id,
    secret: profile.secret,
    timeoutMs: opts.globals.timeoutMs,
    log: opts.globals.verbose ? (line) => ctx.streams.stderr.write(`${line}\n`) : undefined,
  });
  try {
    await client.listUsers({ page_size: 1 });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401 && err.message === 'Access denied.')) throw err;
    ctx.streams.stderr.write('warning: the key is valid but may not read users (users.read.*)\n');
  }
  const store = await ctx.config();
  const saved = store.save(name, profile, { activate: true, keyring: opts.keyring });
  ctx.streams.stderr.write(`Logged in to ${baseUrl} with key ${profile.key_id}; saved profile '${name}' (active)\n`);
  reportSecretStore(ctx, opts.keyring, saved, store.path);
}

export function register(program: Command, ctx: CliContext, runF?: (opts: ProfileInput) => Promise<void>): void {
  addProfileFlags(
    program
      .command('login')
      .description('Save a profile after checking the key with one request; asks for what the flags do not give')
      .option('--name <name>', 'profile name (default: asked, or "default")'),
  )
    .addHelpText('after', examples('confctl login --name acme --domain acme.example --key-id ak_123'))
    .action((flags, cmd: Command) => (runF ?? runLogin)(profileInput(flags.name, flags, cmd), ctx));
}
