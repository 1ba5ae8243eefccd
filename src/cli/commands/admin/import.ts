/** `confctl admin import`: registration only; the action loads when it runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { DATA, DATABASE, TENANT, commonOptions } from './flags.js';

export function register(admin: Command, ctx: CliContext): void {
  admin
    .command('import <kind> <file>')
    .description('Import users, departments, customers, conference-accounts, connected-accounts, calendars or events from a JSON array or NDJSON file, all or nothing')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin import users users.ndjson', 'confctl admin import customers customers.json --tenant acme.test'))
    .action(async (kind: string, file: string, flags: { tenant?: string }, cmd: Command) =>
      (await import('./import-run.js')).importFile({ kind, file, tenant: flags.tenant, ...commonOptions(cmd) }, ctx),
    );
}
