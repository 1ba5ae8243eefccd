/** `confctl admin init`: registration only; the action loads when it runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { FORCE_FLAG } from '../../overwrite.js';
import { DATA, DATABASE, commonOptions, type OwnFlags } from './flags.js';
import type { InitOptions } from './setup.js';

export function register(admin: Command, ctx: CliContext): void {
  admin
    .command('init')
    .description('Create the database, the first tenant (roles Admin, Manager, Member) and an all-permissions key')
    .option(...DATA)
    .option(...DATABASE)
    .option('--domain <domain>', 'primary domain of the first tenant', 'localhost')
    .option('--no-profile', "do not save the key as a client profile")
    .option('--profile-name <name>', "save the key as this profile instead of 'local'")
    .option(...FORCE_FLAG)
    .addHelpText(
      'after',
      `
A profile of that name that points elsewhere is replaced only with consent: asked on a terminal,
else --force (or pick another name with --profile-name). This is checked before the key exists.
${examples('confctl admin init --data ./data -o json   # {"tenant": "...", "key_id": "...", "secret": "..."}', 'confctl admin init --data ./other --profile-name other --dry-run')}`,
    )
    .action(async (flags: OwnFlags<InitOptions>, cmd: Command) => (await import('./init-run.js')).init({ ...flags, ...commonOptions(cmd) }, ctx));
}
