/** `confctl admin keys create|list|revoke`: registration only; the actions load when one runs. */
import type { Command } from 'commander';
import { ALL_PERMISSIONS } from '../../../contract/operations-meta.js';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { DATA, DATABASE, TENANT, commonOptions, type OwnFlags } from './flags.js';
import type { KeysCreateOptions, KeysListOptions } from './keys-run.js';

export function register(admin: Command, ctx: CliContext): void {
  const keys = admin.command('keys').description('Manage access keys').addHelpText('after', examples('confctl admin keys list'));
  keys
    .command('create')
    .description('Create an access key; its secret is printed only now')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .requiredOption('--name <name>', 'what the key is for')
    .requiredOption('--permissions <list>', "comma-separated grants, e.g. '*' or 'users.read.*,customers.*'")
    .option('--expires <date>', 'ISO 8601 date or date-time after which the key stops working')
    .addHelpText('after', `\nPermissions: ${ALL_PERMISSIONS.join(', ')}\n(users.lock.* lets users create activate a user; wildcards: '*', 'users.*', '*.read.*')\n`)
    .addHelpText(
      'after',
      examples(
        'confctl admin keys create --tenant localhost --name reporting --permissions "users.read.*" --expires 2027-01-01 -o json',
        'CONFCTL_DATABASE_URL=postgres://confctl@db.internal/confctl confctl admin keys create --name ci --permissions "*"',
      ),
    )
    .action(async (flags: OwnFlags<KeysCreateOptions>, cmd: Command) => (await import('./keys-run.js')).keysCreate({ ...flags, ...commonOptions(cmd) }, ctx));
  keys
    .command('list')
    .description('List access keys (never their secrets)')
    .option(...DATA)
    .option(...DATABASE)
    .option('--tenant <domain>', 'only the keys of this tenant')
    .addHelpText('after', examples('confctl admin keys list --tenant localhost', 'confctl admin keys list --database postgres://confctl@localhost/confctl'))
    .action(async (flags: OwnFlags<KeysListOptions>, cmd: Command) => (await import('./keys-run.js')).keysList({ ...flags, ...commonOptions(cmd) }, ctx));
  keys
    .command('revoke <id>')
    .description('Revoke an access key (a running serve refuses it from its next request on)')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText(
      'after',
      examples('confctl admin keys revoke ak_0123456789abcdefghijklmn', 'CONFCTL_DATABASE_URL=postgres://confctl@db.internal/confctl confctl admin keys revoke ak_0123456789abcdefghijklmn'),
    )
    .action(async (id: string, _flags: unknown, cmd: Command) => (await import('./keys-run.js')).keysRevoke({ id, ...commonOptions(cmd) }, ctx));
}
