/** `confctl profile add|list|use|show|remove`: saved base URLs and access keys. Secrets are never printed. */
import { type Command, Option } from 'commander';
import { OUTPUT_FORMATS, type OutputFormat, type Profile, type ProfileStore, type SaveResult } from '../../../config/profiles.js';
import { baseUrlOf } from '../../../config/settings.js';
import { type CliContext, type GlobalOptions, globalOptions, outputFormat, UsageError } from '../../context.js';
import { listWriter, renderItem } from '../../output/index.js';
import { examples } from '../../help.js';
import { consentToReplace } from '../../overwrite.js';
import { checkProfileName, profileSummary } from '../local-profile.js';
import type { Flags } from '../resource.js';

export interface ProfileInput {
  name?: string;
  domain?: string;
  baseUrl?: string;
  keyId?: string;
  secret?: string;
  secretStdin: boolean;
  defaultOutput?: OutputFormat;
  /** Store the secret in the OS keychain (the profile file when there is none). */
  keyring: boolean;
  /** Replace a profile of that name without asking. */
  force: boolean;
  globals: GlobalOptions;
}

export interface ProfileRunners {
  add(opts: ProfileInput): Promise<void>;
  list(opts: { globals: GlobalOptions }): Promise<void>;
  use(opts: { name: string; dryRun: boolean }): Promise<void>;
  show(opts: { name?: string; globals: GlobalOptions }): Promise<void>;
  remove(opts: { name: string; dryRun: boolean }): Promise<void>;
  names(): Promise<void>;
}

/** Adds the flags shared by `profile add` and `login` (`--base-url` is the global option). */
export function addProfileFlags(cmd: Command): Command {
  return cmd
    .option('--domain <domain>', "the tenant's primary domain (base URL https://DOMAIN/api/public/v2.0)")
    .option('--key-id <id>', 'access key id')
    .option('--secret <secret>', 'access key secret (visible to other local users: prefer --secret-stdin)')
    .option('--secret-stdin', 'read the secret from the first line of stdin')
    .option('--keyring', 'keep the secret in the OS keychain instead of the profile file (falls back to the file when there is no keychain)')
    .addOption(new Option('--default-output <format>', 'default output format of this profile').choices(OUTPUT_FORMATS))
    .option('--force', 'replace a saved profile of that name without asking');
}

/** Flags → profile input; no I/O. */
export function profileInput(name: string | undefined, flags: Record<string, unknown>, cmd: Command): ProfileInput {
  const globals = globalOptions(cmd);
  if (name !== undefined) checkProfileName(name);
  if (flags.domain && globals.baseUrl) throw new UsageError('give --domain or --base-url, not both');
  if (flags.secret && flags.secretStdin) throw new UsageError('give --secret or --secret-stdin, not both');
  return {
    name,
    domain: flags.domain as string | undefined,
    baseUrl: globals.baseUrl,
    keyId: flags.keyId as string | undefined,
    secret: flags.secret as string | undefined,
    secretStdin: Boolean(flags.secretStdin),
    defaultOutput: flags.defaultOutput as OutputFormat | undefined,
    keyring: Boolean(flags.keyring),
    force: Boolean(flags.force),
    globals,
  };
}

async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0].trim();
}

/** Answers typed before (a failed `login` asks again with them as defaults). */
export interface PreviousAnswers {
  place: string;
  keyId: string;
  secret: string;
}

/**
 * Completes the input: the secret from stdin, missing values by prompting on a terminal; in a
 * pipe, anything missing is exit 2 naming the flags. With `previous`, every value but the name
 * is asked again, the earlier answer as its default.
 */
