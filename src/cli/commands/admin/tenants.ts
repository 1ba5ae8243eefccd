/** `confctl admin tenants add|list`: registration only; the actions load when one runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { collect } from '../../collect.js';
import { DATA, DATABASE, commonOptions } from './flags.js';

export function register(admin: Command, ctx: CliContext): void {
  const tenants = admin.command('tenants').description('Manage tenants').addHelpText('after', examples('confctl admin tenants list'));
  tenants
    .command('add <domain>')
    .description('Add a tenant with the default roles')
    .option(...DATA)
    .option(...DATABASE)
    .option('--alias <domain>', 'an alias domain (repeatable)', collect)
    .addHelpText('after', examples('confctl admin tenants add acme.test --alias www.acme.test', 'CONFCTL_DATABASE_URL=postgres://confctl@db.internal/confctl confctl admin tenants add acme.test'))
    .action(async (domain: string, flags: { alias?: string[] }, cmd: Command) => (await import('./tenants-run.js')).tenantsAdd({ domain, aliases: flags.alias ?? [], ...commonOptions(cmd) }, ctx));
  tenants
    .command('list')
    .description('List tenants with their domains')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText('after', examples('confctl admin tenants list -o json', 'confctl admin tenants list --database postgres://confctl@localhost/confctl'))
    .action(async (_flags: unknown, cmd: Command) => (await import('./tenants-run.js')).tenantsList(commonOptions(cmd), ctx));
}