export async function completeProfile(
  input: ProfileInput,
  ctx: CliContext,
  defaultName?: string,
  previous?: PreviousAnswers,
): Promise<{ name: string; profile: Profile & { secret: string } }> {
  const p = { ...input };
  if (p.secretStdin && !previous) p.secret = await firstLine(ctx.streams.stdin);
  const missing = [
    !p.name && !defaultName && 'NAME',
    !p.domain && !p.baseUrl && '--domain or --base-url',
    !p.keyId && '--key-id',
    !p.secret && '--secret-stdin (or --secret)',
  ].filter((m): m is string => Boolean(m));
  if (missing.length && !ctx.streams.canPrompt) throw new UsageError(`missing ${missing.join(', ')}`, 'prompts need a terminal on stdin and stdout');
  const ask = ctx.prompter;
  p.name ||= defaultName ?? (await ask.input({ message: 'Profile name', default: 'default' }));
  if (previous || (!p.domain && !p.baseUrl)) {
    const answer = (await ask.input({ message: 'Tenant domain (or a base URL starting with http)', default: previous?.place })).trim();
    [p.domain, p.baseUrl] = /^https?:\/\//.test(answer) ? [undefined, answer] : [answer, undefined];
  }
  if (previous) p.keyId = (await ask.input({ message: 'Access key id', default: previous.keyId })).trim();
  else p.keyId ||= (await ask.input({ message: 'Access key id' })).trim();
  if (previous) p.secret = (await ask.password({ message: 'Access key secret (Enter keeps the one typed before)' })).trim() || previous.secret;
  else p.secret ||= (await ask.password({ message: 'Access key secret' })).trim();
  if (!p.keyId || !p.secret || !(p.domain || p.baseUrl)) throw new UsageError('the domain, key id and secret may not be empty');
  return {
    name: p.name,
    profile: { domain: p.domain, base_url: p.baseUrl, key_id: p.keyId, secret: p.secret, secret_store: 'file', output: p.defaultOutput },
  };
}

/** What `list` and `show` print about a profile: never the secret. */
function describeProfile(name: string, profile: Profile, active: boolean, withSecret: boolean) {
  return {
    name,
    active,
    base_url: baseUrlOf(profile) ?? null,
    key_id: profile.key_id,
    ...(withSecret ? { secret: '********' } : {}),
    secret_store: profile.secret_store ?? 'file',
    output: profile.output ?? null,
  };
}

/** Tells where the secret went when `--keyring` was asked for (and why not the keychain, if so). */
export function reportSecretStore(ctx: CliContext, wanted: boolean, saved: SaveResult, path: string): void {
  const say = (line: string) => ctx.streams.stderr.write(`${line}\n`);
  if (saved.secret_store === 'keyring') say('The secret is stored in the OS keychain.');
  else if (wanted) say(`warning: ${saved.keyringError ?? 'no OS keychain is available'}; the secret is stored in the profile file ${path} (mode 0600) instead`);
  else if (saved.keyringError) say(`warning: could not delete the old secret from the OS keychain: ${saved.keyringError}`);
}

const notFound = (name: string) => new UsageError(`no profile named '${name}'`, "see 'confctl profile list'");

/** Consent to replace a saved profile `name` (asked on a terminal, else `--force`); nothing to ask when it is new. */
export async function consentToReplaceProfile(ctx: CliContext, store: ProfileStore, name: string, force: boolean): Promise<void> {
  const existing = store.get(name);
  if (!existing) return;
  await consentToReplace(ctx, `profile '${name}' (${profileSummary(existing)})`, { force, hint: 'give --force to replace it, or another name' });
}

/** Warns when a domain answers plain http where https is expected (see `profile-probe.ts`). */
async function warnIfPlainHttp(domain: string, say: (line: string) => void): Promise<void> {
  const { answersPlainHttp, worthProbing } = await import('./probe.js');
  if (!worthProbing(domain) || !(await answersPlainHttp(domain))) return;
  const { plainHttpHint } = await import('../../../client/errors.js');
  say(`warning: ${plainHttpHint(domain, `http://${domain}/api/public/v2.0`)}`);
}

function runners(ctx: CliContext): ProfileRunners {
  const say = (line: string) => ctx.streams.stderr.write(`${line}\n`);
  const planProfile = (line: string) => {
    ctx.streams.stdout.write(`${line}\n`);
    say('dry run: nothing was changed');
  };
  return {
    async add(opts) {
      const { name, profile } = await completeProfile(opts, ctx);
      const store = await ctx.config();
      if (opts.globals.dryRun) {
        return planProfile(`would ${store.get(name) ? 'replace' : 'save'} profile '${name}' (${profileSummary(profile)})`);
      }
      await consentToReplaceProfile(ctx, store, name, opts.force);
      const saved = store.save(name, profile, { activateIfNone: true, keyring: opts.keyring });
      say(`Saved profile '${name}'${store.active() === name ? ' (active)' : ''} in ${store.path}`);
      reportSecretStore(ctx, opts.keyring, saved, store.path);
      if (profile.domain && !profile.base_url) await warnIfPlainHttp(profile.domain, say);
    },
    async list({ globals }) {
      const store = await ctx.config();
      const writer = listWriter(ctx.streams, { format: outputFormat(ctx, globals), fields: globals.fields, query: globals.query });
      await writer.write(store.list().map((p) => describeProfile(p.name, p.profile, p.active, false)));
      await writer.end();
    },
    async use({ name, dryRun }) {
      const store = await ctx.config();
      if (dryRun && store.get(name)) return planProfile(`would make profile '${name}' the active one`);
      if (dryRun || !store.use(name)) throw notFound(name);
      say(`Active profile: ${name}`);
    },
    async show({ name, globals }) {
      const store = await ctx.config();
      const selected = name ?? globals.profile ?? (ctx.env.CONFCTL_PROFILE || undefined) ?? store.active();
      if (!selected) throw new UsageError('no active profile', "run 'confctl login' or 'confctl profile add'");
      const profile = store.get(selected);
      if (!profile) throw notFound(selected);
      await renderItem(ctx.streams, describeProfile(selected, profile, store.active() === selected, true), {
        format: outputFormat(ctx, globals, profile.output),
        fields: globals.fields,
        query: globals.query,
      });
    },
    async remove({ name, dryRun }) {
      const store = await ctx.config();
      const profile = store.get(name);
      if (dryRun && profile) return planProfile(`would remove profile '${name}' (${profileSummary(profile)})`);
      const removed = !dryRun && store.remove(name);
      if (!removed) throw notFound(name);
      say(`Removed profile '${name}'`);
      if (removed.keyringError) say(`warning: could not delete its secret from the OS keychain: ${removed.keyringError}`);
    },
    async names() {
      const store = await ctx.config();
      ctx.streams.stdout.write(store.list().map((p) => `${p.name}\n`).join(''));
    },
  };
}

/** Registers `profile`; `runF` replaces the runners in parse-only tests. */
export function register(program: Command, ctx: CliContext, runF: Partial<ProfileRunners> = {}): void {
  const run = { ...runners(ctx), ...runF };
  const profile = program
    .command('profile')
    .description('Manage saved API profiles (base URL and access key)')
    .addHelpText('after', examples('confctl profile list', 'confctl profile use acme'));
  addProfileFlags(profile.command('add').description('Save a profile (the first one saved becomes active)').argument('<name>'))
    .addHelpText('after', examples('printf %s "$SECRET" | confctl profile add acme --domain acme.example --key-id ak_123 --secret-stdin'))
    .action((name: string, flags: Flags, cmd: Command) => run.add(profileInput(name, flags, cmd)));
  profile
    .command('list')
    .description('List profiles (secrets are never shown)')
    .addHelpText('after', examples('confctl profile list -o table'))
    .action((_flags, cmd: Command) => run.list({ globals: globalOptions(cmd) }));
  profile
    .command('use')
    .description('Make a profile the active one')
    .addHelpText('after', examples('confctl profile use acme'))
    .argument('<name>')
    .action((name: string, _flags, cmd: Command) => run.use({ name, dryRun: globalOptions(cmd).dryRun }));
  profile
    .command('show')
    .description('Show a profile, the secret masked (default: the active one)')
    .addHelpText('after', examples('confctl profile show', 'confctl profile show acme -o json'))
    .argument('[name]')
    .action((name: string | undefined, _flags, cmd: Command) => run.show({ name, globals: globalOptions(cmd) }));
  profile
    .command('remove')
    .description('Delete a profile')
    .addHelpText('after', examples('confctl profile remove acme'))
    .argument('<name>')
    .action((name: string, _flags, cmd: Command) => run.remove({ name, dryRun: globalOptions(cmd).dryRun }));
  // For shell completion scripts: saved profile names, one a line.
  profile.command('names', { hidden: true }).action(() => run.names());
}
